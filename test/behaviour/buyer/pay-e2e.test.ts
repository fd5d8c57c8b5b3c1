// gateway.buyer.pay end to end: a viem account pays a payment in the mock over real HTTP, the way
// a wallet does (options → sign the EIP-3009 authorization → confirm), and the payment succeeds.
// Needs the mock's buyer routes (issue 27, written beside this SDK side).
import { MerchantGateway } from 'merchant-gateway';
import { BuyerClient } from 'merchant-gateway/buyer';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const mock = createMockGateway({ pollInMs: 100 });
let server: MockServer;

beforeAll(async () => {
  server = await mock.listen();
});
afterAll(async () => {
  await server.close();
});

/** A merchant that settles USDC on Base, and a payment of USD 12.50 to it. */
async function openPayment(gateway: MerchantGateway, referenceId: string) {
  const merchant = await gateway.merchants.create({
    merchantName: 'Buyer E2E Coffee',
    merchantEmail: 'e2e@coffee.example',
  });
  await gateway.settlements.createCrypto(merchant.id, [
    { asset: USDC_BASE, destination: 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb' },
  ]);
  return gateway.payments.create({
    merchantId: merchant.id,
    amount: { unit: 'iso4217/USD', value: '1250' },
    referenceId,
  });
}

describe('gateway.buyer.pay against the mock', { timeout: 20_000 }, () => {
  test('a viem account pays a USDC-on-Base payment, which then succeeds with the buyer recorded', async () => {
    const gateway = new MerchantGateway({ baseUrl: server.url, apiKey: mock.credentials.apiKey });
    const payment = await openPayment(gateway, 'e2e-pay-1');
    const account = privateKeyToAccount(generatePrivateKey());

    const confirmed = await gateway.buyer.pay(payment.paymentId, {
      account,
      chainId: 'eip155:8453',
    });
    expect(['processing', 'succeeded']).toContain(confirmed.status);

    const final = await gateway.payments.waitForFinal(payment, { timeoutMs: 10_000 });
    expect(final.status).toBe('succeeded');
    expect(final.info?.txId).toMatch(/^test:pay_[A-Za-z0-9]+$/);
    const view = await gateway.buyer.get(payment.paymentId);
    expect(view.buyer?.accountCaip10.toLowerCase()).toBe(
      `eip155:8453:${account.address}`.toLowerCase(),
    );
  });

  test('the buyer entry pays with the app scheme, without a chain named', async () => {
    const gateway = new MerchantGateway({ baseUrl: server.url, apiKey: mock.credentials.apiKey });
    const payment = await openPayment(gateway, 'e2e-pay-2');
    const buyer = new BuyerClient({
      baseUrl: server.url,
      appId: mock.credentials.appId,
      clientId: mock.credentials.clientId,
    });
    const account = privateKeyToAccount(generatePrivateKey());
    await buyer.pay(payment.paymentId, { account });
    let status = await buyer.status(payment.paymentId, { maxPollMs: 5_000 });
    while (!status.isFinal) status = await buyer.status(payment.paymentId, { maxPollMs: 5_000 });
    expect(status.status).toBe('succeeded');
  });

  test('a payment paid once is not paid twice', async () => {
    const gateway = new MerchantGateway({ baseUrl: server.url, apiKey: mock.credentials.apiKey });
    const payment = await openPayment(gateway, 'e2e-pay-3');
    const account = privateKeyToAccount(generatePrivateKey());
    await gateway.buyer.pay(payment.paymentId, { account, chainId: 8453 });
    await gateway.payments.waitForFinal(payment, { timeoutMs: 10_000 });
    await expect(
      gateway.buyer.pay(payment.paymentId, { account, chainId: 8453 }),
    ).rejects.toThrow();
  });
});
