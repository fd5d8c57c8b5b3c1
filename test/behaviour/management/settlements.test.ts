import {
  ConflictError,
  type CryptoSettlement,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
} from 'merchant-gateway';
import { describe, expect, test } from 'vitest';
import { loseFirstAnswer, rejectedBeforeSending, TRANSPORTS, useManagement } from './support';

// The sample merchant is seeded with USDC on Base and USDT on Ethereum: these tests register others.
const USDC_OPTIMISM = 'eip155:10/erc20:0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85';
const ETH_MAINNET = 'eip155:1/slip44:60';
const ON_OPTIMISM = 'eip155:10:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
const ON_OPTIMISM_2 = 'eip155:10:0x1111111111111111111111111111111111111111';
const ON_MAINNET = 'eip155:1:0x2222222222222222222222222222222222222222';

describe.each(TRANSPORTS)('settlements against the mock over %s', (transport) => {
  const t = useManagement(transport);
  const merchantId = () => t.mock.sample.merchantId;
  const seeded = () => new Set(t.mock.sample.cryptoSettlements.map((s) => s.id));
  /** The crypto settlements these tests registered (the seeded ones left out). */
  const crypto = () =>
    (t.mock.getMerchant(merchantId())?.settlements.crypto ?? []).filter((s) => !seeded().has(s.id));

  /** Registers USDC on OP Mainnet and ETH on mainnet for the sample merchant. */
  async function register(): Promise<[CryptoSettlement, CryptoSettlement]> {
    const created = await t.client().settlements.createCrypto(merchantId(), [
      { asset: USDC_OPTIMISM, destination: ON_OPTIMISM },
      { asset: ETH_MAINNET, destination: ON_MAINNET },
    ]);
    return created as [CryptoSettlement, CryptoSettlement];
  }

  describe('settlements.list', () => {
    test('gives { fiat, crypto }: the seeded ones, then the crypto ones registered', async () => {
      const gateway = t.client();
      const seededOnly = await gateway.settlements.list(merchantId());
      expect(seededOnly).toEqual({
        fiat: [{ id: t.mock.sample.fiatSettlementId, status: 'active', bankType: 'sepa' }],
        crypto: t.mock.sample.cryptoSettlements,
      });
      const [usdc, eth] = await register();
      const listed = await gateway.settlements.list(merchantId());
      expect(listed.crypto).toEqual([...t.mock.sample.cryptoSettlements, usdc, eth]);
      expect(t.requests('GET', /\/settlements$/)).toHaveLength(2);
    });

    test('an unknown merchant is a NotFoundError', async () => {
      await expect(t.client().settlements.list('mer_missing')).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });

    test('a GET is retried after a 5xx', async () => {
      t.mock.failNext({ status: 502, match: { method: 'GET', path: '/settlements' } });
      await t.client({ maxRetries: 1 }).settlements.list(merchantId());
      expect(t.requests('GET', /\/settlements$/)).toHaveLength(2);
    });
  });

  describe('settlements.updateCrypto', () => {
    test('changes the destination and returns the settlement, asset unchanged', async () => {
      const [usdc] = await register();
      const updated = await t
        .client()
        .settlements.updateCrypto(merchantId(), usdc.id, { destination: ON_OPTIMISM_2 });
      expect(updated).toEqual({ id: usdc.id, asset: USDC_OPTIMISM, destination: ON_OPTIMISM_2 });
      expect(crypto().find((s) => s.id === usdc.id)?.destination).toBe(ON_OPTIMISM_2);
      const [request] = t.requests('PUT', /\/settlements\/crypto\//);
      expect(request?.body).toEqual({ destination: ON_OPTIMISM_2 });
      expect(request?.headers['idempotency-key']).toBeUndefined();
    });

    test("a destination on another chain than the asset's is an InvalidRequestError naming destination", async () => {
      const [usdc] = await register();
      const error = await t
        .client()
        .settlements.updateCrypto(merchantId(), usdc.id, { destination: ON_MAINNET })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).code).toBe('params_validation');
      expect((error as InvalidRequestError).issues?.[0]?.field).toBe('destination');
      expect(crypto().find((s) => s.id === usdc.id)?.destination).toBe(ON_OPTIMISM);
    });

    test('an unknown settlement or merchant is a NotFoundError', async () => {
      await register();
      const gateway = t.client();
      await expect(
        gateway.settlements.updateCrypto(merchantId(), 'cset_missing', {
          destination: ON_OPTIMISM,
        }),
      ).rejects.toBeInstanceOf(NotFoundError);
      await expect(
        gateway.settlements.updateCrypto('mer_missing', 'cset_1', { destination: ON_OPTIMISM }),
      ).rejects.toBeInstanceOf(NotFoundError);
    });

    test('a PUT is retried after a timeout: the same body twice, one change', async () => {
      const [usdc] = await register();
      const gateway = t.client({
        maxRetries: 1,
        timeoutMs: 300,
        fetch: loseFirstAnswer('PUT', 'timeout'),
      });
      const updated = await gateway.settlements.updateCrypto(merchantId(), usdc.id, {
        destination: ON_OPTIMISM_2,
      });
      expect(updated.destination).toBe(ON_OPTIMISM_2);
      expect(t.requests('PUT', /\/settlements\/crypto\//)).toHaveLength(2);
    });
  });

  describe('settlements.deleteCrypto', () => {
    test('deletes one settlement and leaves the others', async () => {
      const [usdc, eth] = await register();
      const result = await t.client().settlements.deleteCrypto(merchantId(), usdc.id);
      expect(result).toEqual({ id: usdc.id, deleted: true });
      expect(crypto()).toEqual([eth]);
    });

    test('deleting it again meets 404 on the first attempt: a NotFoundError, not retried', async () => {
      const [usdc] = await register();
      const gateway = t.client({ maxRetries: 2 });
      await gateway.settlements.deleteCrypto(merchantId(), usdc.id);
      const error = await gateway.settlements
        .deleteCrypto(merchantId(), usdc.id)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(t.requests('DELETE', /\/settlements\/crypto\//)).toHaveLength(2);
    });

    test.each([['connection'], ['5xx'], ['timeout']] as const)(
      'after an attempt that acted but whose answer was lost (%s), the retry meets 404 and the call resolves deleted: true',
      async (how) => {
        const [usdc, eth] = await register();
        const gateway = t.client({
          maxRetries: 2,
          timeoutMs: 300,
          fetch: loseFirstAnswer('DELETE', how),
        });
        const result = await gateway.settlements.deleteCrypto(merchantId(), usdc.id);
        expect(result).toEqual({ id: usdc.id, deleted: true });
        expect(t.requests('DELETE', /\/settlements\/crypto\//)).toHaveLength(2);
        // Exactly one deletion: the other settlement is still there.
        expect(crypto()).toEqual([eth]);
      },
    );

    test('a 404 after a 429 is a NotFoundError: the service did not act on the rate-limited attempt', async () => {
      t.mock.failNext({ status: 429, retryAfter: 0, match: { method: 'DELETE' } });
      const error = await t
        .client({ maxRetries: 2 })
        .settlements.deleteCrypto(merchantId(), 'cset_missing')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).not.toBeInstanceOf(RateLimitedError);
      expect(t.requests('DELETE', /\/settlements\/crypto\//)).toHaveLength(2);
    });

    test('a 5xx that persists is thrown once retries are spent, the settlement kept', async () => {
      const [usdc] = await register();
      t.mock.failNext({ status: 503, times: 2, match: { method: 'DELETE' } });
      await expect(
        t.client({ maxRetries: 1 }).settlements.deleteCrypto(merchantId(), usdc.id),
      ).rejects.toMatchObject({ status: 503 });
      expect(t.requests('DELETE', /\/settlements\/crypto\//)).toHaveLength(2);
      expect(crypto().map((s) => s.id)).toContain(usdc.id);
    });

    test('other 4xx after an unknown outcome are not turned into success', async () => {
      const [usdc] = await register();
      t.mock.failNext({ networkError: true, match: { method: 'DELETE' } });
      t.mock.failNext({ status: 409, code: 'version_conflict', match: { method: 'DELETE' } });
      const error = await t
        .client({ maxRetries: 2 })
        .settlements.deleteCrypto(merchantId(), usdc.id)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
    });
  });
});

describe('settlement calls validate before sending', () => {
  const t = useManagement('msw');
  const mid = 'mer_1';

  test.each([
    ['destination', { destination: '' }, /1 to 256 characters/],
    ['destination', { destination: `eip155:8453:${'a'.repeat(245)}` }, /1 to 256 characters/],
    ['destination', { destination: 'eip155:8453' }, /CAIP-10/],
    ['destination', { destination: 'not an account' }, /CAIP-10/],
    ['destination', {}, /required/],
    ['destination', { destination: 42 }, /string/],
    ['asset', { destination: ON_OPTIMISM, asset: USDC_OPTIMISM }, /not a field/],
  ])('updateCrypto refuses %s in %j', async (field, params, message) => {
    const issues = await rejectedBeforeSending(t.mock, () =>
      t.client().settlements.updateCrypto(mid, 'cset_1', params as never),
    );
    expect(issues[0]?.field).toBe(field);
    expect(issues[0]?.message).toMatch(message);
  });

  test.each([
    ['settlementId', 'x'.repeat(256), /at most 255 characters/],
    ['settlementId', '', /empty/],
    ['settlementId', '..', /empty/],
    ['settlementId', 'cset\r\n1', /control/],
  ])('updateCrypto and deleteCrypto refuse %s %j', async (field, settlementId, message) => {
    for (const call of [
      () => t.client().settlements.updateCrypto(mid, settlementId, { destination: ON_OPTIMISM }),
      () => t.client().settlements.deleteCrypto(mid, settlementId),
    ]) {
      const issues = await rejectedBeforeSending(t.mock, call);
      expect(issues[0]?.field).toBe(field);
      expect(issues[0]?.message).toMatch(message);
    }
  });

  test.each([['list'], ['updateCrypto'], ['deleteCrypto']] as const)(
    '%s refuses an empty, dot or control-character merchant id',
    async (method) => {
      for (const id of ['', '.', '..', 'mer\t1']) {
        const { settlements } = t.client();
        const call =
          method === 'list'
            ? () => settlements.list(id)
            : method === 'updateCrypto'
              ? () => settlements.updateCrypto(id, 'cset_1', { destination: ON_OPTIMISM })
              : () => settlements.deleteCrypto(id, 'cset_1');
        const issues = await rejectedBeforeSending(t.mock, call);
        expect(issues[0]?.field).toBe('merchantId');
      }
    },
  );

  test('the longest ids and destination are sent, percent-encoded', async () => {
    const settlementId = `a/${'x'.repeat(253)}`;
    const destination = `eip155:8453:${'a'.repeat(128)}`;
    await expect(
      t.client().settlements.updateCrypto('mer 1', settlementId, { destination }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const [request] = t.requests('PUT', /./);
    expect(request?.url).toContain(
      `/v1/merchants/mer%201/settlements/crypto/a%2F${'x'.repeat(253)}`,
    );
    expect(request?.body).toEqual({ destination });
  });
});
