// Which call a request's raw target names, decided on the raw text: nothing is decoded, so a
// `%2F`, `%2E%2E` or `%252F` can only fail the id rule, never reach another path.
import { PAYMENT_ID } from '../rules/ids';
import type { Refusal } from './answer';
import type { CheckoutRouteOperation } from './types';

/** The longest hold the page may ask of a status read or a confirm, in milliseconds. */
export const MAX_PAGE_POLL_MS = 30_000;

/** A call the route serves, with what the page may add to it. */
export interface Call {
  operation: CheckoutRouteOperation;
  paymentId: string;
  /** `?maxPollMs=` on `status` and `confirm`, clamped to {@link MAX_PAGE_POLL_MS}. */
  maxPollMs: number | undefined;
}

const METHOD: Record<CheckoutRouteOperation, 'GET' | 'POST'> = {
  get: 'GET',
  options: 'POST',
  fetch: 'POST',
  confirm: 'POST',
  status: 'GET',
  cancel: 'POST',
};

const SERVED =
  'the route serves GET …/payment/{id}, POST …/options, …/fetch, …/confirm and GET …/status';

/**
 * The call `target` (path and query, as received) names under `basePath`; `undefined` for a path
 * outside it; a refusal for anything else under it.
 */
export function parseTarget(
  target: string,
  method: string,
  basePath: string,
  allowCancel: boolean,
): Call | Refusal | undefined {
  const mark = target.indexOf('?');
  const path = mark === -1 ? target : target.slice(0, mark);
  if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
  const [head, paymentId, last, ...rest] = path.slice(basePath.length + 1).split('/');
  const name = last ?? 'get';
  const operation =
    head === 'payment' && rest.length === 0 && last !== 'get' && Object.hasOwn(METHOD, name)
      ? (name as CheckoutRouteOperation)
      : undefined;
  if (
    paymentId === undefined ||
    operation === undefined ||
    (operation === 'cancel' && !allowCancel)
  ) {
    return { status: 404, code: 'not_found', message: `no such route: ${SERVED}` };
  }
  if (paymentId.length > PAYMENT_ID.max || !PAYMENT_ID.pattern.test(paymentId)) {
    return invalid(
      `paymentId: must be pay_ then letters and digits, 1 to ${PAYMENT_ID.max} characters, as one path segment`,
    );
  }
  if (method !== METHOD[operation]) {
    return {
      status: 405,
      code: 'method_not_allowed',
      message: `${operation} takes ${METHOD[operation]} only`,
      allow: METHOD[operation],
    };
  }
  let maxPollMs: number | undefined;
  for (const pair of mark === -1 ? [] : target.slice(mark + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = equals === -1 ? pair : pair.slice(0, equals);
    const value = equals === -1 ? undefined : pair.slice(equals + 1);
    const polls = operation === 'status' || operation === 'confirm';
    if (key !== 'maxPollMs' || !polls || maxPollMs !== undefined) {
      return invalid(
        `query: ${JSON.stringify(key.slice(0, 64))} is not taken here (only maxPollMs, once, on status and confirm)`,
      );
    }
    if (value === undefined || !/^\d{1,16}$/.test(value)) {
      return invalid('maxPollMs: must be a whole number of milliseconds');
    }
    // Clamped, never refused: a page asking for a long hold gets the longest the route allows.
    maxPollMs = Math.min(Number(value), MAX_PAGE_POLL_MS);
  }
  return { operation, paymentId, maxPollMs };
}

function invalid(message: string): Refusal {
  return { status: 400, code: 'invalid_request', message };
}
