/**
 * `merchant-gateway/testing`: an in-memory, stateful mock of the gateway service for tests.
 * It needs the optional peer dependency `msw`; the main entry never loads it.
 */
export { createMockGateway } from './mock-gateway';
export type {
  FailNextOptions,
  FaultMatch,
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
