// Why: one set of smoke checks for every runtime, node and edge alike.
import { STUB_API_KEY, STUB_MERCHANT_ID, startStubGateway } from './stub-gateway.mjs';

/** The mock service from the built testing entry when it has one, else the stub. */
export async function startSmokeServer() {
  const testing = await import('../dist/testing/index.js');
  if (typeof testing.createMockGateway === 'function') {
    const mock = testing.createMockGateway();
    const { url, close } = await mock.listen();
    return {
      kind: 'mock',
      url,
      close,
      apiKey: mock.credentials.apiKey,
      merchantId: mock.sample.merchantId,
      requests: () => mock.requests.length,
    };
  }
  const stub = await startStubGateway();
  return {
    kind: 'stub',
    url: stub.url,
    close: stub.close,
    apiKey: STUB_API_KEY,
    merchantId: STUB_MERCHANT_ID,
    requests: () => stub.count,
  };
}

/**
 * Drives payments.create, payments.get, merchants.create and a rejected create through one build
 * of the SDK against `server` ({ url, apiKey, merchantId, requests() }; requests() may return a
 * promise, as it does inside workerd). Self-contained, so the edge VM and the workerd bundle can
 * carry its source.
 */
export async function drive(sdk, server) {
  const assert = (condition, message) => {
    if (!condition) throw new Error(`assertion failed: ${message}`);
  };
  const { MerchantGateway, RequestValidationError } = sdk;
  const gateway = new MerchantGateway({ baseUrl: server.url, apiKey: server.apiKey });

  const first = await server.requests();
  const created = await gateway.payments.create({
    merchantId: server.merchantId,
    amount: { unit: 'iso4217/USD', value: '100' },
    referenceId: `smoke-${Date.now()}`,
  });
  assert(typeof created.paymentId === 'string' && created.paymentId !== '', 'paymentId');
  assert(typeof created.gatewayUrl === 'string', 'gatewayUrl');
  assert(typeof created.isFinal === 'boolean', 'isFinal');
  assert((await server.requests()) === first + 1, 'the create reached the server over HTTP');

  const view = await gateway.payments.get(created.paymentId);
  assert(typeof view.status === 'string', 'view.status');
  assert(typeof view.amount?.value === 'string', 'view.amount.value');

  const merchant = await gateway.merchants.create({
    merchantName: 'Smoke Shop',
    merchantEmail: 'smoke@shop.example',
  });
  assert(typeof merchant.id === 'string' && merchant.name === 'Smoke Shop', 'merchant');

  const before = await server.requests();
  const error = await gateway.payments
    .create({
      merchantId: server.merchantId,
      amount: { unit: 'USD', value: '1' },
      referenceId: 'x',
    })
    .then(
      () => undefined,
      (e) => e,
    );
  assert(error instanceof RequestValidationError, `a RequestValidationError, got ${error}`);
  assert((await server.requests()) === before, 'nothing is sent for invalid input');
}
