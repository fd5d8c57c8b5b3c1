// The contract's env defaults, for the one option whose env variable was once not read:
// MERCHANT_GATEWAY_MERCHANT_ID gives `new MerchantGateway()` its default Merchant-Id (issue 37.7).
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';

const mock = createMockGateway();
let server: MockServer;

beforeAll(async () => {
  server = await mock.listen();
});
afterAll(() => server.close());
afterEach(() => {
  vi.unstubAllEnvs();
});

const amount = { unit: 'iso4217/USD', value: '500' } as const;

describe('MERCHANT_GATEWAY_MERCHANT_ID', () => {
  test('is the default merchant of a client built from the environment alone', async () => {
    vi.stubEnv('MERCHANT_GATEWAY_BASE_URL', server.url);
    vi.stubEnv('MERCHANT_GATEWAY_API_KEY', mock.credentials.apiKey);
    vi.stubEnv('MERCHANT_GATEWAY_MERCHANT_ID', mock.sample.merchantId);
    const gateway = new MerchantGateway();

    const created = await gateway.payments.create({ amount, referenceId: 'env-merchant-1' });

    expect(mock.getPayment(created.paymentId)?.merchantId).toBe(mock.sample.merchantId);
  });

  test('gives way to the merchantId option', async () => {
    const other = await new MerchantGateway({
      baseUrl: server.url,
      apiKey: mock.credentials.apiKey,
    }).merchants.create({ merchantName: 'Option Wins', merchantEmail: 'o@wins.example' });
    vi.stubEnv('MERCHANT_GATEWAY_MERCHANT_ID', mock.sample.merchantId);
    const gateway = new MerchantGateway({
      baseUrl: server.url,
      apiKey: mock.credentials.apiKey,
      merchantId: other.id,
    });

    const created = await gateway.payments.create({ amount, referenceId: 'env-merchant-2' });

    expect(mock.getPayment(created.paymentId)?.merchantId).toBe(other.id);
  });

  test('unset or empty, a payment call without a merchant is refused before sending', async () => {
    vi.stubEnv('MERCHANT_GATEWAY_MERCHANT_ID', '');
    const gateway = new MerchantGateway({ baseUrl: server.url, apiKey: mock.credentials.apiKey });
    const before = mock.requests.length;

    await expect(
      gateway.payments.create({ amount, referenceId: 'env-merchant-3' }),
    ).rejects.toThrow(/merchantId/);
    expect(mock.requests.length).toBe(before);
  });
});
