import { createMockGateway } from 'merchant-gateway/testing';
import { describe, expect, it } from 'vitest';
import { type ErrorBody, TRANSPORTS, useMockGateway } from '../../../support/mock-harness';

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const ON_BASE = 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
const ON_MAINNET = 'eip155:1:0x2222222222222222222222222222222222222222';

describe.each(TRANSPORTS)('merchant and settlement management over %s', (transport) => {
  const h = useMockGateway(transport);
  // A seeded merchant with no crypto settlement yet (the sample merchant has two).
  const mid = () => h.mock.sample.otherMerchantIds[0] as string;
  async function addSettlement(): Promise<string> {
    const res = await h.call<{ settlements: { id: string }[] }>(
      `/v1/merchants/${mid()}/settlements/crypto`,
      {
        method: 'POST',
        headers: { ...h.auth, 'Idempotency-Key': 'k-1' },
        body: { settlements: [{ asset: USDC_BASE, destination: ON_BASE }] },
      },
    );
    return res.body.settlements[0]?.id as string;
  }
  const put = (id: string, body: unknown, merchantId = mid()) =>
    h.call<ErrorBody & Record<string, unknown>>(
      `/v1/merchants/${merchantId}/settlements/crypto/${id}`,
      { method: 'PUT', headers: h.auth, body },
    );

  it('lists settlements as { fiat, crypto }, and 404 not_found for an unknown merchant', async () => {
    const id = await addSettlement();
    const res = await h.call(`/v1/merchants/${mid()}/settlements`, { headers: h.auth });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['fiat', 'crypto']);
    expect(res.body.crypto).toEqual([{ id, asset: USDC_BASE, destination: ON_BASE }]);
    const missing = await h.call<ErrorBody>('/v1/merchants/mer_nope/settlements', {
      headers: h.auth,
    });
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
  });

  it.each([
    ['no destination', {}, 'must be a string of 1 to 256 characters'],
    ['an empty one', { destination: '' }, 'must be a string of 1 to 256 characters'],
    ['a long one', { destination: `eip155:8453:${'a'.repeat(245)}` }, '1 to 256'],
    ['one not CAIP-10', { destination: 'eip155:8453' }, 'CAIP-10'],
    ['one on another chain', { destination: ON_MAINNET }, "asset's chain eip155:8453"],
  ])('answers PUT with %s as 400 params_validation on destination', async (_, body, message) => {
    const id = await addSettlement();
    const res = await put(id, body);
    expect([res.status, res.body.code]).toEqual([400, 'params_validation']);
    expect(res.body.issues).toEqual([
      { field: 'destination', message: expect.stringContaining(message) },
    ]);
    expect(h.mock.getMerchant(mid())?.settlements.crypto[0]?.destination).toBe(ON_BASE);
  });

  it('answers PUT with a body that is not a JSON object as 400', async () => {
    const id = await addSettlement();
    expect((await put(id, '[1]')).status).toBe(400);
  });

  it('answers an id over 256 characters with 400 and an unknown one with 404', async () => {
    const long = await put('x'.repeat(257), { destination: ON_BASE });
    expect([long.status, long.body.code, long.body.issues?.[0]?.field]).toEqual([
      400,
      'params_validation',
      'id',
    ]);
    const unknown = await put('cset_nope', { destination: ON_BASE });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
    const merchant = await put('cset_nope', { destination: ON_BASE }, 'mer_nope');
    expect([merchant.status, merchant.body.code]).toEqual([404, 'not_found']);
  });

  it('deletes a settlement once: 200 deleted, then 404 not_found', async () => {
    const id = await addSettlement();
    const path = `/v1/merchants/${mid()}/settlements/crypto/${id}`;
    const first = await h.call(path, { method: 'DELETE', headers: h.auth });
    expect([first.status, first.body]).toEqual([200, { id, deleted: true }]);
    const again = await h.call<ErrorBody>(path, { method: 'DELETE', headers: h.auth });
    expect([again.status, again.body.code]).toEqual([404, 'not_found']);
  });

  it('soft-deletes a merchant: 404 on every read, 200 deleted again, no new payments', async () => {
    const path = `/v1/merchants/${mid()}`;
    const first = await h.call(path, { method: 'DELETE', headers: h.auth });
    expect([first.status, first.body]).toEqual([200, { id: mid(), deleted: true }]);
    expect((await h.call(path, { headers: h.auth })).status).toBe(404);
    expect((await h.call(`${path}/settlements`, { headers: h.auth })).status).toBe(404);
    expect((await h.call(path, { method: 'DELETE', headers: h.auth })).status).toBe(200);
    const payment = await h.call<ErrorBody>('/v1/payments', {
      method: 'POST',
      headers: { ...h.auth, 'Merchant-Id': mid() },
      body: { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'r' },
    });
    expect([payment.status, payment.body.code]).toEqual([400, 'merchant_not_found']);
    const unknown = await h.call<ErrorBody>('/v1/merchants/mer_nope', {
      method: 'DELETE',
      headers: h.auth,
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
  });

  it('needs credentials for every new route', async () => {
    for (const [method, path] of [
      ['GET', '/v1/payments'],
      ['GET', '/v1/merchants'],
      ['DELETE', `/v1/merchants/${mid()}`],
      ['GET', `/v1/merchants/${mid()}/settlements`],
      ['DELETE', `/v1/merchants/${mid()}/settlements/crypto/x`],
    ] as const) {
      expect([path, (await h.call(path, { method })).status]).toEqual([path, 401]);
    }
  });
});

describe('mock.setMerchantStatus', () => {
  it('sets any non-empty status and refuses unknown merchants and empty statuses', () => {
    const mock = createMockGateway();
    mock.setMerchantStatus(mock.sample.merchantId, 'suspended');
    expect(mock.getMerchant(mock.sample.merchantId)?.status).toBe('suspended');
    expect(() => mock.setMerchantStatus('mer_nope', 'active')).toThrow(/no merchant mer_nope/);
    expect(() => mock.setMerchantStatus(mock.sample.merchantId, '')).toThrow(TypeError);
    mock.reset();
    expect(mock.getMerchant(mock.sample.merchantId)?.status).toBe('active');
  });
});
