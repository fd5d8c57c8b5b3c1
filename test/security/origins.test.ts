import {
  ApiError,
  ConfigurationError,
  MerchantGateway as Gateway,
  type MerchantGateway,
} from 'merchant-gateway';
import { describe, expect, test, vi } from 'vitest';
import {
  API_KEY,
  BASE_URL,
  createdBody,
  gateway,
  HttpResponse,
  http,
  merchantBody,
  merchantGetBody,
  recorder,
  useMsw,
  viewBody,
} from '../helpers';

const EVIL = 'https://evil.test';

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
];

describe('requests go only to the base URL', () => {
  test.each([['https://gateway.test'], ['https://gateway.test/api/']])(
    'every method called on %s sends to that origin and path prefix only',
    async (baseUrl) => {
      reply = serviceReply;
      const before = everything.seen.length;
      const client = gateway({ baseUrl });
      for (const [, call] of CALLS) await call(client);
      const sent = everything.seen.slice(before);
      expect(sent).toHaveLength(CALLS.length);
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
      const client = gateway({ maxRetries: 2 });
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
