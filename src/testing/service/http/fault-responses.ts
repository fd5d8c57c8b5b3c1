import { gatewayCodeFor } from '../../../rules/gateway-errors';
import type { FailNextOptions } from '../../types';
import type { Operation } from './operation';
import { json } from './responses';

/**
 * The code of an injected error when `failNext` gives none: one the operation's contract names
 * for that status, so a fault looks like the service's own answer. On the payment operations and
 * anywhere under `/v1/gateway/` that is a code of the gateway's `ErrorCode` enum (404
 * `payment_not_found`, 502/503/504 `internal_error`: strict clients refuse any other); 409 on
 * refunds is `already_refunded`, elsewhere `idempotency_conflict`.
 */
export function defaultFaultCode(
  status: number,
  operation: Operation | undefined,
  path: string,
): string {
  const code = merchantFaultCode(status, path);
  return operation?.errors === 'shared' || path.startsWith('/v1/gateway/')
    ? gatewayCodeFor(status, code)
    : code;
}

function merchantFaultCode(status: number, path: string): string {
  switch (status) {
    case 400:
      return 'params_validation';
    case 401:
      return 'invalid_api_key';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return path.startsWith('/v1/refunds') ? 'already_refunded' : 'idempotency_conflict';
    case 429:
      return 'rate_limited';
    case 500:
      return 'internal_error';
    case 502:
      return 'bad_gateway';
    case 503:
      return 'service_unavailable';
    case 504:
      return 'gateway_timeout';
    default:
      return `http_${status}`;
  }
}

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
export function faultResponse(
  options: FailNextOptions & { status: number },
  operation?: Operation,
  path = '',
): Response {
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
      code: options.code ?? defaultFaultCode(status, operation, path),
      message: options.message ?? `Injected failure: HTTP ${status}`,
    },
    headers,
  );
}
