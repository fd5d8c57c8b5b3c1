// The node:http form of the route, written once over the Fetch handling (serve.ts): the raw
// target (`originalUrl ?? url`) and headers in, the Response written out. No node: import, so a
// bundler for any platform takes it as it is.
import { answer } from './answer';
import type { Chunks } from './body';
import { FAILED, handle, OUTSIDE } from './serve';
import type { RouteSetup } from './setup';
import type { CheckoutNodeRequest, CheckoutNodeResponse } from './types';

/** The node handler: a path outside `basePath` goes to `next()` when given, else 404. */
export async function serveNode(
  setup: RouteSetup,
  req: CheckoutNodeRequest,
  res: CheckoutNodeResponse,
  next?: (error?: unknown) => void,
): Promise<void> {
  let response: Response;
  // `close` before the answer was handed over: the page left, and its reads stop with it.
  const left = new AbortController();
  res.once('close', () => {
    if (res.writableFinished !== true) left.abort(new Error('the page closed its request'));
  });
  try {
    const target = req.originalUrl ?? req.url ?? '/';
    const method = req.method ?? 'GET';
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : (value ?? null);
    };
    const handled = await handle(setup, {
      method,
      target,
      header,
      request: () => requestOf(req, method, target),
      body: () => bodyOf(req),
      nodeRequest: req,
      signal: left.signal,
    });
    if (handled === undefined && typeof next === 'function') {
      next();
      return;
    }
    response = handled ?? answer(setup.redactor, OUTSIDE);
  } catch {
    response = answer(setup.redactor, FAILED);
  }
  if (res.headersSent === true) return;
  const headers = Object.fromEntries(response.headers);
  // A body left unread is never read: the connection closes once the answer is out, so Node
  // does not drain the rest of it (a 413, or a refusal that needed no body).
  if (req.complete === false) {
    headers.connection = 'close';
    res.once('finish', () => req.destroy());
  }
  res.writeHead(response.status, headers);
  res.end(await response.text());
}

/** What a body parser left in `req.body`, or the stream itself when none ran. */
function bodyOf(req: CheckoutNodeRequest): Chunks | { parsed: unknown } {
  const { body } = req;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const once = [body].values();
    return { next: async () => once.next(), stop: () => undefined };
  }
  if (body !== undefined && body !== null) return { parsed: body };
  const chunks = req[Symbol.asyncIterator]();
  // Stopping only stops pulling: the connection is closed after the answer (see serveNode).
  return { next: () => chunks.next(), stop: () => undefined };
}

/** The Fetch Request `authorize` reads: method, URL and headers, no body. */
function requestOf(req: CheckoutNodeRequest, method: string, target: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) {
      try {
        headers.append(name, one);
      } catch {
        // A header the Fetch API cannot hold is left out; Node already checked its syntax.
      }
    }
  }
  const host = /^[\w.-]+(:\d+)?$/.test(header(req, 'host')) ? header(req, 'host') : 'localhost';
  // Concatenated, never resolved against a base: a target starting with `//` stays a path.
  return new Request(`http://${host}${target}`, { method, headers });
}

function header(req: CheckoutNodeRequest, name: string): string {
  const value = req.headers[name];
  return typeof value === 'string' ? value : '';
}
