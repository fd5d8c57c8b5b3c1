import { type ClientOptions, MerchantGateway, type PaymentCreated } from 'merchant-gateway';
import { createMockGateway, type MockGatewayOptions } from 'merchant-gateway/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const BASE_URL = 'https://gateway.test';

/** A fresh mock served by msw for one test file, reset after each test. */
export function useMock(options: MockGatewayOptions = {}) {
  const mock = createMockGateway(options);
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    mock.reset();
  });
  afterAll(() => server.close());
  const gateway = (overrides: ClientOptions = {}) =>
    new MerchantGateway({
      baseUrl: BASE_URL,
      apiKey: mock.credentials.apiKey,
      merchantId: mock.sample.merchantId,
      ...overrides,
    });
  return {
    mock,
    server,
    gateway,
    /** Creates a payment through the SDK, awaiting its buyer. */
    create: (referenceId = 'order-1'): Promise<PaymentCreated> =>
      gateway().payments.create({ amount: { unit: 'iso4217/USD', value: '1250' }, referenceId }),
    /** Requests the mock received on `path` (from `/v1/` on) with `method`. */
    requestsTo: (method: string, path: string) =>
      mock.requests.filter((r) => r.method === method && r.path === path),
  };
}
