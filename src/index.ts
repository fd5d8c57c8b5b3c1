/**
 * merchant-gateway: a typed SDK for the merchant payment gateway.
 * @packageDocumentation
 */

export type {
  AfterResponseHook,
  AfterResponseState,
  BeforeRequestHook,
  BeforeRequestState,
} from 'ky';
export type { ClientOptions } from './client';
export { MerchantGateway } from './client';
export type { ErrorCode, KnownErrorCode } from './core/api-error';
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  ServerError,
} from './core/api-error';
export type { WithResponse } from './core/api-promise';
export { ApiPromise } from './core/api-promise';
export type { ValidationIssue } from './core/errors';
export {
  ConfigurationError,
  ConnectionError,
  MerchantGatewayError,
  PaginationError,
  PollTimeoutError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from './core/errors';
export type { Logger, LogLevel } from './core/logger';
export type { PageSource, ToArrayOptions } from './core/page-promise';
export { PagePromise } from './core/page-promise';
export type { CreateRequestOptions, RequestHooks, RequestOptions } from './core/transport';
export type { PollOptions } from './polling';
export type { LegacyPayments } from './resources/legacy-payments';
export type { Merchants } from './resources/merchants';
export type { Payments } from './resources/payments';
export type { Settlements } from './resources/settlements';
export type {
  LegacyPayment,
  LegacyPaymentListParams,
  LegacyPaymentsPage,
  ListPaymentStatus,
  MerchantPayment,
  MerchantPaymentsPage,
  PaymentListParams,
} from './schemas/lists';
export {
  LegacyPaymentListParamsSchema,
  LegacyPaymentSchema,
  LegacyPaymentsPageSchema,
  LIST_PAYMENT_STATUSES,
  MerchantPaymentSchema,
  MerchantPaymentsPageSchema,
  PaymentListParamsSchema,
} from './schemas/lists';
export type {
  FiatSettlement,
  FiatSettlementStatus,
  Merchant,
  MerchantCreateParams,
  MerchantStatus,
  MerchantUpdateParams,
  MerchantWithSettlements,
} from './schemas/merchants';
export {
  FiatSettlementSchema,
  MerchantCreateParamsSchema,
  MerchantSchema,
  MerchantUpdateParamsSchema,
  MerchantWithSettlementsSchema,
} from './schemas/merchants';
export type {
  PaymentCreated,
  PaymentCreateParams,
  PaymentStatus,
  PaymentView,
} from './schemas/payments';
export {
  FINAL_PAYMENT_STATUSES,
  PaymentCreatedSchema,
  PaymentCreateParamsSchema,
  PaymentViewSchema,
} from './schemas/payments';
export type { CryptoSettlement, CryptoSettlementParams } from './schemas/settlements';
export {
  CryptoSettlementListParamsSchema,
  CryptoSettlementParamsSchema,
  CryptoSettlementSchema,
} from './schemas/settlements';
export { VERSION } from './version';
