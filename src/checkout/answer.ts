// Every answer the page may see, decided here: a status, a JSON body (the call's result, or
// `{ error: { code, message } }`), `content-type`, `cache-control: no-store` and, on a 405,
// `Allow`. Nothing of the service's response (headers, request id, details) is passed on.
import { ApiError } from '../core/errors/api-error';
import { RequestValidationError, ResponseValidationError } from '../core/errors/base';
import { isUnknownOutcome } from '../core/errors/failure';
import { clip, type Redactor } from '../core/safety/redact';
import type { CheckoutRouteOperation } from './types';

/** An answer the route gives without (or instead of) a result: status, code, message. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  /** The method a 405 names in `Allow`. */
  allow?: string;
}

/** The longest message the page gets; a service message past it is cut. */
const MAX_MESSAGE = 500;

/**
 * The one place an answer is made: `body` is the call's result (status 200) or a refusal, run
 * through the client's redactor either way, so a key the service echoed never reaches the page.
 */
export function answer(redactor: Redactor, body: { result: unknown } | Refusal): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  };
  if ('result' in body) {
    return new Response(JSON.stringify(redactor.value(body.result)), { status: 200, headers });
  }
  if (body.allow !== undefined) headers.allow = body.allow;
  const error = { code: body.code, message: clip(body.message, MAX_MESSAGE) };
  return new Response(JSON.stringify({ error: redactor.value(error) }), {
    status: body.status,
    headers,
  });
}

/**
 * What the page is told of a failed call. The service's 4xx keeps its status, code and message;
 * a 5xx, a lost connection, a timeout or a body the SDK refused is 502 `upstream_error` (for a
 * confirm, the outcome is unknown: the page reads the status); a bug of ours is 500.
 */
export function refusalOf(error: unknown, operation: CheckoutRouteOperation): Refusal {
  if (error instanceof RequestValidationError) {
    const issues = error.issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message));
    return { status: 400, code: 'invalid_request', message: issues.join('; ') };
  }
  if (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.code !== undefined
  ) {
    const said = (error.body as { message?: unknown } | undefined)?.message;
    return {
      status: error.status,
      code: error.code,
      message:
        typeof said === 'string' && said !== ''
          ? said
          : `the payment service refused the call (${error.code})`,
    };
  }
  if (
    isUnknownOutcome(error) ||
    error instanceof ApiError ||
    error instanceof ResponseValidationError
  ) {
    return {
      status: 502,
      code: 'upstream_error',
      message:
        operation === 'confirm' || operation === 'cancel'
          ? `the payment service did not answer the ${operation}: its outcome is unknown; read the payment's status before trying again`
          : 'the payment service failed or could not be reached; try again',
    };
  }
  return { status: 500, code: 'internal_error', message: 'the checkout route failed' };
}
