import { inspect } from 'node:util';
import { ConfigurationError, MerchantGateway, VERSION } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import pkg from '../../../package.json' with { type: 'json' };
import {
  API_KEY,
  answerMerchantGets,
  BASE_URL,
  gateway,
  LEGACY_KEY,
  merchantGetBody,
  recorder,
  useMsw,
} from '../../support';

const server = useMsw();

describe('auth scheme', () => {
  test('an apiKey is sent as Api-Key', async () => {
    const r = answerMerchantGets(server);
    await gateway()
      .merchants.get('mer_1')
      .catch(() => undefined);
    expect(r.seen[0]?.headers.get('api-key')).toBe(API_KEY);
    expect(r.seen[0]?.headers.has('app-id')).toBe(false);
  });

  test('appId with clientId is sent as App-Id and Client-Id, with no Api-Key', async () => {
    const r = answerMerchantGets(server);
    const client = new MerchantGateway({ baseUrl: BASE_URL, appId: 'app_1', clientId: 'cli_1' });
    await client.merchants.get('mer_1').catch(() => undefined);
    expect(r.seen[0]?.headers.get('app-id')).toBe('app_1');
    expect(r.seen[0]?.headers.get('client-id')).toBe('cli_1');
    expect(r.seen[0]?.headers.has('api-key')).toBe(false);
  });

  test.each([
    ['both schemes', { apiKey: 'k', appId: 'a', clientId: 'c' }, /exactly one auth scheme/],
    ['neither scheme', {}, /no credentials/],
    ['appId without clientId', { appId: 'a' }, /both appId and clientId/],
    ['clientId without appId', { clientId: 'c' }, /both appId and clientId/],
    ['an empty apiKey', { apiKey: '' }, /no credentials|non-empty/],
  ])('%s is a ConfigurationError thrown by the constructor', (_, options, message) => {
    vi.stubEnv('MERCHANT_GATEWAY_API_KEY', '');
    expect(() => new MerchantGateway({ baseUrl: BASE_URL, ...options })).toThrow(
      ConfigurationError,
    );
    expect(() => new MerchantGateway({ baseUrl: BASE_URL, ...options })).toThrow(message);
  });

  test('the key comes from MERCHANT_GATEWAY_API_KEY when not given', async () => {
    vi.stubEnv('MERCHANT_GATEWAY_API_KEY', 'sk_from_env');
    vi.stubEnv('MERCHANT_GATEWAY_BASE_URL', 'https://env.gateway.test/');
    const r = recorder(() => HttpResponse.json(merchantGetBody));
    server.use(http.get('https://env.gateway.test/v1/merchants/mer_1', r.resolver));
    await new MerchantGateway().merchants.get('mer_1');
    expect(r.seen[0]?.headers.get('api-key')).toBe('sk_from_env');
  });

  test('an env apiKey does not clash with an explicit app scheme', () => {
    vi.stubEnv('MERCHANT_GATEWAY_API_KEY', 'sk_from_env');
    expect(
      () => new MerchantGateway({ baseUrl: BASE_URL, appId: 'a', clientId: 'c' }),
    ).not.toThrow();
  });
});

describe('baseUrl', () => {
  test('is required, with no default host', () => {
    vi.stubEnv('MERCHANT_GATEWAY_BASE_URL', '');
    expect(() => new MerchantGateway({ apiKey: 'k' })).toThrow(/baseUrl is required/);
  });

  test.each([
    'http://gateway.example',
    'http://10.0.0.1:8080',
    'ftp://gateway.example',
    'not a url',
    'https://user:pass@gateway.example',
    'https://gateway.example/?x=1',
  ])('%s is refused', (baseUrl) => {
    expect(() => new MerchantGateway({ baseUrl, apiKey: 'k' })).toThrow(ConfigurationError);
  });

  test.each([
    'http://localhost:4010',
    'http://127.0.0.1:4010',
    'http://127.1.2.3',
    'http://[::1]:4010',
    'https://gateway.example',
  ])('%s is accepted', (baseUrl) => {
    expect(() => new MerchantGateway({ baseUrl, apiKey: 'k' })).not.toThrow();
  });

  test.each([
    ['https://gateway.test/api', 'https://gateway.test/api/v1/merchants/mer_1'],
    ['https://gateway.test/api/', 'https://gateway.test/api/v1/merchants/mer_1'],
    ['https://gateway.test/', 'https://gateway.test/v1/merchants/mer_1'],
  ])('a path prefix and a trailing slash work (%s)', async (baseUrl, expected) => {
    const r = recorder(() => HttpResponse.json(merchantGetBody));
    server.use(http.get(expected, r.resolver));
    await gateway({ baseUrl }).merchants.get('mer_1');
    expect(r.seen[0]?.url).toBe(expected);
  });
});

describe('browser guard', () => {
  test('a secret apiKey in a browser throws unless dangerouslyAllowBrowser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => gateway()).toThrow(/browser/);
    expect(() => gateway({ dangerouslyAllowBrowser: true })).not.toThrow();
  });

  test('the public app scheme is allowed in a browser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(
      () => new MerchantGateway({ baseUrl: BASE_URL, appId: 'a', clientId: 'c' }),
    ).not.toThrow();
  });
});

describe('identification headers', () => {
  test('every request names the SDK, its version and platform', async () => {
    const r = answerMerchantGets(server);
    await gateway().merchants.get('mer_1');
    const headers = r.seen[0]?.headers;
    expect(headers?.get('sdk-name')).toBe('merchant-gateway');
    expect(headers?.get('sdk-version')).toBe(VERSION);
    expect(headers?.get('sdk-platform')).toBe(`node/${process.versions.node}`);
    expect(headers?.has('wcp-version')).toBe(false);
  });

  test('apiVersion is sent as WCP-Version, and client and call headers are added', async () => {
    const r = answerMerchantGets(server);
    const client = gateway({ apiVersion: '2026-02-18', headers: { 'X-Team': 'payments' } });
    await client.merchants.get('mer_1', { headers: { 'X-Trace': 't-1' } });
    expect(r.seen[0]?.headers.get('wcp-version')).toBe('2026-02-18');
    expect(r.seen[0]?.headers.get('x-team')).toBe('payments');
    expect(r.seen[0]?.headers.get('x-trace')).toBe('t-1');
  });

  test('the SDK version matches package.json', () => {
    expect(VERSION).toBe(pkg.version);
  });
});

describe('withOptions', () => {
  test('returns a new client with overrides and leaves the original unchanged', async () => {
    const original = gateway({ merchantId: 'mer_a' });
    const other = original.withOptions({
      baseUrl: 'https://other.gateway.test',
      merchantId: 'mer_b',
    });
    expect(other).not.toBe(original);
    expect(original.baseUrl).toBe(BASE_URL);
    expect(other.baseUrl).toBe('https://other.gateway.test');
    expect(original.toJSON().merchantId).toBe('mer_a');
    expect(other.toJSON().merchantId).toBe('mer_b');
  });

  test('can switch the auth scheme when the old key is cleared', () => {
    const client = gateway().withOptions({ apiKey: undefined, appId: 'a', clientId: 'c' });
    expect(client.toJSON()).toMatchObject({ appId: '***', clientId: '***' });
    expect(client.toJSON().apiKey).toBeUndefined();
  });
});

describe('keys are never shown', () => {
  const client = () =>
    new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, legacyApiKey: LEGACY_KEY });

  test('JSON.stringify shows *** in place of every key', () => {
    const json = JSON.stringify(client());
    expect(json).not.toContain(API_KEY);
    expect(json).not.toContain(LEGACY_KEY);
    expect(JSON.parse(json)).toMatchObject({
      apiKey: '***',
      legacyApiKey: '***',
      baseUrl: BASE_URL,
    });
  });

  test('util.inspect shows *** in place of every key', () => {
    const text = inspect(client(), { depth: 10, showHidden: true });
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(LEGACY_KEY);
    expect(text).toContain('***');
  });

  test('an app scheme pair is hidden too', () => {
    const text = `${inspect(new MerchantGateway({ baseUrl: BASE_URL, appId: 'app_SECRET1', clientId: 'cli_SECRET2' }))}`;
    expect(text).not.toMatch(/SECRET/);
  });
});
