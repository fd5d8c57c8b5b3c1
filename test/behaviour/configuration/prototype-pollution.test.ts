import { MerchantGateway } from 'merchant-gateway';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { polluted } from '../../support';
import { API_KEY, hostile } from '../../support/hostile-server';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const good: Seen[] = [];
const evil: Seen[] = [];
let goodUrl = '';
let evilUrl = '';
const closers: (() => Promise<void>)[] = [];

function recording(into: Seen[]) {
  return hostile((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      into.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
      });
      const merchant = {
        id: 'mer_1',
        name: 'Acme',
        email: 'pay@acme.io',
        status: 'active',
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      response.writeHead(request.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json',
      });
      response.end(
        JSON.stringify(
          request.url?.startsWith('/v1/merchants/payments')
            ? {
                data: [],
                nextCursor: null,
                stats: { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 },
              }
            : { merchant: { ...merchant, iconUrl: null, settlements: { crypto: [], fiat: [] } } },
        ),
      );
    });
  });
}

beforeAll(async () => {
  const g = await recording(good);
  const e = await recording(evil);
  goodUrl = g.url;
  evilUrl = e.url;
  closers.push(g.close, e.close);
});
afterAll(async () => {
  for (const close of closers) await close();
});

describe('a polluted Object.prototype changes nothing the SDK sends', () => {
  test('an inherited baseUrl, fetch or headers neither redirects the key nor drops it', async () => {
    vi.stubEnv('MERCHANT_GATEWAY_BASE_URL', goodUrl);
    const fetchSpy = vi.fn(globalThis.fetch);
    good.length = 0;
    evil.length = 0;
    await polluted({ baseUrl: evilUrl, fetch: fetchSpy, headers: {} }, async () => {
      const gateway = new MerchantGateway({ apiKey: API_KEY, maxRetries: 0 });
      await gateway.merchants.get('mer_1');
    });
    expect(evil).toHaveLength(0);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(good).toHaveLength(1);
    expect(good[0]?.headers['api-key']).toBe(API_KEY);
  });

  test('an inherited merchantId, iconUrl, timeoutMs or maxRetries changes no call', async () => {
    good.length = 0;
    const gateway = new MerchantGateway({
      baseUrl: goodUrl,
      apiKey: API_KEY,
      merchantId: 'mer_own',
    });
    await polluted(
      {
        merchantId: 'mer_evil',
        iconUrl: 'https://evil.example/x.png',
        timeoutMs: 1,
        maxRetries: 50,
      },
      async () => {
        await gateway.merchants.create({ merchantName: 'Acme', merchantEmail: 'pay@acme.io' });
        await gateway.payments.list().toArray({ limit: 1 });
      },
    );
    const [create, list] = good;
    expect(JSON.parse(create?.body ?? '')).toEqual({
      merchantName: 'Acme',
      merchantEmail: 'pay@acme.io',
    });
    expect(list?.headers['merchant-id']).toBe('mer_own');
  });

  test('an inherited status adds no status filter to payments.list', async () => {
    good.length = 0;
    const gateway = new MerchantGateway({ baseUrl: goodUrl, apiKey: API_KEY, merchantId: 'm' });
    // Node's own fetch reads an inherited `status` into every Response, so the answer is lost;
    // what matters here is the request.
    await polluted({ status: 'succeeded' }, () =>
      gateway.payments
        .list()
        .toArray({ limit: 1 })
        .catch(() => undefined),
    );
    expect(good[0]?.url).toBe('/v1/merchants/payments');
  });

  test('inherited list filters add nothing to partnerPayments.list, whose rest of the query read through the prototype', async () => {
    good.length = 0;
    const gateway = new MerchantGateway({ baseUrl: goodUrl, apiKey: API_KEY, maxRetries: 0 });
    const pollution = {
      cursor: 'cur_evil',
      referenceId: 'order-evil',
      startTs: '2020-01-01T00:00:00Z',
      endTs: '2020-01-02T00:00:00Z',
      network: 'eip155:1',
      tokenSymbol: 'EVIL',
      sortDir: 'asc',
    };
    await polluted(pollution, async () => {
      // This server answers the partner list with a merchant, so the page is refused: what
      // matters is the request.
      await gateway.partnerPayments.list({ merchantId: 'mer_1', limit: 5 }).catch(() => undefined);
      await gateway.partnerPayments.list().catch(() => undefined);
    });
    expect(good.map((seen) => seen.url)).toEqual([
      '/v1/payments?merchantId=mer_1&limit=5',
      '/v1/payments',
    ]);
  });

  test('an inherited key is never reported as a field of the call', async () => {
    const gateway = new MerchantGateway({ baseUrl: goodUrl, apiKey: API_KEY });
    const error = await polluted({ merchantId: 'mer_evil' }, () =>
      gateway.merchants.create({ merchantName: '', merchantEmail: 'pay@acme.io' }).catch((e) => e),
    );
    expect(String(error)).toMatch(/merchantName/);
    expect(String(error)).not.toMatch(/merchantId|is not a field of this call/);
  });
});
