// An integrator's own test, with merchant-gateway/testing and msw: no network, no real service.
// In your project this would be a vitest/jest file; here it is a self-running script using
// node:assert, so `npx tsx examples/testing.ts` runs it.
import assert from 'node:assert/strict';
import { MerchantGateway, ServerError } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { setupServer } from 'msw/node';

// The code under test: your checkout, which takes a gateway client.
async function checkout(gateway: MerchantGateway, merchantId: string, orderId: string) {
  const payment = await gateway.payments.create(
    { merchantId, amount: { unit: 'iso4217/USD', value: '1999' }, referenceId: orderId },
    { idempotencyKey: orderId },
  );
  return { redirectTo: payment.gatewayUrl, paymentId: payment.paymentId };
}

const mock = createMockGateway({ pollInMs: 100 });
const server = setupServer(...mock.handlers); // answers any https://…/v1/… URL
server.listen({ onUnhandledFrame: 'error' });
const gateway = new MerchantGateway({
  baseUrl: 'https://gateway.test',
  apiKey: mock.credentials.apiKey,
});

async function test(name: string, body: () => Promise<void>): Promise<void> {
  mock.reset(); // every test starts from the seeded state
  await body();
  console.log(`ok - ${name}`);
}

try {
  await test('checkout creates a payment and sends the idempotency key', async () => {
    const result = await checkout(gateway, mock.sample.merchantId, 'order-77');
    assert.match(result.redirectTo, /^https?:\/\//);
    assert.equal(mock.getPayment(result.paymentId)?.referenceId, 'order-77');
    const sent = mock.requests.find((r) => r.method === 'POST' && r.path === '/v1/payments');
    assert.equal(sent?.headers['idempotency-key'], 'order-77');
    assert.equal(sent?.headers['api-key'], '***'); // recorded requests mask credentials
  });

  await test('a paid payment reads as succeeded', async () => {
    const { paymentId } = await checkout(gateway, mock.sample.merchantId, 'order-78');
    mock.setPaymentStatus(paymentId, 'succeeded');
    const view = await gateway.payments.waitForFinal(paymentId, { timeoutMs: 2_000 });
    assert.equal(view.status, 'succeeded');
  });

  await test('with a key, a 502 is retried and only one payment is created', async () => {
    mock.failNext({ status: 502, match: { method: 'POST', path: '/v1/payments' } });
    const before = mock.payments(mock.sample.merchantId).length;
    await checkout(gateway, mock.sample.merchantId, 'order-79');
    assert.equal(mock.payments(mock.sample.merchantId).length, before + 1);
  });

  await test('an outage surfaces as ServerError', async () => {
    mock.failNext({ status: 500, times: 3 });
    await assert.rejects(checkout(gateway, mock.sample.merchantId, 'order-80'), ServerError);
  });

  console.log('All tests passed.');
} finally {
  server.close();
}
