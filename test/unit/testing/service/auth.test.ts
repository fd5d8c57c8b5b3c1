import { describe, expect, it } from 'vitest';
import { type ErrorBody, TRANSPORTS, useMockGateway } from '../../../support/mock-harness';

describe.each(TRANSPORTS)('authentication over %s', (transport) => {
  const h = useMockGateway(transport, {
    credentials: { apiKey: 'sk_custom', legacyApiKey: 'lk_custom' },
  });
  const merchantPath = () => `/v1/merchants/${h.mock.sample.merchantId}`;
  const get = (path: string, headers: Record<string, string>) =>
    h.call<ErrorBody>(path, { headers });

  it('keeps the default for every credential not overridden', () => {
    expect(h.mock.credentials).toEqual({
      apiKey: 'sk_custom',
      legacyApiKey: 'lk_custom',
      appId: 'app_test_mock',
      clientId: 'client_test_mock',
    });
  });

  const gatewayPath = () =>
    `/v1/gateway/payment/${h.mock.payments(h.mock.sample.merchantId)[0]?.id}`;
  const app = { 'App-Id': 'app_test_mock', 'Client-Id': 'client_test_mock' };

  it('accepts the partner Api-Key everywhere, and the App-Id with Client-Id scheme on the gateway reads only', async () => {
    expect((await get(merchantPath(), { 'Api-Key': 'sk_custom' })).status).toBe(200);
    expect((await get(gatewayPath(), { 'Api-Key': 'sk_custom' })).status).toBe(200);
    expect((await get(gatewayPath(), app)).status).toBe(200);
    expect((await get(`${gatewayPath()}/status`, app)).status).toBe(200);
  });

  it.each([
    ['merchant management', () => `/v1/merchants/${h.mock.sample.merchantId}`],
    ['payment details', () => `/v1/payments/${h.mock.payments(h.mock.sample.merchantId)[0]?.id}`],
    ['the merchant list of payments', () => '/v1/merchants/payments'],
  ])(
    'answers 401 missing_api_key to the app scheme on %s, whose contract takes Api-Key only',
    async (_, path) => {
      const res = await get(path(), { ...app, 'Merchant-Id': h.mock.sample.merchantId });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('missing_api_key');
    },
  );

  it.each([
    ['no credentials', {}, 401, 'missing_api_key'],
    ['a wrong Api-Key', { 'Api-Key': 'sk_wrong' }, 401, 'invalid_api_key'],
    ['App-Id without Client-Id', { 'App-Id': 'app_test_mock' }, 401, 'missing_client_id'],
    ['Client-Id without App-Id', { 'Client-Id': 'client_test_mock' }, 401, 'missing_app_id'],
    [
      'a wrong Client-Id',
      { 'App-Id': 'app_test_mock', 'Client-Id': 'nope' },
      401,
      'invalid_app_id',
    ],
    ['both schemes at once', { 'Api-Key': 'sk_custom', ...app }, 400, 'conflicting_auth_headers'],
    [
      'a non-ASCII header value',
      { 'Api-Key': 'sk_custom', 'X-Note': 'caf\u00e9' },
      400,
      'header_not_ascii',
    ],
    [
      'an unknown WCP-Version',
      { 'Api-Key': 'sk_custom', 'WCP-Version': '2020-01-01' },
      400,
      'unknown_api_version',
    ],
  ])(
    'the gateway view rejects %s',
    async (_case, headers: Record<string, string>, status, code) => {
      const res = await get(gatewayPath(), headers);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ code, message: expect.any(String) });
    },
  );

  it.each([
    ['no credentials', {}, 'missing_api_key'],
    ['a wrong Api-Key', { 'Api-Key': 'sk_wrong' }, 'invalid_api_key'],
    [
      'a wrong Api-Key beside the app scheme',
      { 'Api-Key': 'sk_wrong', 'App-Id': 'a' },
      'invalid_api_key',
    ],
  ])(
    'merchant management answers 401 for %s, with a code its contract names',
    async (_case, headers: Record<string, string>, code) => {
      const res = await get(merchantPath(), headers);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(code);
    },
  );

  it('merchant management, which takes no WCP-Version, ignores one it does not know', async () => {
    const res = await get(merchantPath(), { 'Api-Key': 'sk_custom', 'WCP-Version': '2020-01-01' });
    expect(res.status).toBe(200);
  });

  it.each(['2026-02-18', '2026-02-19.preview'])('accepts WCP-Version %s', async (version) => {
    const res = await get(gatewayPath(), { 'Api-Key': 'sk_custom', 'WCP-Version': version });
    expect(res.status).toBe(200);
  });

  it('records rejected requests with credentials masked', async () => {
    await get(merchantPath(), { 'Api-Key': 'sk_wrong', 'App-Id': 'a', 'Client-Id': 'c' });
    const [recorded] = h.mock.requests;
    expect(recorded).toMatchObject({ method: 'GET', path: merchantPath(), body: undefined });
    expect(recorded?.headers).toMatchObject({
      'api-key': '***',
      'app-id': '***',
      'client-id': '***',
    });
    expect(JSON.stringify(h.mock.requests)).not.toContain('sk_wrong');
  });

  describe('the deprecated list', () => {
    const legacyPath = () => `/v1/merchants/${h.mock.sample.merchantId}/payments?limit=1`;

    it('accepts X-Api-Key with the legacy key, and the partner Api-Key for compatibility', async () => {
      expect((await get(legacyPath(), { 'X-Api-Key': 'lk_custom' })).status).toBe(200);
      expect((await get(legacyPath(), { 'Api-Key': 'sk_custom' })).status).toBe(200);
    });

    it.each([
      ['no key', {}, 'missing_api_key'],
      [
        'only the app scheme',
        { 'App-Id': 'app_test_mock', 'Client-Id': 'client_test_mock' },
        'missing_api_key',
      ],
      ['a wrong X-Api-Key', { 'X-Api-Key': 'lk_wrong' }, 'invalid_api_key'],
      ['the partner key as X-Api-Key', { 'X-Api-Key': 'sk_custom' }, 'invalid_api_key'],
      ['a wrong Api-Key', { 'Api-Key': 'sk_wrong' }, 'invalid_api_key'],
    ])('answers 401 for %s', async (_case, headers: Record<string, string>, code) => {
      const res = await get(legacyPath(), headers);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(code);
    });

    it('does not accept the legacy key on other endpoints', async () => {
      const res = await get(merchantPath(), { 'X-Api-Key': 'lk_custom' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('missing_api_key');
    });
  });
});
