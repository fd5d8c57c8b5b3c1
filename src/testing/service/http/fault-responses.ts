import { MAX_TIMER_MS } from '../../../core/timers';
import { gatewayCodeFor } from '../../../rules/gateway-errors';
import type { FailNextOptions } from '../../types';
import { headerIssues, isHeaderValue, shapeIssue } from './control-input';
import type { Operation } from './operation';
import { type Issue, json } from './responses';

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

/**
 * What is wrong with a fault, each issue naming its field, checked when it is given (never when
 * it is used): options that could never produce an answer, a delay no timer keeps, a header or
 * `retryAfter` HTTP cannot carry, a key naming a prototype, or a body nested too deep.
 */
export function faultIssues(options: FailNextOptions): Issue[] {
  if (!options || typeof options !== 'object')
    return [{ field: 'body', message: 'must be an object' }];
  const shape = shapeIssue(options, 'fault');
  if (shape) return [{ ...shape, field: shape.field.replace(/^fault\./, '') }];
  const { status, times, delayMs, networkError, retryAfter, headers } = options;
  const issues: Issue[] = [];
  if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599)) {
    issues.push({ field: 'status', message: `must be an integer from 200 to 599, got ${status}` });
  }
  if (times !== undefined && !(Number.isSafeInteger(times) && times >= 1)) {
    issues.push({ field: 'times', message: `must be a positive integer, got ${times}` });
  }
  if (delayMs !== undefined && !(delayMs >= 0 && delayMs <= MAX_TIMER_MS)) {
    issues.push({
      field: 'delayMs',
      message: `must be from 0 to ${MAX_TIMER_MS} ms, got ${delayMs}`,
    });
  }
  if (typeof retryAfter === 'string' && !isHeaderValue(retryAfter)) {
    issues.push({ field: 'retryAfter', message: 'must hold no CR, LF or other control character' });
  }
  if (headers !== undefined && headers !== null && typeof headers === 'object') {
    issues.push(...headerIssues(headers));
  }
  if (issues.length === 0 && status === undefined && !networkError && delayMs === undefined) {
    issues.push({ field: 'body', message: 'must give a status, networkError: true, or delayMs' });
  }
  return issues;
}

/** Fields whose issue is a number out of its range (a RangeError in-process), not a wrong shape. */
const RANGE_FIELDS: ReadonlySet<string> = new Set(['status', 'times', 'delayMs']);

/** Throws at `failNext()` time, naming the field, for a fault {@link faultIssues} refuses. */
export function checkFault(options: FailNextOptions): void {
  const [issue] = faultIssues(options);
  if (!issue) return;
  const message = `failNext: ${issue.field} ${issue.message}`;
  throw RANGE_FIELDS.has(issue.field) ? new RangeError(message) : new TypeError(message);
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
