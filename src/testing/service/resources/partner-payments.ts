import { requestedVersion } from '../http/auth';
import type { RequestContext } from '../http/request-context';
import { json } from '../http/responses';
import { paymentItem } from './list-items';
import { parseListQuery } from './list-query';
import { customers, revenue, select } from './payment-lists';

/**
 * GET /v1/payments: the partner-wide list. Repeated `merchantId` parameters choose merchants (an
 * id that is not the partner's matches nothing); none means every merchant of the partner, as the
 * mock has one partner. Filters, sorts, cursors and stats are those of GET /v1/merchants/payments.
 * A soft-deleted merchant's payments stay listed: they are history a partner reconciles.
 */
export function mockListPartnerPayments(ctx: RequestContext): Response {
  const ids = ctx.url.searchParams.getAll('merchantId');
  const query = parseListQuery(
    ctx.url.searchParams,
    'payments',
    requestedVersion(ctx.request.headers),
  );
  const { all, page, nextCursor } = select(
    ctx,
    'payments',
    ids.length > 0 ? [...new Set(ids)].sort() : undefined,
    query,
  );
  return json(200, {
    data: page.flatMap((p) => {
      const merchant = ctx.store.merchants.get(p.merchantId);
      return merchant
        ? [paymentItem(p, merchant, ctx.now, query.statusSet, ctx.store.config.fee)]
        : [];
    }),
    nextCursor,
    stats: {
      totalRevenue: revenue(all, ctx.now).map(({ amount, currency }) => ({ amount, currency })),
      totalTransactions: all.length,
      totalCustomers: customers(all),
    },
  });
}
