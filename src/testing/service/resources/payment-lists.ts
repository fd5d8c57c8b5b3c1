import { fiatInfo } from '../../state/catalog';
import type { PaymentRecord } from '../../state/records';
import type { Store } from '../../state/store';
import { requestedVersion } from '../http/auth';
import type { RequestContext } from '../http/request-context';
import { json, ServiceError } from '../http/responses';
import { type CursorPosition, decodeCursor, encodeCursor, hashQuery } from './cursor';
import { legacyPaymentItem, listStatus, paymentItem } from './list-items';
import { type ListKind, type ListQuery, parseListQuery } from './list-query';

interface Selection {
  /** Every payment the filters keep, in list order. */
  all: PaymentRecord[];
  page: PaymentRecord[];
  nextCursor: string | null;
}

/**
 * Filters, sorts (sort key, then payment id: a total order) and pages the payments of the given
 * merchants (undefined: every merchant's). Stats are computed by the callers over `all`, the
 * whole filtered set.
 */
export function select(
  ctx: RequestContext,
  kind: ListKind,
  merchantIds: readonly string[] | undefined,
  query: ListQuery,
): Selection {
  const { cursor, limit, ...filters } = query;
  const hash = hashQuery({ kind, merchantIds, ...filters });
  const compare = comparer(query.sortDir);
  const scope = merchantIds && new Set(merchantIds);
  const order = sortedPayments(ctx.store, query.sortBy, query.sortDir);
  const [lo, hi] = query.sortBy === 'date' ? dateRange(order, query) : [0, order.length];
  const sorted: Sorted[] = [];
  for (let i = lo; i < hi; i++) {
    const entry = order[i] as Sorted;
    const { p } = entry;
    if ((!scope || scope.has(p.merchantId)) && matches(p, query, ctx.now)) sorted.push(entry);
  }
  let from = 0;
  if (cursor !== undefined) {
    const after = decodeCursor(cursor, hash);
    from = sorted.findIndex(({ position }) => compare(position, after) > 0);
    if (from === -1) from = sorted.length;
  }
  const all = sorted.map(({ p }) => p);
  const page = all.slice(from, from + limit);
  const last = sorted[from + page.length - 1];
  const more = from + limit < all.length;
  return { all, page, nextCursor: more && last ? encodeCursor(last.position, hash) : null };
}

interface Sorted {
  p: PaymentRecord;
  position: CursorPosition;
}

/** Sort key, then payment id: a total order, `asc` or `desc`. */
function comparer(sortDir: ListQuery['sortDir']) {
  const direction = sortDir === 'asc' ? 1 : -1;
  return (a: CursorPosition, b: CursorPosition) =>
    direction * (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Every payment in one list order, kept between requests: a payment's sort keys (creation time,
 * amount) never change, so the order only needs rebuilding when payments are added or the mock
 * is reset. A sweep of 10,000 followed payments then costs each page a pass, not a sort.
 */
const orders = new WeakMap<
  Store,
  { generation: number; size: number; byKey: Map<string, Sorted[]> }
>();

function sortedPayments(
  store: Store,
  sortBy: ListQuery['sortBy'],
  sortDir: ListQuery['sortDir'],
): readonly Sorted[] {
  let cache = orders.get(store);
  if (
    cache === undefined ||
    cache.generation !== store.generation ||
    cache.size !== store.payments.size
  ) {
    cache = { generation: store.generation, size: store.payments.size, byKey: new Map() };
    orders.set(store, cache);
  }
  const key = `${sortBy} ${sortDir}`;
  let order = cache.byKey.get(key);
  if (order === undefined) {
    const compare = comparer(sortDir);
    // Keys are computed once per payment, not once per comparison.
    order = [...store.payments.values()]
      .map((p) => ({
        p,
        position: { key: sortBy === 'date' ? BigInt(p.createdAt) : p.fiatMinor, id: p.id },
      }))
      .sort((a, b) => compare(a.position, b.position));
    cache.byKey.set(key, order);
  }
  return order;
}

/** The first index in `order` at which `past` turns true (it is false, then true, along it). */
function firstWhere(order: readonly Sorted[], past: (createdAt: number) => boolean): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (past((order[mid] as Sorted).p.createdAt)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The slice of a date-sorted order within `startTs`/`endTs`, found by binary search. */
function dateRange(order: readonly Sorted[], q: ListQuery): [number, number] {
  const { start, end } = q;
  if (q.sortDir === 'asc') {
    return [
      start === undefined ? 0 : firstWhere(order, (t) => t >= start),
      end === undefined ? order.length : firstWhere(order, (t) => t >= end),
    ];
  }
  return [
    end === undefined ? 0 : firstWhere(order, (t) => t < end),
    start === undefined ? order.length : firstWhere(order, (t) => t < start),
  ];
}

function matches(p: PaymentRecord, q: ListQuery, nowMs: number): boolean {
  if (q.start !== undefined && p.createdAt < q.start) return false;
  if (q.end !== undefined && p.createdAt >= q.end) return false;
  if (q.statuses && !q.statuses.includes(listStatus(p, nowMs, q.statusSet))) return false;
  const { token } = p;
  if (
    q.tokens &&
    !q.tokens.some(
      (t) =>
        t.toUpperCase() === token.symbol.toUpperCase() ||
        t === token.asset ||
        t === `caip19/${token.asset}`,
    )
  ) {
    return false;
  }
  if (
    q.networks &&
    !q.networks.some((n) => n === token.network.id || `eip155:${n}` === token.network.id)
  ) {
    return false;
  }
  if (q.referenceId && !p.referenceId.toLowerCase().includes(q.referenceId.toLowerCase())) {
    return false;
  }
  return true;
}

/** Succeeded revenue per currency, in major units, currencies in alphabetical order. */
export function revenue(
  all: readonly PaymentRecord[],
  nowMs: number,
): { amount: number; currency: string; count: number }[] {
  const totals = new Map<string, { minor: bigint; count: number }>();
  for (const p of all) {
    if (listStatus(p, nowMs) !== 'succeeded') continue;
    const total = totals.get(p.currency) ?? { minor: 0n, count: 0 };
    total.minor += p.fiatMinor;
    total.count++;
    totals.set(p.currency, total);
  }
  return [...totals.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, { minor, count }]) => ({
      amount: Number(minor) / 10 ** fiatInfo(currency).decimals,
      currency,
      count,
    }));
}

/** Distinct buyer accounts (one address is one customer on every chain). */
export function customers(all: readonly PaymentRecord[]): number {
  return new Set(all.flatMap((p) => (p.buyer ? [p.buyer.address.toLowerCase()] : []))).size;
}

/** GET /v1/merchants/payments (Merchant-Id header). An unknown merchant has no payments. */
export function mockListPayments(ctx: RequestContext): Response {
  const merchantId = ctx.request.headers.get('merchant-id');
  if (!merchantId) {
    throw new ServiceError(401, 'missing_merchant_id', 'Merchant-Id header is required');
  }
  const version = requestedVersion(ctx.request.headers);
  const query = parseListQuery(ctx.url.searchParams, 'payments', version);
  const { all, page, nextCursor } = select(ctx, 'payments', [merchantId], query);
  const merchant = ctx.store.merchants.get(merchantId);
  return json(200, {
    data: merchant
      ? page.map((p) => paymentItem(p, merchant, ctx.now, query.statusSet, ctx.store.config.fee))
      : [],
    nextCursor,
    stats: {
      totalRevenue: revenue(all, ctx.now).map(({ amount, currency }) => ({ amount, currency })),
      totalTransactions: all.length,
      totalCustomers: customers(all),
    },
  });
}

/**
 * Deprecated GET /v1/merchants/{merchant_id}/payments. Its stats hold one revenue figure: the
 * currency with the most succeeded payments (USD 0 when none succeeded).
 */
export function listLegacyPayments(ctx: RequestContext): Response {
  const merchantId = ctx.params[0] ?? '';
  const query = parseListQuery(ctx.url.searchParams, 'legacy');
  const { all, page, nextCursor } = select(ctx, 'legacy', [merchantId], query);
  const [top] = revenue(all, ctx.now).sort((a, b) => b.count - a.count);
  return json(
    200,
    {
      data: page.map((p) => legacyPaymentItem(p, ctx.now)),
      next_cursor: nextCursor,
      stats: {
        total_customers: customers(all),
        total_transactions: all.length,
        total_revenue: { amount: top?.amount ?? 0, currency: top?.currency ?? 'USD' },
      },
    },
    { deprecation: 'true', link: '</v1/merchants/payments>; rel="successor-version"' },
  );
}
