import { createMockGateway } from 'merchant-gateway/testing';
import { describe, expect, it } from 'vitest';

const createMerchant = (mock: ReturnType<typeof createMockGateway>) =>
  mock
    .fetch('https://gateway.test/v1/merchants', {
      method: 'POST',
      headers: {
        'Api-Key': mock.credentials.apiKey,
        'Idempotency-Key': 'seed-check',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ merchantName: 'Seeded', merchantEmail: 'seeded@example.com' }),
    })
    .then((res) => res.json() as Promise<{ merchant: { id: string } }>);

describe('sample data', () => {
  it('is identical for the same seed, ids handed out later included', async () => {
    const [a, b] = [createMockGateway({ seed: 7 }), createMockGateway({ seed: 7 })];
    expect(a.sample).toEqual(b.sample);
    expect(a.payments()).toEqual(b.payments());
    expect(a.merchants()).toEqual(b.merchants());
    expect((await createMerchant(a)).merchant.id).toBe((await createMerchant(b)).merchant.id);
    expect(createMockGateway({ seed: 8 }).sample.merchantId).not.toBe(a.sample.merchantId);
  });

  it('gives the sample merchant 1,000 payments across statuses, tokens, networks and 18 months', () => {
    const mock = createMockGateway();
    const { sample } = mock;
    const payments = mock.payments(sample.merchantId);
    expect(sample.paymentCount).toBe(1000);
    expect(payments).toHaveLength(1000);
    const counts = Object.values(sample.statusCounts);
    expect(counts).toHaveLength(5);
    expect(counts.every((n) => n > 20)).toBe(true);
    expect(counts.reduce((x, y) => x + y)).toBe(1000);
    expect(sample.tokenSymbols).toEqual(['ETH', 'USDC', 'USDT']);
    expect(sample.networks).toEqual(
      expect.arrayContaining(['eip155:1', 'eip155:8453', 'eip155:10']),
    );
    expect(sample.firstCreatedAt < '2025-01-15').toBe(true);
    expect(sample.lastCreatedAt > '2026-06-15').toBe(true);
    expect(sample.lastCreatedAt < '2026-07-01').toBe(true);
    for (const p of payments) {
      expect(p.referenceId).not.toBe('');
      expect(p.amount.unit).toMatch(/^iso4217\/[A-Z]{3}$/);
      expect(BigInt(p.amount.value)).toBeGreaterThan(0n);
    }
  });

  it('gives the sample merchant USDC on Base and USDT on Ethereum settlements, the others none', () => {
    const mock = createMockGateway();
    const { cryptoSettlements, merchantId, otherMerchantIds } = mock.sample;
    expect(cryptoSettlements).toEqual([
      {
        id: expect.stringMatching(/^cset_/),
        asset: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        destination: expect.stringMatching(/^eip155:8453:0x[0-9a-fA-F]{40}$/),
      },
      {
        id: expect.stringMatching(/^cset_/),
        asset: 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7',
        destination: expect.stringMatching(/^eip155:1:0x[0-9a-fA-F]{40}$/),
      },
    ]);
    expect(mock.getMerchant(merchantId)?.settlements.crypto).toEqual(cryptoSettlements);
    for (const id of otherMerchantIds) {
      expect(mock.getMerchant(id)?.settlements.crypto).toEqual([]);
    }
  });

  it('adds two other merchants with a few dozen payments each', () => {
    const mock = createMockGateway();
    expect(mock.merchants()).toHaveLength(3);
    for (const id of mock.sample.otherMerchantIds) {
      expect(mock.payments(id).length).toBeGreaterThanOrEqual(24);
      expect(mock.payments(id).length).toBeLessThanOrEqual(48);
    }
  });

  it('comes back on reset(), with the same ids handed out afterwards', async () => {
    const mock = createMockGateway();
    const merchants = mock.merchants();
    const payments = mock.payments();
    const firstId = (await createMerchant(mock)).merchant.id;
    const [payment] = payments;
    mock.setPaymentStatus(payment?.id as string, 'failed');
    mock.reset();
    expect(mock.merchants()).toEqual(merchants);
    expect(mock.payments()).toEqual(payments);
    expect(mock.requests).toEqual([]);
    expect((await createMerchant(mock)).merchant.id).toBe(firstId);
  });

  it('hands out copies: changing them changes nothing in the mock', () => {
    const mock = createMockGateway();
    const merchant = mock.getMerchant(mock.sample.merchantId);
    if (!merchant) throw new Error('sample merchant missing');
    merchant.name = 'Changed';
    merchant.settlements.fiat.length = 0;
    expect(() => mock.sample.otherMerchantIds.push('mer_x')).toThrow(TypeError);
    expect(mock.getMerchant(mock.sample.merchantId)?.name).toBe(mock.sample.merchantName);
    expect(mock.getMerchant(mock.sample.merchantId)?.settlements.fiat).toHaveLength(1);
  });
});

describe('recorded requests', () => {
  it('hold method, path without the base URL prefix, repeated query values and the parsed body', async () => {
    const mock = createMockGateway();
    await mock.fetch(
      'https://gateway.test/api/v1/merchants/payments?status=failed&status=expired&limit=5',
      {
        headers: { 'Api-Key': mock.credentials.apiKey, 'Merchant-Id': mock.sample.merchantId },
      },
    );
    await createMerchant(mock);
    expect(mock.requests).toEqual([
      {
        method: 'GET',
        url: expect.stringContaining('/api/v1/merchants/payments?'),
        path: '/v1/merchants/payments',
        query: { status: ['failed', 'expired'], limit: '5' },
        headers: { 'api-key': '***', 'merchant-id': mock.sample.merchantId },
        body: undefined,
      },
      expect.objectContaining({
        method: 'POST',
        path: '/v1/merchants',
        body: { merchantName: 'Seeded', merchantEmail: 'seeded@example.com' },
      }),
    ]);
  });
});
