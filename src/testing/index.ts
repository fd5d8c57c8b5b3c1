/**
 * `merchant-gateway/testing`: an in-memory, stateful mock of the gateway service for tests.
 * `mock.fetch` and `mock.listen()` need nothing more; `mock.handlers` loads the optional peer
 * dependency `msw` on first read. The main entry never loads msw.
 */
export { createMockGateway } from './mock-gateway';
export { MockPayError } from './pay-error';
export type {
  FailNextOptions,
  FaultMatch,
  KnownPaymentStatus,
  LegacyListPaymentStatus,
  ListenOptions,
  ListStatus,
  MockAdvanceOptions,
  MockBuyerAccount,
  MockCredentials,
  MockFee,
  MockGateway,
  MockGatewayOptions,
  MockMerchant,
  MockPayment,
  MockPayOptions,
  MockPayResult,
  MockSample,
  MockServer,
  MockTypedData,
  MockWebhookAttempt,
  MockWebhookChaos,
  MockWebhookDelivery,
  MockWebhookEndpoint,
  MockWebhookEndpointInput,
  MockWebhooks,
  PaymentStatus,
  RecordedRequest,
} from './types';
