/**
 * The controller's calls through a PSP's route (`gateway.buyer.route`) with plain `fetch`: no key,
 * no ky, answers checked with the client's own schemas. The route answers 200 with the service's
 * JSON, or `{ error: { code, message } }` under its status.
 */
import * as z from 'zod/mini';
import { ConnectionError, ResponseValidationError } from '../core/errors/base';
import { toIssues } from '../core/validate';
import {
  FetchActionsResultSchema,
  GatewayCancellationSchema,
  PaymentOptionsSchema,
} from '../schemas/buyer';
import { PaymentStatusResultSchema, PaymentViewSchema } from '../schemas/payment-view';
import { type CheckoutTransport, RouteError } from './transport';

/** The route's answer to one call, checked against `schema`; failures as the client's errors. */
async function call<S extends z.ZodMiniType>(
  url: string,
  method: 'GET' | 'POST',
  schema: S,
  body: unknown,
  signal: AbortSignal,
): Promise<z.output<S>> {
  const label = `${method} ${url}`;
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    signal.throwIfAborted();
    throw new ConnectionError(
      `${label}: connection failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (status < 200 || status > 299) {
    const said = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const code = typeof said?.code === 'string' ? said.code : `http_${status}`;
    const message =
      typeof said?.message === 'string' ? said.message : `the route answered ${status}`;
    throw new RouteError(status, code, `${label} → ${status} ${code}: ${message}`);
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) {
    throw new ResponseValidationError(label, {
      issues: json === undefined ? [{ field: '', message: 'not JSON' }] : toIssues(parsed.error),
      body: json ?? text,
      status,
      changesState: method === 'POST',
    });
  }
  return parsed.data;
}

/**
 * The calls of one payment through the route at `route` (`'/api/wcp'`, or an absolute URL):
 * `GET {route}/payment/{id}`, `POST …/options`, `…/fetch`, `…/confirm`, `GET …/status`,
 * `POST …/cancel`. Bodies are the buyer methods' params; `maxPollMs` goes in the query.
 */
export function routeTransport(route: string, paymentId: string): CheckoutTransport {
  const base = `${route.replace(/\/+$/, '')}/payment/${encodeURIComponent(paymentId)}`;
  const held = (path: string, maxPollMs: number) => `${base}${path}?maxPollMs=${maxPollMs}`;
  return {
    get: (signal) => call(base, 'GET', PaymentViewSchema, undefined, signal),
    options: (accounts, refresh, signal) =>
      call(
        `${base}/options`,
        'POST',
        PaymentOptionsSchema,
        { accounts, includePaymentInfo: true, ...(refresh === undefined ? {} : { refresh }) },
        signal,
      ),
    fetchActions: async (optionId, data, signal) =>
      (await call(`${base}/fetch`, 'POST', FetchActionsResultSchema, { optionId, data }, signal))
        .actions,
    confirm: (params, maxPollMs, signal) =>
      call(held('/confirm', maxPollMs), 'POST', PaymentStatusResultSchema, params, signal),
    status: (maxPollMs, signal) =>
      call(held('/status', maxPollMs), 'GET', PaymentStatusResultSchema, undefined, signal),
    cancel: (signal) => call(`${base}/cancel`, 'POST', GatewayCancellationSchema, {}, signal),
  };
}
