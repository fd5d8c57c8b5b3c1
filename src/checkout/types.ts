// The checkout route's public types: what `buyer.route(options)` takes and gives. Types only, so
// the first load of either entry carries none of the route's code.

/**
 * What the page asked for, as `authorize` sees it: the route's own name for each call.
 * `get` is `GET …/payment/{id}`; the others are the path's last segment (`POST …/options`, `…/fetch`,
 * `…/confirm`, `…/cancel`, `GET …/status`).
 */
export type CheckoutRouteOperation = 'get' | 'options' | 'fetch' | 'confirm' | 'status' | 'cancel';

/** The second argument of `authorize`: which payment, and which call on it. */
export interface CheckoutRouteCall {
  /** The payment id from the path, already checked (`pay_` then letters and digits, 1 to 64). */
  paymentId: string;
  operation: CheckoutRouteOperation;
  /**
   * In `node()`, the incoming request itself (Express's `req`, with its `session` or `user`):
   * cast it to your framework's type. Undefined in `fetch()`.
   */
  nodeRequest?: CheckoutNodeRequest | undefined;
}

/** Options of `buyer.route()`. */
export interface CheckoutRouteOptions {
  /**
   * Where the route is mounted: every path it serves starts with it. One or more segments of
   * letters, digits, `-`, `_`, `.` and `~`, without a trailing slash.
   * @default '/api/wcp'
   */
  basePath?: string | undefined;
  /**
   * Decides whether this request may make this call on this payment, before anything is sent
   * to the service: tie the payment to your buyer's session here (read the cookie from
   * `request.headers`). `false` answers 403 `forbidden`. May be async; must not read the body.
   * Without it every well-formed request for any payment id is served.
   *
   * @example
   * ```ts
   * const authorize = async (request: Request, { paymentId }: { paymentId: string }) =>
   *   (await sessionOf(request))?.paymentId === paymentId;
   * ```
   */
  authorize?:
    | ((request: Request, call: CheckoutRouteCall) => boolean | Promise<boolean>)
    | undefined;
  /**
   * Serve `POST …/payment/{id}/cancel` (`buyer.cancel`): off by default, as the service's own
   * checkout routes have no cancel and a cancel cannot be undone.
   * @default false
   */
  allowCancel?: boolean | undefined;
  /**
   * Largest request body read, in bytes; past it the answer is 413 `payload_too_large` and the
   * rest is never read.
   * @default 262_144 (256 KiB)
   */
  maxBodyBytes?: number | undefined;
}

/**
 * The request `node()` takes: Node's `IncomingMessage`, or a framework's request built on it
 * (Express, Fastify's `request.raw`). `body` is used when a body parser already read it.
 */
export interface CheckoutNodeRequest extends AsyncIterable<unknown> {
  method?: string | undefined;
  url?: string | undefined;
  /** Express's full path (`url` is cut to the part after the mount point). */
  originalUrl?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** What a body parser made of the body: an object is used as the JSON, a Buffer or string parsed. */
  body?: unknown;
  /** Whether the whole message (its body too) has arrived. */
  readonly complete?: boolean | undefined;
  destroy(error?: Error): unknown;
}

/** The response `node()` writes: Node's `ServerResponse`, or a framework's built on it. */
export interface CheckoutNodeResponse {
  readonly headersSent?: boolean | undefined;
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string): unknown;
  once(event: 'finish' | 'close', listener: () => void): unknown;
  /** Whether the whole answer was handed to the system: false at `close` when the page left first. */
  readonly writableFinished?: boolean | undefined;
}

/**
 * The checkout route's two handlers, one per kind of host: both serve the same routes and give
 * the same answers.
 */
export interface CheckoutRoute {
  /**
   * For Fetch hosts (Next.js route handlers, Hono, Workers, Deno, Bun): answers every request,
   * 404 `not_found` for a path outside `basePath`. Never rejects.
   */
  fetch(request: Request): Promise<Response>;
  /**
   * For `node:http`, Express and Fastify: a path outside `basePath` goes to `next()` when given
   * (else 404). Matches `req.originalUrl ?? req.url`. Never rejects.
   */
  node(
    req: CheckoutNodeRequest,
    res: CheckoutNodeResponse,
    next?: (error?: unknown) => void,
  ): Promise<void>;
}
