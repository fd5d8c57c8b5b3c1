import { BASE_URL, HttpResponse, http, recorder } from '.';

export const MERCHANT_ID = 'mer_1';
export const LIST_URL = `${BASE_URL}/v1/merchants/payments`;
export const LEGACY_URL = `${BASE_URL}/v1/merchants/${MERCHANT_ID}/payments`;

/** A replacement-list item with only the required fields. */
export function paymentItem(n: number) {
  return {
    paymentId: `pay_${n}`,
    merchant: { id: MERCHANT_ID },
    referenceId: `order-${n}`,
    status: 'succeeded',
    isTerminal: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUpdatedAt: '2026-01-01T00:00:01.000Z',
  };
}

export const stats = {
  totalRevenue: [{ amount: 12.5, currency: 'USD' }],
  totalTransactions: 7,
  totalCustomers: 3,
};

export function page(items: unknown[], nextCursor: string | null | undefined) {
  return { data: items, ...(nextCursor === undefined ? {} : { nextCursor }), stats };
}

/** A legacy-list item with every required key. */
export function legacyItem(n: number) {
  return {
    payment_id: `pay_${n}`,
    merchant_id: MERCHANT_ID,
    reference_id: `order-${n}`,
    status: 'succeeded',
    is_terminal: true,
    wallet_name: 'Wallet',
    token_symbol: null,
    token_decimals: null,
    token_logo: null,
    chain_logo: null,
    wallet_logo: null,
  };
}

/** The deprecated list's answer when nothing matches. */
export const emptyLegacyPage = {
  data: [],
  next_cursor: null,
  stats: {
    total_customers: 0,
    total_transactions: 0,
    total_revenue: { amount: 0, currency: 'USD' },
  },
};

export const legacyStats = {
  total_customers: 3,
  total_transactions: 7,
  total_revenue: { amount: 12.5, currency: 'USD' },
};

export function legacyPage(items: unknown[], nextCursor: string | null | undefined) {
  return {
    data: items,
    ...(nextCursor === undefined ? {} : { next_cursor: nextCursor }),
    stats: legacyStats,
  };
}

/**
 * A replacement list of `total` items served `limit` (query, default 10) at a time, the cursor
 * being the index of the next item. Records every request.
 */
export function pagedList(total: number) {
  const r = recorder((request) => {
    const query = new URL(request.url).searchParams;
    const limit = Number(query.get('limit') ?? 10);
    const from = Number(query.get('cursor') ?? 0);
    const to = Math.min(total, from + limit);
    const items = Array.from({ length: to - from }, (_, i) => paymentItem(from + i));
    return HttpResponse.json(page(items, to < total ? String(to) : null));
  });
  return { seen: r.seen, handler: http.get(LIST_URL, r.resolver) };
}

/** The query of each recorded request. */
export function queries(seen: readonly Request[]): URLSearchParams[] {
  return seen.map((request) => new URL(request.url).searchParams);
}
