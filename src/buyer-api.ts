/**
 * The buyer's calls' public surface that both `merchant-gateway` and `merchant-gateway/buyer`
 * export, written once: each entry re-exports this list and adds its own names.
 */
// The checkout route's options and handlers (`buyer.route()`).
export type {
  CheckoutNodeRequest,
  CheckoutNodeResponse,
  CheckoutRoute,
  CheckoutRouteCall,
  CheckoutRouteOperation,
  CheckoutRouteOptions,
} from './checkout/types';
export type { WithResponse } from './core/api-promise';
export { ApiPromise } from './core/api-promise';
export type { ErrorCode, KnownErrorCode } from './core/errors/api-error';
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  ServerError,
} from './core/errors/api-error';
export type { ValidationIssue } from './core/errors/base';
export {
  ConfigurationError,
  ConnectionError,
  MerchantGatewayError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from './core/errors/base';
export type { PayFailure } from './core/errors/pay-error';
export { PayError } from './core/errors/pay-error';
export type { RequestHooks, RequestOptions } from './core/http/transport';
export type { LogData, Logger, LogLevel } from './core/logger';
export type { Buyer } from './resources/buyer';
export type { BuyerAccount, BuyerPayParams, TypedDataToSign } from './resources/buyer-pay';
// What a client hands its resources: named in their constructors' declarations, so exported for
// declaration emit (a `const p = gateway.payments` in a user's .d.ts); not built by users.
export type { BaseContext, ResourceContext } from './resources/resource';
export type {
  BuildAction,
  BuildPayload,
  BuyerAction,
  BuyerPollParams,
  CollectData,
  CollectDataField,
  CollectDataFieldType,
  ConfirmPaymentParams,
  FetchActionsParams,
  FetchActionsResult,
  GatewayCancellation,
  PaymentOption,
  PaymentOptions,
  PaymentOptionsParams,
  WalletRpcAction,
  WalletRpcRequest,
} from './schemas/buyer';
export {
  BuildActionSchema,
  BuildPayloadSchema,
  BuyerActionSchema,
  BuyerPollParamsSchema,
  CollectDataFieldSchema,
  CollectDataSchema,
  ConfirmPaymentParamsSchema,
  FetchActionsParamsSchema,
  FetchActionsResultSchema,
  GatewayCancellationSchema,
  isBuildAction,
  isWalletRpcAction,
  PaymentOptionSchema,
  PaymentOptionsParamsSchema,
  PaymentOptionsSchema,
  WalletRpcActionSchema,
  WalletRpcRequestSchema,
} from './schemas/buyer';
export type {
  Amount,
  AmountDisplay,
  KnownPaymentStatus,
  PaymentBuyer,
  PaymentFailureCode,
  PaymentInformation,
  PaymentStatus,
  PaymentStatusResult,
  PaymentView,
  PaymentViewMerchant,
} from './schemas/payment-view';
export {
  AmountDisplaySchema,
  AmountSchema,
  FINAL_PAYMENT_STATUSES,
  PaymentBuyerSchema,
  PaymentInformationSchema,
  PaymentStatusResultSchema,
  PaymentViewMerchantSchema,
  PaymentViewSchema,
} from './schemas/payment-view';
export { VERSION } from './version';
