import type { ClientOptions, PaymentCreated } from 'merchant-gateway';
import { createMockGateway, type MockGatewayOptions } from 'merchant-gateway/testing';
import { afterEach } from 'vitest';
import { gateway as client, useMsw } from '../../support';

export { BASE_URL } from '../../support';

/** A fresh mock served by msw for one test file, reset after each test. */
export function useMock(options: MockGatewayOptions = {}) {
  const mock = createMockGateway(options);
  const server = useMsw(...mock.handlers);
  afterEach(() => mock.reset());
  const gateway = (overrides: ClientOptions = {}) =>
    client({ apiKey: mock.credentials.apiKey, merchantId: mock.sample.merchantId, ...overrides });
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
