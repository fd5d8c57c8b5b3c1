import { type ApiError, MerchantGateway } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import {
  API_KEY,
  answerMerchantGets,
  BASE_URL,
  captureLogger,
  gateway,
  LEGACY_KEY,
  MERCHANT_URL,
  merchantGetBody,
  renderings,
  useMsw,
} from '../../support';

const server = useMsw();

describe('logging', () => {
  test('nothing is logged by default', async () => {
    answerMerchantGets(server);
    const log = captureLogger();
    await gateway({ logger: log.logger }).merchants.get('mer_1');
    expect(log.text()).toBe('');
  });

  test('debug logs each attempt with redacted headers and never a key', async () => {
    answerMerchantGets(server);
    const log = captureLogger();
    const client = new MerchantGateway({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      legacyApiKey: LEGACY_KEY,
      logger: log.logger,
      logLevel: 'debug',
    });
    await client.merchants.get('mer_1');
    const text = log.text();
    expect(text).toContain('→ GET /v1/merchants/mer_1 (attempt 1)');
    expect(text).toMatch(/← GET \/v1\/merchants\/mer_1 200 in \d+ ms/);
    expect(text).toContain('"api-key":"***"');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(LEGACY_KEY);
  });

  test('MERCHANT_GATEWAY_LOG turns logging on', async () => {
    vi.stubEnv('MERCHANT_GATEWAY_LOG', 'debug');
    answerMerchantGets(server);
    const log = captureLogger();
    await gateway({ logger: log.logger }).merchants.get('mer_1');
    expect(log.text()).toContain('→ GET /v1/merchants/mer_1');
  });

  test('warn logs retries but not attempts', async () => {
    // No jitter (Math.random 0), so the line is exact: the 1 ms asked for is shorter than the
    // backoff's first wait, 500 ms, which is what the retry waits.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    let n = 0;
    server.use(
      http.get(MERCHANT_URL, () =>
        ++n === 1
          ? new HttpResponse(null, { status: 429, headers: { 'retry-after-ms': '1' } })
          : HttpResponse.json(merchantGetBody),
      ),
    );
    const log = captureLogger();
    await gateway({ logger: log.logger, logLevel: 'warn' }).merchants.get('mer_1');
    const line =
      '[merchant-gateway] GET /v1/merchants/mer_1 → 429 (empty body); retry 1 of 2 in 500 ms';
    expect(log.text()).toBe(`${JSON.stringify({ message: line })} ${line}`);
  });
});

describe('keys never leak through errors', () => {
  test('a service message that echoes the key is scrubbed everywhere', async () => {
    server.use(
      http.get(MERCHANT_URL, () =>
        HttpResponse.json(
          {
            code: 'invalid_api_key',
            message: `key ${API_KEY} is not valid`,
            details: { key: API_KEY },
          },
          { status: 401, headers: { 'x-echo': API_KEY } },
        ),
      ),
    );
    const log = captureLogger();
    const error = (await gateway({ logger: log.logger, logLevel: 'debug' })
      .merchants.get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe(
      'GET /v1/merchants/mer_1 → 401 invalid_api_key: key *** is not valid. The service refused the credentials: check the apiKey option',
    );
    for (const text of [
      ...renderings(error),
      JSON.stringify(error.body),
      JSON.stringify(error.headers),
      log.text(),
    ]) {
      expect(text).not.toContain(API_KEY);
    }
  });

  test('a connection failure whose cause quotes the key is scrubbed', async () => {
    const fetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error(`proxy refused ${API_KEY}`) });
    };
    const error = await gateway({ fetch, maxRetries: 0 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^GET \/v1\/merchants\/mer_1: after 1 attempt in \d+ ms: connection failed: proxy refused \*\*\*$/,
    );
  });

  test('a response validation error does not carry the key back', async () => {
    server.use(http.get(MERCHANT_URL, () => HttpResponse.json({ merchant: { note: API_KEY } })));
    const error = await gateway()
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    for (const text of renderings(error)) expect(text).not.toContain(API_KEY);
  });

  test('configuration errors never quote a key', () => {
    let error: unknown;
    try {
      new MerchantGateway({ baseUrl: 'http://example.com', apiKey: API_KEY });
    } catch (e) {
      error = e;
    }
    for (const text of renderings(error)) expect(text).not.toContain(API_KEY);
  });
});
