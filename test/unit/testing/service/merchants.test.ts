import { describe, expect, it } from 'vitest';
import { type ErrorBody, TRANSPORTS, useMockGateway } from '../../../support/mock-harness';

interface MerchantBody {
  merchant: Record<string, unknown> & { id: string };
}
interface SettlementsBody {
  settlements: { id: string; asset: string; destination: string }[];
}

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const USDT_ETH = 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7';
const DESTINATION = 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
const MAINNET_DESTINATION = 'eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
const newMerchant = { merchantName: 'Acme Tea', merchantEmail: 'billing@acme-tea.example' };

describe.each(TRANSPORTS)('merchants over %s', (transport) => {
  const h = useMockGateway(transport);
  const create = (body: unknown, key: string | null = 'key-1') =>
    h.call<MerchantBody & ErrorBody>('/v1/merchants', {
      method: 'POST',
      headers: { ...h.auth, ...(key === null ? {} : { 'Idempotency-Key': key }) },
      body,
    });

  it('creates a merchant with 201 and the create response shape (no iconUrl)', async () => {
    const res = await create({ ...newMerchant, iconUrl: 'https://cdn.example.com/acme.png' });
    expect(res.status).toBe(201);
    expect(res.body.merchant).toEqual({
      id: expect.stringMatching(/^mer_/),
      name: 'Acme Tea',
      email: 'billing@acme-tea.example',
      status: 'active',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(h.mock.getMerchant(res.body.merchant.id)?.iconUrl).toBe(
      'https://cdn.example.com/acme.png',
    );
  });

  it('replays the original merchant for a retry with the same key and creates exactly one', async () => {
    const before = h.mock.merchants().length;
    const first = await create(newMerchant);
    const retry = await create({
      merchantEmail: newMerchant.merchantEmail,
      merchantName: 'Acme Tea',
    });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(h.mock.merchants()).toHaveLength(before + 1);
    expect(h.mock.merchants().filter((m) => m.name === 'Acme Tea')).toHaveLength(1);
  });

  it('answers 409 idempotency_conflict for the same key with a different body', async () => {
    await create(newMerchant);
    const res = await create({ ...newMerchant, merchantName: 'Other' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('idempotency_conflict');
    expect(h.mock.merchants().filter((m) => m.name === 'Other')).toHaveLength(0);
  });

  it('scopes keys per endpoint: one key may create a merchant and its settlements', async () => {
    const { body } = await create(newMerchant, 'shared');
    const res = await h.call(`/v1/merchants/${body.merchant.id}/settlements/crypto`, {
      method: 'POST',
      headers: { ...h.auth, 'Idempotency-Key': 'shared' },
      body: { settlements: [{ asset: USDC_BASE, destination: DESTINATION }] },
    });
    expect(res.status).toBe(201);
  });

  it('requires an Idempotency-Key on merchant creation', async () => {
    const res = await create(newMerchant, null);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('missing_idempotency_key');
  });

  it('rejects an Idempotency-Key longer than 255 characters', async () => {
    expect((await create(newMerchant, 'k'.repeat(255))).status).toBe(201);
    const res = await create(newMerchant, 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.issues?.[0]?.field).toBe('Idempotency-Key');
  });

  it('lists every invalid field as an issue of a 400 params_validation', async () => {
    const res = await create({
      merchantName: '',
      merchantEmail: '.x@y.com',
      iconUrl: 'http://a.b',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('params_validation');
    expect(res.body.issues?.map((i) => i.field).sort()).toEqual([
      'iconUrl',
      'merchantEmail',
      'merchantName',
    ]);
    expect(res.body.message).toContain('merchantEmail');
  });

  it('accepts a 256-character name and rejects 257', async () => {
    expect((await create({ ...newMerchant, merchantName: 'n'.repeat(256) }, 'a')).status).toBe(201);
    const res = await create({ ...newMerchant, merchantName: 'n'.repeat(257) }, 'b');
    expect(res.body.issues).toEqual([{ field: 'merchantName', message: expect.any(String) }]);
  });

  it('gets the sample merchant with its settlements', async () => {
    const res = await h.call<MerchantBody>(`/v1/merchants/${h.mock.sample.merchantId}`, {
      headers: h.auth,
    });
    expect(res.status).toBe(200);
    expect(res.body.merchant).toMatchObject({
      id: h.mock.sample.merchantId,
      name: h.mock.sample.merchantName,
      iconUrl: expect.stringMatching(/^https:/),
      settlements: {
        crypto: h.mock.sample.cryptoSettlements,
        fiat: [{ id: h.mock.sample.fiatSettlementId, status: 'active', bankType: 'sepa' }],
      },
    });
  });

  it('answers 404 not_found for an unknown merchant', async () => {
    const res = await h.call<ErrorBody>('/v1/merchants/mer_nope', { headers: h.auth });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('updates a merchant and removes its logo with iconUrl null', async () => {
    const id = h.mock.sample.merchantId;
    const patch = (body: unknown) =>
      h.call<MerchantBody & ErrorBody>(`/v1/merchants/${id}`, {
        method: 'PATCH',
        headers: h.auth,
        body,
      });
    const renamed = await patch({ merchantName: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.merchant).toMatchObject({ name: 'Renamed', iconUrl: expect.any(String) });
    const cleared = await patch({ iconUrl: null });
    expect(cleared.body.merchant.iconUrl).toBeNull();
    expect(h.mock.getMerchant(id)?.iconUrl).toBeNull();
    const empty = await patch({});
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('params_validation');
    expect((await patch({ merchantEmail: 'bad' })).body.issues?.[0]?.field).toBe('merchantEmail');
  });

  describe('crypto settlements', () => {
    // A seeded merchant with none yet (the sample merchant has USDC on Base and USDT on Ethereum).
    const bare = () => h.mock.sample.otherMerchantIds[0] as string;
    const register = (settlements: unknown, key = 'set-1', merchantId = bare()) =>
      h.call<SettlementsBody & ErrorBody>(`/v1/merchants/${merchantId}/settlements/crypto`, {
        method: 'POST',
        headers: { ...h.auth, 'Idempotency-Key': key },
        body: { settlements },
      });

    it('registers settlements with 201 and shows them on the merchant', async () => {
      const res = await register([{ asset: USDC_BASE, destination: DESTINATION }]);
      expect(res.status).toBe(201);
      expect(res.body.settlements).toEqual([
        { id: expect.stringMatching(/^cset_/), asset: USDC_BASE, destination: DESTINATION },
      ]);
      expect(h.mock.getMerchant(bare())?.settlements.crypto).toEqual(res.body.settlements);
    });

    it('answers 409 settlement_asset_conflict for an asset already registered', async () => {
      await register([{ asset: USDC_BASE, destination: DESTINATION }], 'first');
      const res = await register([{ asset: USDC_BASE, destination: DESTINATION }], 'second');
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('settlement_asset_conflict');
      expect(h.mock.getMerchant(bare())?.settlements.crypto).toHaveLength(1);
    });

    it('answers 409 settlement_asset_conflict for one asset twice in a request, registering none', async () => {
      const res = await register([
        { asset: USDT_ETH, destination: MAINNET_DESTINATION },
        { asset: USDT_ETH, destination: MAINNET_DESTINATION },
      ]);
      expect(res.body.code).toBe('settlement_asset_conflict');
      expect(h.mock.getMerchant(bare())?.settlements.crypto).toEqual([]);
    });

    it('replays a retry with the same key instead of reporting a conflict', async () => {
      const first = await register([{ asset: USDC_BASE, destination: DESTINATION }]);
      const retry = await register([{ asset: USDC_BASE, destination: DESTINATION }]);
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
    });

    it('validates CAIP shapes and the 1 to 50 entry bound', async () => {
      const bad = await register([{ asset: 'usdc', destination: '0xabc' }]);
      expect(bad.body.issues?.map((i) => i.field)).toEqual([
        'settlements[0].asset',
        'settlements[0].destination',
      ]);
      expect((await register([], 'k2')).body.issues?.[0]?.field).toBe('settlements');
      const many = Array.from({ length: 51 }, (_, i) => ({
        asset: `eip155:${i + 1}/slip44:60`,
        destination: DESTINATION,
      }));
      expect((await register(many, 'k3')).status).toBe(400);
    });

    it('answers 404 for an unknown merchant and 400 without an Idempotency-Key', async () => {
      const entry = [{ asset: USDC_BASE, destination: DESTINATION }];
      expect((await register(entry, 'k', 'mer_unknown')).status).toBe(404);
      const res = await h.call<ErrorBody>(`/v1/merchants/${bare()}/settlements/crypto`, {
        method: 'POST',
        headers: h.auth,
        body: { settlements: entry },
      });
      expect(res.body.code).toBe('missing_idempotency_key');
    });
  });
});
