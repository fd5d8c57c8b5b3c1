import type { FailNextOptions } from '../types';
import { json } from './responses';

const DEFAULT_CODES: Record<number, string> = {
  400: 'invalid_params',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** Statuses a Response may not carry a body with. */
const NULL_BODY = new Set([204, 205, 304]);

/** Throws at `failNext()` time for options that could never produce an answer. */
export function checkFault(options: FailNextOptions): void {
  const { status, times, delayMs, networkError } = options;
  if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599)) {
    throw new RangeError(`failNext: status must be an integer from 200 to 599, got ${status}`);
  }
  if (times !== undefined && !(Number.isInteger(times) && times >= 1)) {
    throw new RangeError(`failNext: times must be a positive integer, got ${times}`);
  }
  if (delayMs !== undefined && !(delayMs >= 0)) {
    throw new RangeError(`failNext: delayMs must be >= 0, got ${delayMs}`);
  }
  if (status === undefined && !networkError && delayMs === undefined) {
    throw new TypeError('failNext: give a status, networkError: true, or delayMs');
  }
}

/** The injected error response: the given raw or JSON body, else `{ code, message }`. */
export function faultResponse(options: FailNextOptions & { status: number }): Response {
  const { status, retryAfter, body } = options;
  const headers: Record<string, string> = {
    ...(retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {}),
    ...options.headers,
  };
  if (typeof body === 'string') {
    const empty = body === '' || NULL_BODY.has(status);
    const type = body.trimStart().startsWith('<') ? 'text/html' : 'text/plain';
    return new Response(empty ? null : body, {
      status,
      headers: empty ? headers : { 'content-type': `${type}; charset=utf-8`, ...headers },
    });
  }
  if (NULL_BODY.has(status)) return new Response(null, { status, headers });
  return json(
    status,
    body ?? {
      code: options.code ?? DEFAULT_CODES[status] ?? `http_${status}`,
      message: options.message ?? `Injected failure: HTTP ${status}`,
    },
    headers,
  );
}
