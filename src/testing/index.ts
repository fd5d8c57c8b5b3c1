/**
 * `merchant-gateway/testing`: an in-memory, stateful mock of the gateway service for tests.
 * `mock.fetch` and `mock.listen()` need nothing more; `mock.handlers` loads the optional peer
 * dependency `msw` on first read. The main entry never loads msw.
 */
export { createMockGateway } from './mock-gateway';
export type {
  FailNextOptions,
  FaultMatch,
  KnownPaymentStatus,
  LegacyListPaymentStatus,
  ListenOptions,
  ListStatus,
  MockCredentials,
  MockGateway,
  MockGatewayOptions,
  MockMerchant,
  MockPayment,
  MockSample,
  MockServer,
  PaymentStatus,
  RecordedRequest,
} from './types';
