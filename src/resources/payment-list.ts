import { PagePromise } from '../core/page-promise';
import type { RequestOptions } from '../core/transport';
import { parseRequest } from '../core/validate';
import {
  type MerchantPayment,
  type MerchantPaymentsPage,
  MerchantPaymentsPageSchema,
  type PaymentListParams,
  PaymentListParamsSchema,
} from '../schemas/lists';
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

/** The cursor a caller starts from, when it is one (validation rejects anything else later). */
export function startCursorOf(params: unknown): string | undefined {
  const cursor = (params as { cursor?: unknown } | undefined)?.cursor;
  return typeof cursor === 'string' ? cursor : undefined;
}

/** `payments.list`: GET /v1/merchants/payments, one request per page, Merchant-Id in a header. */
export function listPayments(
  context: ResourceContext,
  params: PaymentListParams,
  options: RequestOptions | undefined,
): PagePromise<MerchantPayment, MerchantPaymentsPage> {
  const operation = 'payments.list';
  return new PagePromise({
    operation,
    redact: (text) => context.transport.config.redactor.string(text),
    startCursor: startCursorOf(params),
    items: (page) => page.data,
    nextCursor: (page) => page.nextCursor,
    fetch: (cursor) =>
      context.transport.request(() => {
        const input = parseRequest(operation, PaymentListParamsSchema, params);
        const merchantId = merchantIdFor(context, operation, input.merchantId);
        const query = toQuery([
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
        return {
          operation,
          method: 'GET',
          path: '/v1/merchants/payments',
          query,
          headers: { 'Merchant-Id': merchantId },
          response: MerchantPaymentsPageSchema,
          select: (page) => page,
          options,
        };
      }),
  });
}
