import type { MockPayment } from 'merchant-gateway/testing';
import { describe, expect, it } from 'vitest';
import { emptyLegacyPage } from '../../../support/list-fixtures';
import {
  type ErrorBody,
  type Harness,
  TRANSPORTS,
  useMockGateway,
} from '../../../support/mock-harness';

interface Item {
  paymentId: string;
  status: string;
  referenceId: string;
  [key: string]: unknown;
}
interface Page {
  data: Item[];
  nextCursor: string | null;
  stats: {
    totalRevenue: { amount: number; currency: string }[];
    totalTransactions: number;
    totalCustomers: number;
  };
}
interface LegacyItem {
  payment_id: string;
  [key: string]: unknown;
}
interface LegacyPage {
  data: LegacyItem[];
  next_cursor: string | null;
  stats: {
    total_customers: number;
    total_transactions: number;
    total_revenue: { amount: number; currency: string };
  };
}

const listStatus = (p: MockPayment) => (p.status === 'cancelled' ? 'failed' : p.status);
const byDate = (dir: 1 | -1) => (a: MockPayment, b: MockPayment) =>
  dir * (Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1));
const byAmount = (dir: 1 | -1) => (a: MockPayment, b: MockPayment) => {
  const [x, y] = [BigInt(a.amount.value), BigInt(b.amount.value)];
  return dir * (x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1);
};

/** Stats as the service defines them, computed independently from the mock's own view. */
function expectedStats(payments: MockPayment[]) {
  const revenue = new Map<string, bigint>();
  for (const p of payments.filter((x) => listStatus(x) === 'succeeded')) {
    const currency = p.amount.unit.slice('iso4217/'.length);
    revenue.set(currency, (revenue.get(currency) ?? 0n) + BigInt(p.amount.value));
  }
  return {
    totalRevenue: [...revenue]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, minor]) => ({ amount: Number(minor) / 100, currency })),
    totalTransactions: payments.length,
    totalCustomers: new Set(
      payments.flatMap((p) => (p.buyer ? [p.buyer.accountCaip10.split(':')[2]] : [])),
    ).size,
  };
}

function client(h: Harness) {
  const headers = () => ({ ...h.auth, 'Merchant-Id': h.mock.sample.merchantId });
  const list = <T = Page>(query = '') =>
    h.call<T & ErrorBody>(`/v1/merchants/payments${query}`, { headers: headers() });
  const legacy = <T = LegacyPage>(query = '', merchantId = h.mock.sample.merchantId) =>
    h.call<T & ErrorBody>(`/v1/merchants/${merchantId}/payments${query}`, {
      headers: { 'X-Api-Key': h.mock.credentials.legacyApiKey },
    });
  /** Follows nextCursor to the end; returns every id in order and the number of pages. */
  async function all(query: string) {
    const ids: string[] = [];
    let pages = 0;
    let cursor: string | null = null;
    do {
      const sep = query ? '&' : '?';
      const res: { status: number; body: Page } = await list(
        cursor === null ? query : `${query}${sep}cursor=${encodeURIComponent(cursor)}`,
      );
      expect(res.status).toBe(200);
      ids.push(...res.body.data.map((item) => item.paymentId));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor !== null);
    return { ids, pages };
  }
  async function allLegacy(query: string) {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: LegacyPage } = await legacy(
        cursor === null ? query : `${query}&cursor=${encodeURIComponent(cursor)}`,
      );
      ids.push(...res.body.data.map((item) => item.payment_id));
      cursor = res.body.next_cursor;
    } while (cursor !== null);
    return ids;
  }
  return { list, legacy, all, allLegacy };
}

/** `ids` are the 1,000 `sample` payments, each once, newest first. */
function expectEverySampleNewestFirst(ids: string[], sample: MockPayment[]): void {
  expect(new Set(ids).size).toBe(1000);
  expect(ids).toEqual(sample.sort(byDate(-1)).map((p) => p.id));
}

describe.each(TRANSPORTS)('the payment list over %s', (transport) => {
  const h = useMockGateway(transport);
  const api = client(h);
  const sample = () => h.mock.payments(h.mock.sample.merchantId);

  it('pages through the 1,000 sample payments with limit 37, each exactly once, newest first', async () => {
    const { ids, pages } = await api.all('?limit=37');
    expect(pages).toBe(Math.ceil(1000 / 37));
    expectEverySampleNewestFirst(ids, sample());
  });

  it('returns 20 items by default and a null nextCursor on the last page', async () => {
    const first = await api.list();
    expect(first.body.data).toHaveLength(20);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const last = await api.list('?status=processing&limit=200');
    expect(last.body.data).toHaveLength(h.mock.sample.statusCounts.processing);
    expect(last.body.nextCursor).toBeNull();
  });

  it.each([
    ['date', 'asc', byDate(1)],
    ['date', 'desc', byDate(-1)],
    ['amount', 'asc', byAmount(1)],
    ['amount', 'desc', byAmount(-1)],
  ] as const)('sorts by %s %s in a total order', async (sortBy, sortDir, order) => {
    const { ids } = await api.all(`?sortBy=${sortBy}&sortDir=${sortDir}&limit=200`);
    expect(ids).toEqual(
      sample()
        .sort(order)
        .map((p) => p.id),
    );
  });

  it('filters by repeated status and computes stats over the whole filtered set', async () => {
    const res = await api.list('?status=succeeded&status=failed&limit=5');
    const expected = sample().filter((p) => ['succeeded', 'failed'].includes(listStatus(p)));
    expect(res.body.data).toHaveLength(5);
    expect(res.body.data.every((i) => i.status === 'succeeded' || i.status === 'failed')).toBe(
      true,
    );
    expect(res.body.stats).toEqual(expectedStats(expected));
    expect(res.body.stats.totalRevenue.map((r) => r.currency)).toEqual(h.mock.sample.currencies);
  });

  it('filters by repeated token_symbol and comma-separated networks', async () => {
    const { ids } = await api.all(
      '?token_symbol=USDT&token_symbol=eth&network=eip155:10,eip155:42161&limit=200',
    );
    const expected = sample().filter(
      (p) =>
        ['USDT', 'ETH'].includes(p.token.symbol) &&
        ['eip155:10', 'eip155:42161'].includes(p.token.network),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(ids.sort()).toEqual(expected.map((p) => p.id).sort());
  });

  it('filters by date with startTs inclusive and endTs exclusive', async () => {
    const [a, b] = sample().sort(byDate(1)).slice(100, 102) as [MockPayment, MockPayment];
    const list = await api.list(`?startTs=${a.createdAt}&endTs=${b.createdAt}`);
    expect(list.body.data.map((i) => i.paymentId)).toEqual([a.id]);
    const month = await api.all(
      '?startTs=2025-03-01T00:00:00%2B01:00&endTs=2025-04-01T00:00Z&limit=200',
    );
    const from = Date.parse('2025-02-28T23:00:00Z');
    const to = Date.parse('2025-04-01T00:00:00Z');
    const expected = sample().filter(
      (p) => Date.parse(p.createdAt) >= from && Date.parse(p.createdAt) < to,
    );
    expect(month.ids.sort()).toEqual(expected.map((p) => p.id).sort());
  });

  it('filters by a case-insensitive referenceId substring', async () => {
    const { ids } = await api.all('?referenceId=INV/2025&limit=200');
    const expected = sample().filter((p) => p.referenceId.toLowerCase().includes('inv/2025'));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids.sort()).toEqual(expected.map((p) => p.id).sort());
  });

  it('shows a created payment first, with the item shape of the published contract', async () => {
    const created = await h.call<{ paymentId: string }>('/v1/payments', {
      method: 'POST',
      headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId },
      body: { referenceId: 'fresh-order', amount: { unit: 'iso4217/EUR', value: '999' } },
    });
    const res = await api.list('?limit=1');
    expect(res.body.stats.totalTransactions).toBe(1001);
    expect(res.body.data[0]).toEqual({
      paymentId: created.body.paymentId,
      merchant: {
        id: h.mock.sample.merchantId,
        name: h.mock.sample.merchantName,
        iconUrl: expect.any(String),
      },
      referenceId: 'fresh-order',
      status: 'requires_action',
      isTerminal: false,
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      fiatAmount: {
        unit: 'iso4217/EUR',
        value: '999',
        display: { assetName: 'Euro', assetSymbol: 'EUR', decimals: 2 },
      },
      tokenAmount: {
        unit: expect.stringMatching(/^caip19\//),
        value: expect.any(String),
        display: expect.any(Object),
      },
    });
    h.mock.advancePayments(['requires_action', 'succeeded']);
    const [item] = (await api.list('?limit=1')).body.data;
    expect(item).toMatchObject({
      status: 'succeeded',
      isTerminal: true,
      buyer: { accountCaip10: expect.any(String) },
      // Test mode: the synthetic transaction id; the settlement follows settleAfterMs later.
      transaction: { networkId: 'eip155:8453', hash: `test:${created.body.paymentId}` },
      settlement: { settled: false },
    });
    expect(item).not.toHaveProperty('settledAt');
  });

  it('keeps other merchants payments apart', async () => {
    const [other] = h.mock.sample.otherMerchantIds;
    const res = await h.call<Page>('/v1/merchants/payments?limit=200', {
      headers: { ...h.auth, 'Merchant-Id': other as string },
    });
    const count = h.mock.payments(other).length;
    expect(count).toBeGreaterThanOrEqual(24);
    expect(res.body.data).toHaveLength(count);
    expect(res.body.stats.totalTransactions).toBe(count);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=201', 'limit'],
    ['?limit=ten', 'limit'],
    ['?startTs=2025-02-29T00:00:00Z', 'startTs'],
    ['?endTs=2025-01-01', 'endTs'],
    ['?status=refunded', 'status'],
    ['?network=base', 'network'],
    ['?referenceId=ab', 'referenceId'],
  ])('answers 400 params_validation for %s', async (query, field) => {
    const res = await api.list(query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('params_validation');
    expect(res.body.issues?.map((i) => i.field)).toEqual([field]);
  });

  it('answers 400 invalid_params for an unknown sort, a malformed cursor or one from other filters', async () => {
    expect((await api.list('?sortBy=name')).body.code).toBe('invalid_params');
    expect((await api.list('?sortDir=up')).body.code).toBe('invalid_params');
    expect((await api.list('?cursor=not-a-cursor')).body.code).toBe('invalid_params');
    const { body } = await api.list('?status=succeeded');
    const reused = await api.list(`?status=failed&cursor=${body.nextCursor}`);
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('invalid_params');
    expect((await api.list(`?status=succeeded&limit=3&cursor=${body.nextCursor}`)).status).toBe(
      200,
    );
  });

  it('requires a Merchant-Id header: 401 missing_merchant_id, as the contract has it', async () => {
    const res = await h.call<ErrorBody>('/v1/merchants/payments', { headers: h.auth });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('missing_merchant_id');
  });
});

describe.each(TRANSPORTS)('the deprecated payment list over %s', (transport) => {
  const h = useMockGateway(transport);
  const api = client(h);
  const sample = () => h.mock.payments(h.mock.sample.merchantId);

  it('pages through the 1,000 sample payments with limit 37, each exactly once', async () => {
    const ids = await api.allLegacy('?limit=37');
    expectEverySampleNewestFirst(ids, sample());
  });

  it('sends every required key of an item in snake_case, with a deprecation header', async () => {
    const res = await api.legacy('?limit=200');
    expect(res.headers.get('deprecation')).toBe('true');
    for (const item of res.body.data) {
      for (const key of [
        'payment_id',
        'merchant_id',
        'reference_id',
        'status',
        'is_terminal',
        'wallet_name',
      ]) {
        expect(item[key]).not.toBeNull();
      }
      for (const key of [
        'token_symbol',
        'token_decimals',
        'token_logo',
        'chain_logo',
        'wallet_logo',
      ]) {
        expect(item).toHaveProperty(key);
      }
    }
    expect(res.body.next_cursor).toEqual(expect.any(String));
  });

  it('filters by one or repeated status, asset, network and dates', async () => {
    const one = await api.legacy('?status=expired&limit=200');
    expect(one.body.stats.total_transactions).toBe(h.mock.sample.statusCounts.expired);
    const two = await api.legacy('?status=expired&status=processing&limit=1');
    expect(two.body.stats.total_transactions).toBe(
      h.mock.sample.statusCounts.expired + h.mock.sample.statusCounts.processing,
    );
    const ids = await api.allLegacy(
      '?asset=USDC&network=eip155:8453&start_ts=2025-06-01T00:00Z&end_ts=2026-01-01T00:00Z&limit=50',
    );
    const expected = sample().filter(
      (p) =>
        p.token.symbol === 'USDC' &&
        p.token.network === 'eip155:8453' &&
        p.createdAt >= '2025-06-01' &&
        p.createdAt < '2026-01-01',
    );
    expect(ids.sort()).toEqual(expected.map((p) => p.id).sort());
    const bare = await api.legacy('?network=8453&limit=1');
    expect(bare.body.stats.total_transactions).toBe(
      sample().filter((p) => p.token.network === 'eip155:8453').length,
    );
  });

  it('sorts by amount in both directions', async () => {
    const asc = await api.allLegacy('?sort_by=amount&sort_dir=asc&limit=200');
    expect(asc).toEqual(
      sample()
        .sort(byAmount(1))
        .map((p) => p.id),
    );
    const desc = await api.allLegacy('?sort_by=amount&sort_dir=desc&limit=200');
    expect(desc).toEqual([...asc].reverse());
  });

  it('reports stats over the filtered set, revenue in the most used currency', async () => {
    const res = await api.legacy('?status=succeeded&limit=1');
    const modern = await api.list('?status=succeeded&limit=1');
    const usd = modern.body.stats.totalRevenue.find((r) => r.currency === 'USD');
    expect(res.body.stats).toEqual({
      total_customers: modern.body.stats.totalCustomers,
      total_transactions: h.mock.sample.statusCounts.succeeded,
      total_revenue: usd,
    });
  });

  it.each([
    ['?limit=500', 'params_validation'],
    ['?start_ts=yesterday', 'params_validation'],
    ['?status=cancelled', 'params_validation'],
    ['?sort_by=fee', 'invalid_params'],
    ['?sort_dir=sideways', 'invalid_params'],
    ['?cursor=%%%', 'invalid_params'],
  ])('answers 400 for %s', async (query, code) => {
    const res = await api.legacy(query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    if (code === 'params_validation') expect(res.body.issues).toHaveLength(1);
  });

  it('answers an empty list for a merchant with no payments', async () => {
    const res = await api.legacy('', 'mer_unknown');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(emptyLegacyPage);
  });
});
