import {
  ApiError,
  ConfigurationError,
  MerchantGateway as Gateway,
  type MerchantGateway,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import {
  API_KEY,
  BASE_URL,
  createdBody,
  gateway,
  LEGACY_KEY,
  merchantBody,
  merchantGetBody,
  recorder,
  useMsw,
  viewBody,
} from '../../support';
import { emptyLegacyPage } from '../../support/list-fixtures';

const EVIL = 'https://evil.test';

const listItem = {
  paymentId: 'pay_1',
  merchant: { id: 'mer_1', iconUrl: `${EVIL}/logo.png` },
  referenceId: 'order-1',
  status: 'succeeded',
  isTerminal: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUpdatedAt: '2026-01-01T00:00:00.000Z',
};

/** GET /v1/merchants/{merchant_id}/payments, the deprecated list (not /v1/merchants/payments). */
const isLegacyList = (pathname: string) =>
  /\/v1\/merchants\/[^/]+\/payments$/.test(pathname) && !pathname.endsWith('/merchants/payments');

// The deprecated list warns once through the logger: keep that out of the test output.
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Answers by path like the service would, but every URL it hands out points elsewhere. */
function serviceReply(request: Request): Response {
  const { pathname } = new URL(request.url);
  if (request.method === 'POST' && pathname.endsWith('/v1/merchants')) {
    return HttpResponse.json(
      { merchant: { ...merchantBody.merchant, iconUrl: `${EVIL}/logo.png` } },
      { status: 201, headers: { location: `${EVIL}/v1/merchants/mer_1` } },
    );
  }
  if (pathname.endsWith('/settlements/crypto')) {
    return HttpResponse.json(
      { settlements: [{ id: 'set_1', asset: 'a', destination: `${EVIL}/wallet` }] },
      { status: 201 },
    );
  }
  if (pathname.endsWith('/v1/payments')) {
    return HttpResponse.json(
      { ...createdBody, gatewayUrl: `${EVIL}/pay/pay_1` },
      { status: 201, headers: { 'content-location': `${EVIL}/pay_1` } },
    );
  }
  if (pathname.endsWith('/v1/merchants/payments')) {
    // A cursor that looks like a URL elsewhere is still only a cursor.
    const cursor = new URL(request.url).searchParams.get('cursor');
    return HttpResponse.json({
      data: cursor ? [] : [listItem],
      nextCursor: cursor ? null : `${EVIL}/v1/merchants/payments?cursor=2`,
      stats: { totalRevenue: [], totalTransactions: 1, totalCustomers: 1 },
    });
  }
  if (isLegacyList(pathname)) {
    return HttpResponse.json(emptyLegacyPage);
  }
  if (pathname.includes('/v1/gateway/payment/')) {
    return HttpResponse.json({
      ...viewBody,
      merchant: { name: 'Acme', iconUrl: `${EVIL}/logo.png` },
      next: `${EVIL}/v1/gateway/payment/pay_2`,
    });
  }
  return HttpResponse.json({
    merchant: { ...merchantGetBody.merchant, iconUrl: `${EVIL}/logo.png` },
  });
}

let reply: (request: Request) => Response = serviceReply;
const everything = recorder((request) => reply(request));
useMsw(http.all('*', everything.resolver));

/** Every method of the client, with valid input. */
const CALLS: [string, (c: MerchantGateway) => Promise<unknown>][] = [
  [
    'merchants.create',
    (c) => c.merchants.create({ merchantName: 'Acme', merchantEmail: 'a@b.io' }),
  ],
  ['merchants.update', (c) => c.merchants.update('mer_1', { merchantName: 'Acme' })],
  ['merchants.get', (c) => c.merchants.get('mer_1')],
  [
    'settlements.createCrypto',
    (c) =>
      c.settlements.createCrypto('mer_1', [
        { asset: 'eip155:1/erc20:0xabc', destination: 'eip155:1:0xdef' },
      ]),
  ],
  [
    'payments.create',
    (c) =>
      c.payments.create({
        merchantId: 'mer_1',
        amount: { unit: 'iso4217/USD', value: '100' },
        referenceId: 'r',
      }),
  ],
  ['payments.get', (c) => c.payments.get('pay_1')],
  [
    'payments.list, every page',
    async (c) => {
      for await (const _ of c.payments.list({ merchantId: 'mer_1' })) {
        // walk every page
      }
    },
  ],
  ['legacyPayments.list', async (c) => await c.legacyPayments.list('mer_1')],
];

describe('requests go only to the base URL', () => {
  test.each([['https://gateway.test'], ['https://gateway.test/api/']])(
    'every method called on %s sends to that origin and path prefix only',
    async (baseUrl) => {
      reply = serviceReply;
      const before = everything.seen.length;
      const client = gateway({ baseUrl, logger: quiet });
      for (const [, call] of CALLS) await call(client);
      const sent = everything.seen.slice(before);
      // One request per call, and the list's second page.
      expect(sent).toHaveLength(CALLS.length + 1);
      const prefix = new URL(baseUrl).pathname.replace(/\/$/, '');
      for (const request of sent) {
        const url = new URL(request.url);
        expect(url.origin).toBe(BASE_URL);
        expect(url.pathname.startsWith(`${prefix}/v1/`)).toBe(true);
      }
    },
  );

  test.each([301, 302, 303, 307, 308])(
    'a %i to another host is not followed, so the key and body stay home',
    async (status) => {
      reply = (request) =>
        new URL(request.url).origin === BASE_URL
          ? new HttpResponse(null, { status, headers: { location: `${EVIL}/steal` } })
          : HttpResponse.json(merchantGetBody);
      const before = everything.seen.length;
      const client = gateway({ maxRetries: 2, logger: quiet });
      const errors = await Promise.all(
        CALLS.map(([, call]) => call(client).catch((e: unknown) => e)),
      );
      for (const error of errors) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(status);
        expect((error as ApiError).headers.location).toBe(`${EVIL}/steal`);
      }
      const sent = everything.seen.slice(before);
      expect(sent.map((r) => new URL(r.url).origin)).toEqual(CALLS.map(() => BASE_URL));
    },
  );

  test('a redirect to the same host is not followed either', async () => {
    reply = () => new HttpResponse(null, { status: 307, headers: { location: '/v1/merchants/x' } });
    const before = everything.seen.length;
    const error = await gateway()
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(everything.seen.slice(before).map((r) => new URL(r.url).pathname)).toEqual([
      '/v1/merchants/mer_1',
    ]);
  });
});

describe('the legacy key', () => {
  const isLegacy = (request: Request) => isLegacyList(new URL(request.url).pathname);

  test('goes only to the deprecated list, which gets no partner key', async () => {
    reply = serviceReply;
    const before = everything.seen.length;
    const client = new Gateway({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      legacyApiKey: LEGACY_KEY,
      logger: quiet,
    });
    for (const [, call] of CALLS) await call(client);
    const sent = everything.seen.slice(before);
    expect(sent.filter(isLegacy)).toHaveLength(1);
    for (const request of sent) {
      const legacy = isLegacy(request);
      expect(request.headers.get('x-api-key')).toBe(legacy ? LEGACY_KEY : null);
      expect(request.headers.get('api-key')).toBe(legacy ? null : API_KEY);
    }
  });

  test('is replaced by the partner key as Api-Key when the client has none', async () => {
    reply = serviceReply;
    const before = everything.seen.length;
    await new Gateway({ baseUrl: BASE_URL, apiKey: API_KEY, logger: quiet }).legacyPayments.list(
      'mer_1',
    );
    const request = everything.seen[before];
    expect(request?.headers.get('api-key')).toBe(API_KEY);
    expect(request?.headers.has('x-api-key')).toBe(false);
  });
});

describe('http: is refused off loopback', () => {
  test.each([
    'http://127.0.0.1.evil.com',
    'http://localhost.evil.com',
    'http://evil-localhost',
    'http://[::2]',
    'http://[::ffff:7f00:1].evil.com',
    'http://[::]',
    'http://0.0.0.0',
    'http://128.0.0.1',
    'http://127.0.0.256',
    'http://localhost@evil.com',
    'http://evil.com#@localhost',
    'http://evil.com?@localhost',
    'http://evil.com\\@localhost',
    'ws://localhost',
    'file:///etc/passwd',
    'javascript:alert(1)//localhost',
    'data:text/plain,localhost',
    '//localhost',
    'localhost:4010',
  ])('%s is a ConfigurationError, before any request', (baseUrl) => {
    const before = everything.seen.length;
    expect(() => new Gateway({ baseUrl, apiKey: API_KEY })).toThrow(ConfigurationError);
    expect(everything.seen).toHaveLength(before);
  });

  test.each([
    ['http://localhost:4010', 'localhost:4010'],
    ['http://LOCALHOST:4010/', 'localhost:4010'],
    ['http://127.0.0.1', '127.0.0.1'],
    ['http://127.255.255.254:81', '127.255.255.254:81'],
    ['http://127.1', '127.0.0.1'],
    ['http://2130706433', '127.0.0.1'],
    ['http://[::1]:4010', '[::1]:4010'],
    ['http://[0:0:0:0:0:0:0:1]', '[::1]'],
  ])('%s is loopback, and requests go there', async (baseUrl, host) => {
    reply = serviceReply;
    const before = everything.seen.length;
    await new Gateway({ baseUrl, apiKey: API_KEY }).merchants.get('mer_1');
    expect(new URL(everything.seen[before]?.url as string).host).toBe(host);
  });
});

describe('dangerouslyAllowHttp', () => {
  test.each([
    ['http://gateway-mock:4010', 'gateway-mock:4010'],
    ['http://10.0.0.7:4010/', '10.0.0.7:4010'],
  ])('lets %s through over http:, and requests go there', async (baseUrl, host) => {
    reply = serviceReply;
    const before = everything.seen.length;
    await new Gateway({ baseUrl, apiKey: API_KEY, dangerouslyAllowHttp: true }).merchants.get(
      'mer_1',
    );
    expect(new URL(everything.seen[before]?.url as string).host).toBe(host);
  });

  test.each(['ws://gateway-mock', 'ftp://gateway-mock'])(
    'still refuses %s, which is not http:',
    (baseUrl) => {
      expect(() => new Gateway({ baseUrl, apiKey: API_KEY, dangerouslyAllowHttp: true })).toThrow(
        ConfigurationError,
      );
    },
  );

  test('off by default, and false keeps http: to loopback only, naming the option', () => {
    for (const dangerouslyAllowHttp of [undefined, false]) {
      expect(
        () =>
          new Gateway({
            baseUrl: 'http://gateway-mock:4010',
            apiKey: API_KEY,
            dangerouslyAllowHttp,
          }),
      ).toThrow(/dangerouslyAllowHttp: true/);
    }
  });
});

describe('the browser guard', () => {
  function inBrowser() {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
  }

  test('refuses a secret key from the environment too', () => {
    inBrowser();
    vi.stubEnv('MERCHANT_GATEWAY_API_KEY', API_KEY);
    expect(() => new Gateway({ baseUrl: BASE_URL })).toThrow(ConfigurationError);
  });

  test('cannot be turned off by a client derived with withOptions', () => {
    inBrowser();
    const allowed = new Gateway({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      dangerouslyAllowBrowser: true,
    });
    expect(() => allowed.withOptions({ dangerouslyAllowBrowser: false })).toThrow(
      ConfigurationError,
    );
    expect(() => allowed.withOptions({ timeoutMs: 5 })).not.toThrow();
  });

  test('lets the public app scheme send requests, with no Api-Key', async () => {
    inBrowser();
    reply = serviceReply;
    const before = everything.seen.length;
    await new Gateway({ baseUrl: BASE_URL, appId: 'app_1', clientId: 'cli_1' }).merchants.get(
      'mer_1',
    );
    const request = everything.seen[before];
    expect(request?.headers.get('app-id')).toBe('app_1');
    expect(request?.headers.has('api-key')).toBe(false);
  });

  test('is off outside a browser: a window alone (Deno) or a document alone is not one', () => {
    vi.stubGlobal('window', {});
    expect(() => new Gateway({ baseUrl: BASE_URL, apiKey: API_KEY })).not.toThrow();
    vi.unstubAllGlobals();
    vi.stubGlobal('document', {});
    expect(() => new Gateway({ baseUrl: BASE_URL, apiKey: API_KEY })).not.toThrow();
  });
});
