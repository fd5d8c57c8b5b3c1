import {
  type ApiError,
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  MerchantGateway,
  ServerError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  API_KEY,
  BASE_URL,
  captureLogger,
  gateway,
  LEGACY_KEY,
  MERCHANT_URL,
  renderings,
  useMsw,
} from '../../support';

const server = useMsw();

afterEach(() => {
  vi.unstubAllEnvs();
});

/**
 * Whether `text` shows 12 or more characters of `key` in a row: as is, or inside any base64 or
 * base64url run decoded at each of its four character offsets (an independent decoder, not the
 * redactor's own forms).
 */
function showsKey(text: string, key: string): boolean {
  const parts = new Set<string>();
  for (let i = 0; i + 12 <= key.length; i++) parts.add(key.slice(i, i + 12));
  const hit = (plain: string) => [...parts].some((part) => plain.includes(part));
  if (hit(text)) return true;
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{16,}/g)) {
    for (let skip = 0; skip < 4; skip++) {
      const chars = run.slice(skip).replace(/-/g, '+').replace(/_/g, '/');
      const whole = chars.slice(0, chars.length - (chars.length % 4));
      if (hit(Buffer.from(whole, 'base64').toString('latin1'))) return true;
    }
  }
  return false;
}

describe('a baseUrl ending in /v1', () => {
  test.each([
    'https://gateway.example/v1',
    'https://gateway.example/v1/',
    'https://gateway.example/api/v1',
  ])('%s is a ConfigurationError saying the SDK adds /v1 itself', (baseUrl) => {
    const make = () => new MerchantGateway({ baseUrl, apiKey: API_KEY });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(
      /must not end in \/v1: the SDK adds \/v1 to every path itself; use https:\/\/gateway\.example/,
    );
  });

  test('a path prefix that only contains v1 elsewhere is kept', () => {
    expect(
      () => new MerchantGateway({ baseUrl: 'https://gateway.example/v1x', apiKey: API_KEY }),
    ).not.toThrow();
    expect(
      () => new MerchantGateway({ baseUrl: 'https://gateway.example/v1/api', apiKey: API_KEY }),
    ).not.toThrow();
  });
});

describe('a 401 names the setting to fix, never its value', () => {
  const refuse = () =>
    server.use(
      http.get(MERCHANT_URL, () =>
        HttpResponse.json({ code: 'invalid_api_key', message: 'invalid key' }, { status: 401 }),
      ),
    );

  test('a key given as the apiKey option', async () => {
    refuse();
    const error = (await gateway()
      .merchants.get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toMatch(/check the apiKey option$/);
    expect(renderings(error).some((text) => text.includes(API_KEY))).toBe(false);
  });

  test('a key read from MERCHANT_GATEWAY_API_KEY', async () => {
    refuse();
    vi.stubEnv('MERCHANT_GATEWAY_API_KEY', API_KEY);
    const error = (await new MerchantGateway({ baseUrl: BASE_URL }).merchants
      .get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toContain('check MERCHANT_GATEWAY_API_KEY');
    expect(error.message).not.toContain(API_KEY);
  });

  test('the app scheme', async () => {
    refuse();
    const error = (await new MerchantGateway({
      baseUrl: BASE_URL,
      appId: 'app_1',
      clientId: 'client_secretish_1',
    }).merchants
      .get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toMatch(/check appId and clientId$/);
    expect(error.message).not.toContain('client_secretish_1');
  });

  test('the legacy list names legacyApiKey', async () => {
    server.use(
      http.get(`${BASE_URL}/v1/merchants/mer_1/payments`, () =>
        HttpResponse.json({ code: 'unauthorized', message: 'no' }, { status: 401 }),
      ),
    );
    const error = (await gateway({ legacyApiKey: LEGACY_KEY, logLevel: 'off' })
      .legacyPayments.list('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toMatch(/check the legacyApiKey option$/);
  });

  test('the legacy list with a key from MERCHANT_GATEWAY_LEGACY_API_KEY, and without one the partner key', async () => {
    server.use(
      http.get(`${BASE_URL}/v1/merchants/mer_1/payments`, () =>
        HttpResponse.json({ code: 'unauthorized', message: 'no' }, { status: 401 }),
      ),
    );
    vi.stubEnv('MERCHANT_GATEWAY_LEGACY_API_KEY', LEGACY_KEY);
    const fromEnv = (await gateway({ logLevel: 'off' })
      .legacyPayments.list('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(fromEnv.message).toContain('check MERCHANT_GATEWAY_LEGACY_API_KEY');
    expect(fromEnv.message).not.toContain(LEGACY_KEY);
    vi.unstubAllEnvs();
    const partner = (await gateway({ logLevel: 'off' })
      .legacyPayments.list('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(partner.message).toMatch(/check the apiKey option$/);
  });
});

describe('a ConnectionError once no attempt is left', () => {
  test('says how many attempts in how long, and carries method, path, attempts and elapsedMs', async () => {
    server.use(http.get(MERCHANT_URL, () => HttpResponse.error()));
    const error = (await gateway({ maxRetries: 2, maxRetryDelayMs: 60_000 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(
      /^GET \/v1\/merchants\/mer_1: after 3 attempts in \d+ ms: connection failed: /,
    );
    expect(error).toMatchObject({ method: 'GET', path: '/v1/merchants/mer_1', attempts: 3 });
    // Two backoffs of about 0.5 s and 1 s (each up to a quarter shorter) lie between the three.
    expect(error.elapsedMs).toBeGreaterThanOrEqual(1_000);
    expect(error.message).toContain(`in ${error.elapsedMs} ms`);
    expect(error.stack).toContain('after 3 attempts');
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toMatchObject({
      name: 'ConnectionError',
      method: 'GET',
      path: '/v1/merchants/mer_1',
      attempts: 3,
      elapsedMs: error.elapsedMs,
    });
  });

  test('a single attempt says so', async () => {
    server.use(http.post(`${BASE_URL}/v1/refunds`, () => HttpResponse.error()));
    const error = (await gateway({ maxRetries: 0, merchantId: 'mer_1' })
      .refunds.create({ paymentId: 'pay_1' })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error.message).toMatch(/^POST \/v1\/refunds: after 1 attempt in \d+ ms: /);
    expect(error.attempts).toBe(1);
  });
});

const KEY = 'sk_live_Q9fJ2mXvB7pLr4TzW8kNd';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const OFFSETS: [string, string][] = [
  ['Basic base64("partner:" + key)', `Basic ${b64(`partner:${KEY}`)}`],
  ['base64("x" + key)', b64(`x${KEY}`)],
  ['base64("xy" + key)', b64(`xy${KEY}`)],
  ['base64(key + ":x")', b64(`${KEY}:x`)],
  ['base64url("x" + key + "yz")', b64url(`x${KEY}yz`)],
  ['base64url("id=" + key + "&t=1")', b64url(`id=${KEY}&t=1`)],
];

describe('a key echoed as base64 at any offset', () => {
  test('the detector sees each form before redaction (else this test proves nothing)', () => {
    for (const [, form] of OFFSETS) expect(showsKey(form, KEY)).toBe(true);
  });

  test.each(OFFSETS)(
    '%s is redacted in message, String, stack, JSON, inspect and log lines',
    async (_, form) => {
      server.use(
        http.get(MERCHANT_URL, () =>
          HttpResponse.json(
            { code: 'internal_error', message: `upstream saw Authorization: ${form}` },
            { status: 503, headers: { 'x-request-id': form } },
          ),
        ),
      );
      const log = captureLogger();
      const error = await new MerchantGateway({
        baseUrl: BASE_URL,
        apiKey: KEY,
        maxRetries: 1,
        logger: log.logger,
        logLevel: 'debug',
      }).merchants
        .get('mer_1', { timeoutMs: 1_000 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      for (const text of [...renderings(error), log.text()])
        expect(showsKey(text, KEY)).toBe(false);
      // The log carried the message (with the form in it, redacted) on the retry's warn line.
      expect(log.text()).toContain('upstream saw Authorization');
    },
  );

  test('and in what a follower hands onError', async () => {
    const form = b64(`partner:${KEY}`);
    const answer = () =>
      HttpResponse.json(
        { code: 'payment_not_found', message: `no such payment for ${form}` },
        { status: 404 },
      );
    // The status read fails with the echo; the sweep finds nothing. A sweep answering the same 404
    // would end the follower (a permanent sweep failure goes to the iterator, not onError), and
    // on a loaded machine it could come first: the read's onError was then never called.
    const emptyList = () =>
      HttpResponse.json({
        data: [],
        nextCursor: null,
        stats: { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 },
      });
    server.use(
      http.get(`${BASE_URL}/v1/payments/pay_1/status`, answer),
      http.get(`${BASE_URL}/v1/payments`, emptyList),
    );
    const seen: Error[] = [];
    const client = new MerchantGateway({
      baseUrl: BASE_URL,
      apiKey: KEY,
      merchantId: 'mer_1',
      maxRetries: 0,
    });
    const follower = client.payments.follower({
      onError: (error) => {
        seen.push(error);
      },
    });
    follower.add('pay_1');
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 15_000 });
    follower.close();
    for (const error of seen) {
      expect(error.message).toContain('no such payment for');
      for (const text of renderings(error)) expect(showsKey(text, KEY)).toBe(false);
    }
  }, 20_000);
});

describe('an error body is redacted before it is cut at 64 KiB', () => {
  /** The ApiError of a GET answered 500 with `body`, by a client holding `key`. */
  async function failWithBody(body: string, key: string): Promise<ApiError> {
    server.use(http.get(MERCHANT_URL, () => new HttpResponse(body, { status: 500 })));
    const client = new MerchantGateway({ baseUrl: BASE_URL, apiKey: key, maxRetries: 0 });
    return (await client.merchants.get('mer_1').catch((e: unknown) => e)) as ApiError;
  }

  test.each([1, 8, 12, 23])(
    'a key straddling the cut with %i of its characters before it leaves none of them',
    async (before) => {
      const key = 'sk_live_ABCDEFGHIJKLMNOP';
      expect(key).toHaveLength(24);
      const body = `${'x'.repeat(64 * 1024 - before)}${key}${'y'.repeat(100)}`;
      const error = await failWithBody(body, key);
      expect(error.bodyTruncated).toBe(true);
      const kept = error.body as string;
      expect(kept.length).toBeLessThanOrEqual(64 * 1024);
      // The key became *** before the cut: nothing but the filler and (part of) the marker.
      expect(kept).toMatch(/^x+\**$/);
    },
  );

  test('a body cut even past the extra read drops what may start a key at its end', async () => {
    const key = 'sk_live_ABCDEFGHIJKLMNOP';
    // Far longer than 64 KiB + the key: the reader stops past the cut; the tail there is a key's start.
    const body = `${'x'.repeat(64 * 1024 + 10)}${key.slice(0, 20)}${'z'.repeat(200_000)}`;
    const error = await failWithBody(body, key);
    expect(error.bodyTruncated).toBe(true);
    expect(error.body as string).toMatch(/^x+$/);
  });
});
