import { type Merchant, MerchantGateway, PaginationError } from 'merchant-gateway';
import { describe, expect, test } from 'vitest';
import { rejectedBeforeSending, TRANSPORTS, useManagement } from './support';

describe.each(TRANSPORTS)('merchants.list against the mock over %s', (transport) => {
  const t = useManagement(transport);
  const listRequests = () => t.requests('GET', /^\/v1\/merchants$/);

  /** Adds merchants named `Shop 01`… so the list has pages to walk; returns their ids. */
  async function addMerchants(count: number): Promise<string[]> {
    const gateway = t.client();
    const ids: string[] = [];
    for (let i = 1; i <= count; i++) {
      const name = `Shop ${String(i).padStart(2, '0')}`;
      ids.push(
        (
          await gateway.merchants.create({
            merchantName: name,
            merchantEmail: `shop${i}@example.com`,
          })
        ).id,
      );
    }
    return ids;
  }

  test('the first page holds up to 20 merchants (the default), newest first, with totalCount', async () => {
    await addMerchants(22);
    const page = await t.client().merchants.list();
    expect(page.merchants).toHaveLength(20);
    expect(page.totalCount).toBe(25);
    expect(typeof page.nextCursor).toBe('string');
    const created = page.merchants.map((m) => Date.parse(m.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(listRequests()[0]?.query).toEqual({});
  });

  test('for await walks every page once: each merchant once, totalCount the same on every page', async () => {
    await addMerchants(16);
    const gateway = t.client();
    const pages = [];
    for await (const page of gateway.merchants.list({ limit: 7 }).pages()) pages.push(page);
    expect(pages.map((p) => p.merchants.length)).toEqual([7, 7, 5]);
    expect(pages.map((p) => p.totalCount)).toEqual([19, 19, 19]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    const ids = pages.flatMap((p) => p.merchants.map((m) => m.id));
    expect(new Set(ids).size).toBe(19);
    expect(ids.sort()).toEqual(
      t.mock
        .merchants()
        .map((m) => m.id)
        .sort(),
    );
    expect(listRequests().map((r) => r.query.limit)).toEqual(['7', '7', '7']);
    expect(listRequests()[1]?.query.cursor).toBe(pages[0]?.nextCursor);

    const items: Merchant[] = [];
    for await (const merchant of gateway.merchants.list({ limit: 7 })) items.push(merchant);
    expect(items.map((m) => m.id)).toEqual(pages.flatMap((p) => p.merchants.map((m) => m.id)));
  });

  test('toArray stops at its limit without fetching further pages', async () => {
    await addMerchants(10);
    const items = await t.client().merchants.list({ limit: 4 }).toArray({ limit: 6 });
    expect(items).toHaveLength(6);
    expect(listRequests()).toHaveLength(2);
  });

  test('search matches the name or the id, whatever the case, and totalCount counts the matches', async () => {
    await addMerchants(12);
    const byName = await t.client().merchants.list({ search: 'sHoP 1' });
    expect(byName.merchants.map((m) => m.name).sort()).toEqual(['Shop 10', 'Shop 11', 'Shop 12']);
    expect(byName.totalCount).toBe(3);
    expect(listRequests()[0]?.query).toEqual({ search: 'sHoP 1' });

    const { merchantId } = t.mock.sample;
    const byId = await t.client().merchants.list({ search: merchantId.toUpperCase() });
    expect(byId.merchants.map((m) => m.id)).toEqual([merchantId]);
    expect((await t.client().merchants.list({ search: 'no such shop' })).totalCount).toBe(0);
  });

  test('status keeps only the merchants in that status, across pages', async () => {
    const ids = await addMerchants(6);
    for (const id of ids.slice(0, 4)) t.mock.setMerchantStatus(id, 'suspended');
    t.mock.setMerchantStatus(ids[4] as string, 'inactive');
    const gateway = t.client();
    const suspended = await gateway.merchants.list({ status: 'suspended', limit: 3 }).toArray({
      limit: 100,
    });
    expect(suspended.map((m) => m.id).sort()).toEqual(ids.slice(0, 4).sort());
    expect(suspended.every((m) => m.status === 'suspended')).toBe(true);
    expect(
      (await gateway.merchants.list({ status: 'inactive' })).merchants.map((m) => m.id),
    ).toEqual([ids[4]]);
    const active = await gateway.merchants.list({ status: 'active' });
    expect(active.totalCount).toBe(4); // three sample merchants and the last one added
    expect(listRequests().every((r) => r.query.status !== undefined)).toBe(true);
  });

  test('a deleted merchant leaves the list and its totalCount', async () => {
    const gateway = t.client();
    const before = await gateway.merchants.list();
    await gateway.merchants.delete(t.mock.sample.merchantId);
    const after = await gateway.merchants.list();
    expect(after.totalCount).toBe(before.totalCount - 1);
    expect(after.merchants.map((m) => m.id)).not.toContain(t.mock.sample.merchantId);
  });

  test('items are merchants without settlements, and withResponse gives the request id', async () => {
    const { data, requestId } = await t.client().merchants.list({ limit: 1 }).withResponse();
    const [merchant] = data.merchants;
    expect(Object.keys(merchant ?? {}).sort()).toEqual(
      ['createdAt', 'email', 'iconUrl', 'id', 'name', 'status'].sort(),
    );
    expect(requestId).toMatch(/^req_/);
  });

  test('a GET is retried after a 5xx: two attempts, one page', async () => {
    t.mock.failNext({ status: 503, match: { method: 'GET', path: /^\/v1\/merchants$/ } });
    const page = await t.client({ maxRetries: 1 }).merchants.list();
    expect(page.merchants.length).toBeGreaterThan(0);
    expect(listRequests()).toHaveLength(2);
  });

  test('a GET is retried after a dropped connection, and not beyond maxRetries', async () => {
    t.mock.failNext({ networkError: true, times: 3, match: { path: /^\/v1\/merchants$/ } });
    await expect(t.client({ maxRetries: 1 }).merchants.list()).rejects.toMatchObject({
      name: 'ConnectionError',
    });
    expect(listRequests()).toHaveLength(2);
  });

  test('the mock refuses what the SDK would never send, in the service shape', async () => {
    const auth = t.h.auth;
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?status=deleted', 'status'],
      [`?search=`, 'search'],
      [`?search=${'a'.repeat(257)}`, 'search'],
    ]) {
      const res = await t.h.call<{ code: string; issues: { field: string }[] }>(
        `/v1/merchants${query}`,
        { headers: auth },
      );
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'params_validation']);
      expect(res.body.issues.map((i) => i.field)).toEqual([field]);
    }
    const bad = await t.h.call<{ code: string }>('/v1/merchants?cursor=junk', { headers: auth });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_params']);
    const edge = await t.h.call<{ merchants: unknown[] }>(
      `/v1/merchants?limit=100&search=${'a'.repeat(256)}`,
      { headers: auth },
    );
    expect(edge.status).toBe(200);
  });
});

describe('merchants.list validates its query before sending', () => {
  const t = useManagement('msw');

  test.each([
    ['status', { status: 'deleted' }, /active, inactive, suspended/],
    ['status', { status: ['active'] }, /active, inactive, suspended/],
    ['search', { search: '' }, /1 to 256 characters/],
    ['search', { search: 'a'.repeat(257) }, /1 to 256 characters/],
    ['search', { search: 7 }, /string/],
    ['limit', { limit: 0 }, /1 to 100/],
    ['limit', { limit: 101 }, /1 to 100/],
    ['limit', { limit: 2.5 }, /1 to 100/],
    ['limit', { limit: '10' }, /1 to 100/],
    ['cursor', { cursor: '' }, /empty/],
    ['serach', { serach: 'typo' }, /not a field/],
  ])('%s in %j is refused and nothing is sent', async (field, params, message) => {
    const issues = await rejectedBeforeSending(t.mock, () =>
      t.client().merchants.list(params as never),
    );
    expect(issues[0]?.field).toBe(field);
    expect(issues[0]?.message).toMatch(message);
  });

  test.each([
    [{ limit: 1 }],
    [{ limit: 100 }],
    [{ search: 'a' }],
    [{ search: '😀'.repeat(256) }],
    [{ status: 'inactive' as const }],
  ])('the bound %j is accepted and sent', async (params) => {
    await t.client().merchants.list(params);
    const [request] = t.requests('GET', /^\/v1\/merchants$/);
    expect(request?.query).toEqual(
      Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
    );
  });
});

describe('merchants.list against a service that repeats a cursor', () => {
  test('stops with a PaginationError instead of looping, the cursor shown without the key', async () => {
    const t = { apiKey: 'sk_test_repeating_key' };
    const merchant = {
      id: 'mer_1',
      name: 'Acme',
      email: null,
      status: 'active',
      iconUrl: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    let calls = 0;
    const gateway = new MerchantGateway({
      baseUrl: 'https://gateway.test',
      apiKey: t.apiKey,
      fetch: async () => {
        calls++;
        const body = { merchants: [merchant], totalCount: 9, nextCursor: `c-${t.apiKey}` };
        return new Response(JSON.stringify(body), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const error = await gateway.merchants
      .list()
      .toArray({ limit: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as PaginationError).message).toContain('c-***');
    expect((error as PaginationError).message).not.toContain(t.apiKey);
    expect(calls).toBe(2);
  });
});
