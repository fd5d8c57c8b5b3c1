import type { MerchantPayment } from 'merchant-gateway';
import type { MockPayment } from 'merchant-gateway/testing';
import { describe, expect, test } from 'vitest';
import { rejectedBeforeSending, TRANSPORTS, useManagement } from './support';

describe.each(TRANSPORTS)('partnerPayments.list against the mock over %s', (transport) => {
  const t = useManagement(transport);
  const listRequests = () => t.requests('GET', /^\/v1\/payments$/);
  const ids = (items: readonly (MerchantPayment | MockPayment)[]) =>
    items.map((p) => ('paymentId' in p ? p.paymentId : p.id));
  const walk = (params: Parameters<ReturnType<typeof t.client>['partnerPayments']['list']>[0]) =>
    t
      .client({ merchantId: t.mock.sample.merchantId })
      .partnerPayments.list({ limit: 200, ...params })
      .toArray({ limit: 5000 });

  test('without merchantId it spans every merchant, ignoring the client default, with no Merchant-Id header', async () => {
    const all = t.mock.payments();
    const first = await t
      .client({ merchantId: t.mock.sample.merchantId })
      .partnerPayments.list({ limit: 200 });
    expect(first.stats.totalTransactions).toBe(all.length);
    const items = await walk({});
    expect(ids(items)).toEqual(ids(all));
    expect(new Set(items.map((p) => p.merchant.id)).size).toBe(3);
    for (const request of listRequests()) {
      expect(request.headers['merchant-id']).toBeUndefined();
      expect(request.query.merchantId).toBeUndefined();
      expect(request.headers['api-key']).toBe('***');
    }
  });

  test('one merchantId lists that merchant only, with its stats', async () => {
    const [other] = t.mock.sample.otherMerchantIds;
    const expected = t.mock.payments(other);
    const first = await t
      .client()
      .partnerPayments.list({ merchantId: other as string, limit: 200 });
    expect(ids(first.data)).toEqual(ids(expected));
    expect(first.data.every((p) => p.merchant.id === other)).toBe(true);
    expect(first.stats.totalTransactions).toBe(expected.length);
    expect(first.nextCursor).toBeNull();
    expect(listRequests()[0]?.query.merchantId).toBe(other);
  });

  test('several merchantIds are sent as repeated parameters and list their payments together', async () => {
    const chosen = [...t.mock.sample.otherMerchantIds];
    const expected = t.mock.payments().filter((p) => chosen.includes(p.merchantId));
    const pages = [];
    for await (const page of t
      .client()
      .partnerPayments.list({ merchantId: chosen, limit: 13 })
      .pages()) {
      pages.push(page);
    }
    const items = pages.flatMap((p) => p.data);
    expect(ids(items)).toEqual(ids(expected));
    expect(pages.every((p) => p.stats.totalTransactions === expected.length)).toBe(true);
    expect(listRequests()).toHaveLength(Math.ceil(expected.length / 13));
    for (const request of listRequests()) expect(request.query.merchantId).toEqual(chosen);
    expect(listRequests()[0]?.url).toMatch(/\?merchantId=[^&]+&merchantId=[^&]+&limit=13$/);
  });

  test('an id that is not one of the partner merchants matches nothing', async () => {
    const page = await t.client().partnerPayments.list({ merchantId: 'mer_not_ours' });
    expect(page.data).toEqual([]);
    expect(page.stats.totalTransactions).toBe(0);
  });

  test('the query of payments.list applies: statuses, token symbols, sort by amount', async () => {
    const items = await walk({
      status: ['succeeded', 'failed'],
      tokenSymbol: ['USDC', 'EURC'],
      sortBy: 'amount',
      sortDir: 'asc',
    });
    const expected = t.mock
      .payments()
      .filter((p) => ['succeeded', 'failed'].includes(p.status))
      .filter((p) => ['USDC', 'EURC'].includes(p.token.symbol))
      .sort((a, b) => {
        const [x, y] = [BigInt(a.amount.value), BigInt(b.amount.value)];
        return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1;
      });
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(items)).toEqual(ids(expected));
    expect(listRequests()[0]?.query).toMatchObject({
      status: ['succeeded', 'failed'],
      token_symbol: ['USDC', 'EURC'],
      sortBy: 'amount',
      sortDir: 'asc',
    });
  });

  test('a cancelled payment shows as cancelled and is found by status in both lists; the deprecated list shows failed', async () => {
    const { merchantId } = t.mock.sample;
    const [target] = t.mock.payments(merchantId).filter((p) => p.status === 'requires_action');
    const id = target?.id as string;
    t.mock.setPaymentStatus(id, 'cancelled');
    const gateway = t.client({ merchantId, legacyApiKey: t.mock.credentials.legacyApiKey });
    const partner = await gateway.partnerPayments.list({ status: 'cancelled' });
    const merchant = await gateway.payments.list({ status: ['cancelled'] });
    for (const page of [partner, merchant]) {
      expect(page.data.map((p) => [p.paymentId, p.status, p.isTerminal])).toEqual([
        [id, 'cancelled', true],
      ]);
    }
    const legacy = await gateway.legacyPayments.list(merchantId, { status: 'failed', limit: 200 });
    const all = await gateway.legacyPayments
      .list(merchantId, { status: 'failed', limit: 200 })
      .toArray({ limit: 2000 });
    expect(legacy.stats.total_transactions).toBe(t.mock.sample.statusCounts.failed + 1);
    expect(all.find((p) => p.payment_id === id)?.status).toBe('failed');
  });

  test("a deleted merchant's payments stay in the list: they are history to reconcile", async () => {
    const [other] = t.mock.sample.otherMerchantIds;
    const before = await t.client().partnerPayments.list({ merchantId: other as string });
    await t.client().merchants.delete(other as string);
    const after = await t.client().partnerPayments.list({ merchantId: other as string });
    expect(after.stats).toEqual(before.stats);
  });

  test('a GET is retried after a 5xx: two attempts', async () => {
    t.mock.failNext({ status: 500, match: { method: 'GET', path: /^\/v1\/payments$/ } });
    await t.client({ maxRetries: 1 }).partnerPayments.list({ limit: 1 });
    expect(listRequests()).toHaveLength(2);
  });

  test('the mock refuses a bad query in the service shape, cancelled accepted', async () => {
    const res = await t.h.call<{ code: string; issues: { field: string }[] }>(
      '/v1/payments?status=refunded&limit=201',
      { headers: t.h.auth },
    );
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i) => i.field).sort()).toEqual(['limit', 'status']);
    const ok = await t.h.call('/v1/payments?status=cancelled', { headers: t.h.auth });
    expect(ok.status).toBe(200);
  });
});

describe('partnerPayments.list validates before sending', () => {
  const t = useManagement('msw');

  test.each([
    ['merchantId', { merchantId: '' }, /empty/],
    ['merchantId', { merchantId: [] }, /non-empty/],
    ['merchantId.0', { merchantId: [''] }, /empty/],
    ['merchantId', { merchantId: ['mer_1', 7] }, /./],
    ['merchantId', { merchantId: 7 }, /non-empty/],
    ['limit', { limit: 0 }, /1 to 200/],
    ['limit', { limit: 201 }, /1 to 200/],
    ['status', { status: 'refunded' }, /cancelled/],
    ['referenceId', { referenceId: 'ab' }, /3 to 35/],
    ['referenceId', { referenceId: 'a'.repeat(36) }, /3 to 35/],
    ['startTs', { startTs: '2025-02-29T00:00:00Z' }, /ISO 8601/],
  ])('%s in %j is refused and nothing is sent', async (field, params, message) => {
    const issues = await rejectedBeforeSending(t.mock, () =>
      t.client().partnerPayments.list(params as never),
    );
    expect(issues[0]?.field).toBe(field);
    expect(issues[0]?.message).toMatch(message);
  });

  test('an unknown field is refused', async () => {
    await rejectedBeforeSending(t.mock, () =>
      t.client().partnerPayments.list({ merchantIds: ['mer_1'] } as never),
    );
  });

  test.each([[{ limit: 1 }], [{ limit: 200 }], [{ referenceId: 'abc' }], [{ merchantId: ['a'] }]])(
    'the bound %j is accepted',
    async (params) => {
      await t.client().partnerPayments.list(params);
      expect(t.requests('GET', /^\/v1\/payments$/)).toHaveLength(1);
    },
  );
});
