import type { MockGateway, MockPayment } from 'merchant-gateway/testing';

/** A filter and sort, computed here over the mock's own data to check what the lists return. */
export interface ReferenceQuery {
  /** Inclusive, epoch ms. */
  start?: number;
  /** Exclusive, epoch ms. */
  end?: number;
  statuses?: readonly string[];
  tokens?: readonly string[];
  networks?: readonly string[];
  referenceId?: string;
  sortBy: 'date' | 'amount';
  sortDir: 'asc' | 'desc';
}

/** The lists know five statuses: a cancelled payment shows as failed. */
export const listStatusOf = (p: MockPayment): string =>
  p.status === 'cancelled' ? 'failed' : p.status;

const sortKey = (p: MockPayment, by: ReferenceQuery['sortBy']): bigint =>
  by === 'date' ? BigInt(Date.parse(p.createdAt)) : BigInt(p.amount.value);

/** The sample merchant's payments the query keeps, in its order (ties broken by payment id). */
export function referenceList(mock: MockGateway, q: ReferenceQuery): MockPayment[] {
  const direction = q.sortDir === 'asc' ? 1 : -1;
  return mock
    .payments(mock.sample.merchantId)
    .filter((p) => {
      const created = Date.parse(p.createdAt);
      if (q.start !== undefined && created < q.start) return false;
      if (q.end !== undefined && created >= q.end) return false;
      if (q.statuses && !q.statuses.includes(listStatusOf(p))) return false;
      if (q.tokens && !q.tokens.includes(p.token.symbol)) return false;
      if (q.networks && !q.networks.includes(p.token.network)) return false;
      const ref = q.referenceId?.toLowerCase();
      return ref === undefined || p.referenceId.toLowerCase().includes(ref);
    })
    .sort((a, b) => {
      const [ka, kb] = [sortKey(a, q.sortBy), sortKey(b, q.sortBy)];
      const byKey = ka < kb ? -1 : ka > kb ? 1 : 0;
      return direction * (byKey || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    });
}

/** Stats of a set of payments: succeeded revenue per currency (minor units), transactions, buyers. */
export function referenceStats(payments: readonly MockPayment[]) {
  const revenue = new Map<string, { minor: bigint; count: number }>();
  for (const p of payments) {
    if (listStatusOf(p) !== 'succeeded') continue;
    const currency = p.amount.unit.replace('iso4217/', '');
    const total = revenue.get(currency) ?? { minor: 0n, count: 0 };
    revenue.set(currency, { minor: total.minor + BigInt(p.amount.value), count: total.count + 1 });
  }
  // One buyer address is one customer on every chain.
  const buyers = new Set(
    payments.flatMap((p) =>
      p.buyer ? [p.buyer.accountCaip10.split(':').at(-1)?.toLowerCase()] : [],
    ),
  );
  return { revenue, transactions: payments.length, customers: buyers.size };
}

/** Major units to minor units of a two-decimal currency, as the sample's currencies all are. */
export const toMinor = (amount: number): bigint => BigInt(Math.round(amount * 100));
