import type * as z from 'zod/mini';
import type { RequestOptions } from '../core/http/transport';
import { PagePromise } from '../core/page-promise';
import { parseRequest } from '../core/validate';
import {
  type MerchantPayment,
  type MerchantPaymentsPage,
  MerchantPaymentsPageSchema,
  type PaymentListParams,
  PaymentListParamsSchema,
} from '../schemas/lists';
import {
  type PartnerPaymentListParams,
  PartnerPaymentListParamsSchema,
} from '../schemas/partner-payments';
import { merchantIdFor, type ResourceContext } from './resource';

type QueryValue = string | number | readonly string[] | undefined;

/** Query parameters in the given order; arrays repeat their name, undefined ones are left out. */
export function toQuery(entries: readonly (readonly [string, QueryValue])[]): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'number') query.append(name, String(value));
    else for (const item of value) query.append(name, item);
  }
  return query;
}

/**
 * The cursor a caller starts from, when it is one (validation rejects anything else later). An own
 * property only: a `cursor` inherited from a polluted `Object.prototype` is no start.
 */
export function startCursorOf(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null || !Object.hasOwn(params, 'cursor')) {
    return undefined;
  }
  const { cursor } = params as { cursor?: unknown };
  return typeof cursor === 'string' ? cursor : undefined;
}

/** The query both payment lists send, in one order; `cursor` is the page's, else the caller's. */
function paymentQuery(
  input: Omit<z.output<typeof PaymentListParamsSchema>, 'merchantId'>,
  cursor: string | undefined,
  merchantIds?: readonly string[],
): URLSearchParams {
  return toQuery([
    ['merchantId', merchantIds],
    ['startTs', input.startTs],
    ['endTs', input.endTs],
    // The one snake_case name of this query, as the service spells it.
    ['token_symbol', input.tokenSymbol],
    ['network', input.network],
    ['sortBy', input.sortBy],
    ['sortDir', input.sortDir],
    ['cursor', cursor ?? input.cursor],
    ['limit', input.limit],
    ['status', input.status],
    ['referenceId', input.referenceId],
  ]);
}

/** One request per page of a payment list, each built (and its input checked) by `request`. */
function pagedPayments(
  context: ResourceContext,
  operation: string,
  params: unknown,
  request: (cursor: string | undefined) => {
    path: string;
    query: URLSearchParams;
    headers?: Record<string, string>;
  },
  options: RequestOptions | undefined,
): PagePromise<MerchantPayment, MerchantPaymentsPage> {
  return new PagePromise({
    operation,
    redact: (text) => context.transport.config.redactor.string(text),
    startCursor: startCursorOf(params),
    items: (page) => page.data,
    nextCursor: (page) => page.nextCursor,
    fetch: (cursor) =>
      context.transport.request(() => ({
        operation,
        method: 'GET',
        ...request(cursor),
        response: MerchantPaymentsPageSchema,
        select: (page) => page,
        options,
      })),
  });
}

/** `payments.list`: GET /v1/merchants/payments, one request per page, Merchant-Id in a header. */
export function listPayments(
  context: ResourceContext,
  params: PaymentListParams,
  options: RequestOptions | undefined,
): PagePromise<MerchantPayment, MerchantPaymentsPage> {
  const operation = 'payments.list';
  return pagedPayments(
    context,
    operation,
    params,
    (cursor) => {
      const input = parseRequest(operation, PaymentListParamsSchema, params);
      const merchantId = merchantIdFor(context, operation, input.merchantId);
      return {
        path: '/v1/merchants/payments',
        query: paymentQuery(input, cursor),
        headers: { 'Merchant-Id': merchantId },
      };
    },
    options,
  );
}

/**
 * `partnerPayments.list`: GET /v1/payments, the same query plus repeated `merchantId`
 * parameters, and no Merchant-Id header (the client's default merchant does not apply).
 */
export function listPartnerPayments(
  context: ResourceContext,
  params: PartnerPaymentListParams,
  options: RequestOptions | undefined,
): PagePromise<MerchantPayment, MerchantPaymentsPage> {
  const operation = 'partnerPayments.list';
  return pagedPayments(
    context,
    operation,
    params,
    (cursor) => {
      // Not a destructured rest: that is a plain object, whose absent filters (cursor, startTs,
      // network, ...) would be read through a polluted Object.prototype. The parsed input holds
      // own properties only (a null prototype), and paymentQuery reads only its list fields.
      const input = parseRequest(operation, PartnerPaymentListParamsSchema, params);
      return { path: '/v1/payments', query: paymentQuery(input, cursor, input.merchantId) };
    },
    options,
  );
}
