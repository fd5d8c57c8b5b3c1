import {
  AuthenticationError,
  type ClientOptions,
  MerchantGateway,
  type PaymentListParams,
} from 'merchant-gateway';
import type { MockGateway } from 'merchant-gateway/testing';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { resetDeprecationWarnings } from '../../../src/core/deprecation';
import { type ReferenceQuery, referenceList, referenceStats, toMinor } from './lists-reference';

/** How a suite reaches the mock: in-process through msw, or over real HTTP. */
export interface MockConnection {
  mock: MockGateway;
  baseUrl: () => string;
}

/** The list behaviours checked against the stateful mock, whatever carries the requests. */
export function describeListsAgainstMock({ mock, baseUrl }: MockConnection): void {
  const client = (options: ClientOptions = {}) =>
    new MerchantGateway({
      baseUrl: baseUrl(),
      apiKey: mock.credentials.apiKey,
      legacyApiKey: mock.credentials.legacyApiKey,
      merchantId: mock.sample.merchantId,
      maxRetries: 0,
      ...options,
    });
  const listRequests = () => mock.requests.filter((r) => r.path.includes('/payments'));

  beforeEach(() => {
    mock.reset();
    resetDeprecationWarnings();
    vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
  });

  describe.each([
    ['date', 'asc'],
    ['amount', 'desc'],
  ] as const)('walking the 1,000 sample payments by %s %s, 37 a page', (sortBy, sortDir) => {
    const expected = () => referenceList(mock, { sortBy, sortDir }).map((p) => p.id);

    test('payments.list yields each payment exactly once, in the requested order', async () => {
      const ids: string[] = [];
      for await (const p of client().payments.list({ limit: 37, sortBy, sortDir })) {
        ids.push(p.paymentId);
      }
      expect(ids).toHaveLength(1000);
      expect(new Set(ids).size).toBe(1000);
      expect(ids).toEqual(expected());
      expect(listRequests()).toHaveLength(Math.ceil(1000 / 37));
    });

    test('legacyPayments.list yields each payment exactly once, in the requested order', async () => {
      const ids: string[] = [];
      const list = client().legacyPayments.list(mock.sample.merchantId, {
        limit: 37,
        sort_by: sortBy,
        sort_dir: sortDir,
      });
      for await (const p of list) ids.push(p.payment_id);
      expect(new Set(ids).size).toBe(1000);
      expect(ids).toEqual(expected());
      expect(listRequests()).toHaveLength(Math.ceil(1000 / 37));
    });
  });

  describe('filters, sorts and stats match a reference computed over the mock data', () => {
    const sorted = () => referenceList(mock, { sortBy: 'date', sortDir: 'asc' });
    const cases: [string, () => [PaymentListParams, ReferenceQuery]][] = [
      [
        'two statuses and a token symbol',
        () => [
          { status: ['succeeded', 'expired'], tokenSymbol: 'USDC' },
          { statuses: ['succeeded', 'expired'], tokens: ['USDC'], sortBy: 'date', sortDir: 'desc' },
        ],
      ],
      [
        'two networks, by amount ascending',
        () => [
          { network: 'eip155:8453,eip155:10', sortBy: 'amount', sortDir: 'asc' },
          { networks: ['eip155:8453', 'eip155:10'], sortBy: 'amount', sortDir: 'asc' },
        ],
      ],
      [
        'token symbols USDT and ETH with one status',
        () => [
          { tokenSymbol: ['USDT', 'ETH'], status: 'failed' },
          { tokens: ['USDT', 'ETH'], statuses: ['failed'], sortBy: 'date', sortDir: 'desc' },
        ],
      ],
      [
        'a reference id substring',
        () => [
          { referenceId: 'inv/2025', sortDir: 'asc' },
          { referenceId: 'inv/2025', sortBy: 'date', sortDir: 'asc' },
        ],
      ],
      [
        'date bounds taken from two payments, as strings and as Dates',
        () => {
          const [from, to] = [sorted()[100], sorted()[400]];
          if (!from || !to) throw new Error('sample too small');
          return [
            { startTs: from.createdAt, endTs: new Date(to.createdAt), sortDir: 'asc' },
            {
              start: Date.parse(from.createdAt),
              end: Date.parse(to.createdAt),
              sortBy: 'date',
              sortDir: 'asc',
            },
          ];
        },
      ],
    ];

    test.each(cases)('payments.list with %s', async (_, make) => {
      const [params, reference] = make();
      const expected = referenceList(mock, reference);
      const list = client().payments.list({ ...params, limit: 200 });
      const first = await list;
      const items = await list.toArray({ limit: 2000 });
      expect(expected.length).toBeGreaterThan(0);
      expect(items.map((p) => p.paymentId)).toEqual(expected.map((p) => p.id));
      const stats = referenceStats(expected);
      expect(first.stats.totalTransactions).toBe(stats.transactions);
      expect(first.stats.totalCustomers).toBe(stats.customers);
      expect(new Map(first.stats.totalRevenue.map((r) => [r.currency, toMinor(r.amount)]))).toEqual(
        new Map([...stats.revenue].map(([currency, r]) => [currency, r.minor])),
      );
    });

    test('date bounds include the start and exclude the end', async () => {
      const [from, to] = [sorted()[10], sorted()[20]];
      const items = await client()
        .payments.list({ startTs: from?.createdAt, endTs: to?.createdAt, sortDir: 'asc' })
        .toArray({ limit: 100 });
      expect(items[0]?.paymentId).toBe(from?.id);
      expect(items.map((p) => p.paymentId)).not.toContain(to?.id);
      expect(items).toHaveLength(10);
    });

    test('legacyPayments.list with statuses, an asset and date bounds', async () => {
      const [from, to] = [sorted()[50], sorted()[900]];
      if (!from || !to) throw new Error('sample too small');
      const expected = referenceList(mock, {
        start: Date.parse(from.createdAt),
        end: Date.parse(to.createdAt),
        statuses: ['succeeded', 'processing'],
        tokens: ['ETH'],
        sortBy: 'amount',
        sortDir: 'desc',
      });
      const list = client().legacyPayments.list(mock.sample.merchantId, {
        start_ts: new Date(from.createdAt),
        end_ts: to.createdAt,
        status: ['succeeded', 'processing'],
        asset: 'ETH',
        sort_by: 'amount',
        sort_dir: 'desc',
        limit: 50,
      });
      const first = await list;
      const items = await list.toArray({ limit: 2000 });
      expect(expected.length).toBeGreaterThan(0);
      expect(items.map((p) => p.payment_id)).toEqual(expected.map((p) => p.id));
      const stats = referenceStats(expected);
      expect(first.stats.total_transactions).toBe(stats.transactions);
      expect(first.stats.total_customers).toBe(stats.customers);
      const [currency, top] = [...stats.revenue].sort((a, b) => b[1].count - a[1].count)[0] ?? [];
      expect(first.stats.total_revenue.currency).toBe(currency);
      expect(toMinor(first.stats.total_revenue.amount)).toBe(top?.minor);
    });
  });

  describe('reading pages', () => {
    test('await gives the first page with stats of the whole sample', async () => {
      const first = await client().payments.list({ limit: 5 });
      expect(first.data).toHaveLength(5);
      expect(typeof first.nextCursor).toBe('string');
      expect(first.stats.totalTransactions).toBe(1000);
      expect(listRequests()).toHaveLength(1);
    });

    test('withResponse gives the first page and the mock request id', async () => {
      const { data, response, requestId } = await client()
        .payments.list({ limit: 5 })
        .withResponse();
      expect(data.data).toHaveLength(5);
      expect(response.ok).toBe(true);
      expect(requestId).toMatch(/^req_\d+$/);
    });

    test('pages() yields 200-item pages until the last', async () => {
      const sizes: number[] = [];
      for await (const p of client().payments.list({ limit: 200 }).pages())
        sizes.push(p.data.length);
      expect(sizes).toEqual([200, 200, 200, 200, 200]);
    });

    test('toArray stops fetching once the limit is reached', async () => {
      const items = await client().payments.list({ limit: 37 }).toArray({ limit: 80 });
      expect(items).toHaveLength(80);
      expect(listRequests()).toHaveLength(3);
    });

    test('breaking out of the loop after a few items stops fetching', async () => {
      let count = 0;
      for await (const _ of client().legacyPayments.list(mock.sample.merchantId, { limit: 3 })) {
        if (++count === 4) break;
      }
      expect(listRequests()).toHaveLength(2);
    });
  });

  describe('legacy list authentication', () => {
    test('sends X-Api-Key and no Api-Key when the client has a legacy key', async () => {
      await client().legacyPayments.list(mock.sample.merchantId, { limit: 1 });
      const [request] = listRequests();
      expect(request?.headers['x-api-key']).toBe('***');
      expect(request?.headers['api-key']).toBeUndefined();
    });

    test('sends the partner Api-Key without a legacy key, and the mock accepts it', async () => {
      vi.stubEnv('MERCHANT_GATEWAY_LEGACY_API_KEY', '');
      const first = await client({ legacyApiKey: undefined }).legacyPayments.list(
        mock.sample.merchantId,
        { limit: 1 },
      );
      expect(first.data).toHaveLength(1);
      const [request] = listRequests();
      expect(request?.headers['api-key']).toBe('***');
      expect(request?.headers['x-api-key']).toBeUndefined();
    });

    test('a wrong legacy key is an AuthenticationError with code invalid_api_key', async () => {
      const error = await client({ legacyApiKey: 'lk_wrong' })
        .legacyPayments.list(mock.sample.merchantId)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as AuthenticationError).code).toBe('invalid_api_key');
      expect((error as AuthenticationError).status).toBe(401);
    });

    test('the replacement list never carries the legacy key', async () => {
      await client().payments.list({ limit: 1 });
      const [request] = listRequests();
      expect(request?.headers['x-api-key']).toBeUndefined();
      expect(request?.headers['api-key']).toBe('***');
      expect(request?.headers['merchant-id']).toBe(mock.sample.merchantId);
    });
  });
}
