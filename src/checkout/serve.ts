// The route's handling, loaded on its first request: the target parsed, `authorize` asked, the
// body read, then the client's own buyer method called (its checks, retries and the confirm's
// never-twice rule hold), and every outcome turned into an answer by answer.ts.
import type {
  ConfirmPaymentParams,
  FetchActionsParams,
  PaymentOptionsParams,
} from '../schemas/buyer';
import { answer, type Refusal, refusalOf } from './answer';
import { type BodyRead, type Chunks, mediaTypeRefusal, parsedJson, readJson } from './body';
import type { RouteSetup } from './setup';
import { type Call, parseTarget } from './target';
import type { CheckoutNodeRequest } from './types';

/** A request as the handling sees it, from either host. */
export interface Incoming {
  method: string;
  /** Path and query exactly as received. */
  target: string;
  header(name: string): string | null;
  /** The Fetch Request `authorize` is given. */
  request(): Request;
  /** The body's chunks, or what a framework already parsed (`{ parsed }`). */
  body(): Chunks | { parsed: unknown };
  nodeRequest?: CheckoutNodeRequest | undefined;
  /** Aborted when the page goes away before its answer: the reads made for it stop too. */
  signal?: AbortSignal | undefined;
}

/** 404 for a path outside `basePath`, when the host has nothing else to give it to. */
export const OUTSIDE: Refusal = {
  status: 404,
  code: 'not_found',
  message: 'no such route: the checkout route is mounted elsewhere',
};

const READS_BODY = new Set(['options', 'fetch', 'confirm']);

/**
 * The answer to `incoming`, or undefined when its path is outside `basePath`. Every failure of a
 * call is an answer; it rejects only on a bug before any call was named.
 */
export async function handle(setup: RouteSetup, incoming: Incoming): Promise<Response | undefined> {
  const { redactor } = setup;
  let call: Call | Refusal | undefined;
  try {
    call = parseTarget(incoming.target, incoming.method, setup.basePath, setup.allowCancel);
    if (call === undefined) return undefined;
    if (!('operation' in call)) return answer(redactor, call);
    const refused = await authorize(setup, incoming, call);
    if (refused !== undefined) return answer(redactor, refused);
    let params: Record<string, unknown> = {};
    if (READS_BODY.has(call.operation)) {
      const read: BodyRead =
        mediaTypeRefusal(incoming.header('content-type')) ?? (await readBody(setup, incoming));
      if ('refusal' in read) return answer(redactor, read.refusal);
      params = read.value;
    }
    return answer(redactor, { result: await perform(setup, call, params, incoming.signal) });
  } catch (error) {
    if (call === undefined || !('operation' in call)) throw error;
    // Nobody is left to read this answer, and a read stopped for that is no failure to log.
    if (incoming.signal?.aborted === true) return answer(redactor, GONE);
    const refusal = refusalOf(error, call.operation);
    if (refusal.status === 500) {
      setup.logger.log('error', `checkout route: ${call.operation} failed: ${describe(error)}`);
    }
    return answer(redactor, refusal);
  }
}

/** `authorize`'s verdict: undefined to go on, else 403 (or 500 when it threw, logged). */
async function authorize(
  setup: RouteSetup,
  incoming: Incoming,
  { operation, paymentId }: Call,
): Promise<Refusal | undefined> {
  if (setup.authorize === undefined) return undefined;
  let allowed: unknown;
  try {
    allowed = await setup.authorize(incoming.request(), {
      paymentId,
      operation,
      ...(incoming.nodeRequest === undefined ? {} : { nodeRequest: incoming.nodeRequest }),
    });
  } catch (error) {
    setup.logger.log('error', `checkout route: authorize threw, so it refused: ${describe(error)}`);
    return FAILED;
  }
  // Only `true` allows: a truthy object or a forgotten `return` refuses.
  return allowed === true
    ? undefined
    : { status: 403, code: 'forbidden', message: `this request may not ${operation} this payment` };
}

// The host's log gets what went wrong (the logger redacts it); the page never does.
function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function readBody(setup: RouteSetup, incoming: Incoming): Promise<BodyRead> {
  const body = incoming.body();
  return 'parsed' in body
    ? Promise.resolve(parsedJson(body.parsed))
    : readJson(body, incoming.header('content-length'), setup.maxBodyBytes);
}

/**
 * The one buyer call `call` names; `/fetch` answers `{ actions }`, as the service does. Reads stop
 * with `signal` (a held status read would otherwise hold a connection to the service for up to
 * 30 s after the page left); a confirm or a cancel, once asked for, is seen through: stopping it
 * would not undo what the service may already have done, only hide its outcome from the logs.
 */
async function perform(
  { buyer }: RouteSetup,
  { operation, paymentId, maxPollMs }: Call,
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const poll = maxPollMs === undefined ? {} : { maxPollMs };
  const read = { signal };
  switch (operation) {
    case 'get':
      return buyer.get(paymentId, read);
    case 'status':
      return buyer.status(paymentId, poll, read);
    case 'options':
      return buyer.options(paymentId, params as unknown as PaymentOptionsParams, read);
    case 'fetch':
      return {
        actions: await buyer.fetchActions(paymentId, params as unknown as FetchActionsParams, read),
      };
    case 'confirm':
      return buyer.confirm(paymentId, params as unknown as ConfirmPaymentParams, poll);
    case 'cancel':
      return buyer.cancel(paymentId);
  }
}

/** The Fetch handler: every request answered, a path outside `basePath` with 404. */
export async function serveFetch(setup: RouteSetup, request: Request): Promise<Response> {
  const { url } = request;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const response = await handle(setup, {
    method: request.method,
    // The URL as the host serialized it: its path and query, undecoded.
    target: url.slice(url.indexOf('/', url.indexOf('//') + 2)),
    header: (name) => request.headers.get(name),
    request: () => request,
    signal: request.signal,
    body: () => {
      reader = request.body?.getReader();
      return {
        next: () => reader?.read() ?? Promise.resolve({ done: true, value: undefined }),
        stop: () => void reader?.cancel().catch(() => undefined),
      };
    },
  }).catch(() => answer(setup.redactor, FAILED));
  // A body no answer needed is not read either.
  if (reader === undefined && request.body !== null && !request.body.locked) {
    request.body.cancel().catch(() => undefined);
  }
  return response ?? answer(setup.redactor, OUTSIDE);
}

/** The answer to a page that left first: written nowhere, so only its status matters (nginx's). */
const GONE: Refusal = {
  status: 499,
  code: 'client_closed_request',
  message: 'the page closed its request before the answer',
};

/** What a failure outside any call (a bug of ours, `authorize` throwing) answers. */
export const FAILED: Refusal = {
  status: 500,
  code: 'internal_error',
  message: 'the checkout route failed',
};
