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
// The checkout route's options and handlers (`buyer.route()`).
export type {
  CheckoutNodeRequest,
  CheckoutNodeResponse,
  CheckoutRoute,
  CheckoutRouteCall,
  CheckoutRouteOperation,
  CheckoutRouteOptions,
} from './checkout/types';
export type { ClientOptions } from './client';
export { MerchantGateway } from './client';
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
  PaginationError,
  PollTimeoutError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from './core/errors/base';
export type { PayFailure } from './core/errors/pay-error';
export { PayError } from './core/errors/pay-error';
export type { CreateRequestOptions, RequestHooks, RequestOptions } from './core/http/transport';
export type { LogData, Logger, LogLevel } from './core/logger';
export type { PageSource, ToArrayOptions } from './core/page-promise';
export { PagePromise } from './core/page-promise';
export type {
  TelemetryAttributes,
  TelemetryContext,
  TelemetryHistogram,
  TelemetryMeter,
  TelemetryMeterProvider,
  TelemetryOptions,
  TelemetrySpan,
  TelemetryTracer,
  TelemetryTracerProvider,
  TelemetryUpDownCounter,
  TelemetryValue,
} from './core/telemetry/option';
export type { FollowerIngestOutcome, IngestibleEvent } from './follow/ingest';
export type { FinalPaymentStatusResult, FollowReadError, PollOptions } from './follow/single';
export type {
  FollowedPayment,
  FollowerErrorInfo,
  PaymentFollower,
  PaymentFollowerCheckpoint,
  PaymentFollowerCheckpointEntry,
  PaymentFollowerOptions,
  PaymentStatusChange,
  PaymentStatusChangeSource,
} from './follow/types';
export type { Buyer } from './resources/buyer';
export type { BuyerAccount, BuyerPayParams, TypedDataToSign } from './resources/buyer-pay';
export type { LegacyPayments } from './resources/legacy-payments';
export type { Merchants } from './resources/merchants';
export type { PartnerPayments } from './resources/partner-payments';
export type { Payments } from './resources/payments';
export type { Refunds } from './resources/refunds';
// What a client hands its resources: named in their constructors' declarations, so exported for
// declaration emit (a `const p = gateway.payments` in a user's .d.ts); not built by users.
export type { BaseContext, ResourceContext } from './resources/resource';
export type { Settlements } from './resources/settlements';
// Receiving the service's webhooks (also alone, with the schemas: merchant-gateway/webhooks).
// The schemas stay in that entry: here the verifier and parser load on first use.
export type { PaymentWebhookEventType } from './rules/webhooks';
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
  LegacyPayment,
  LegacyPaymentListParams,
  LegacyPaymentsPage,
  LegacyPaymentsStats,
  ListAmount,
  ListPaymentStatus,
  MerchantPayment,
  MerchantPaymentMerchant,
  MerchantPaymentsPage,
  MerchantPaymentsStats,
  PaymentFees,
  PaymentListParams,
  PaymentSettlement,
  PaymentTransaction,
  Revenue,
} from './schemas/lists';
export {
  LEGACY_LIST_PAYMENT_STATUSES,
  LegacyPaymentListParamsSchema,
  LegacyPaymentSchema,
  LegacyPaymentsPageSchema,
  LegacyPaymentsStatsSchema,
  LIST_PAYMENT_STATUSES,
  ListAmountSchema,
  MerchantPaymentMerchantSchema,
  MerchantPaymentSchema,
  MerchantPaymentsPageSchema,
  MerchantPaymentsStatsSchema,
  PAYMENT_STATUSES,
  PaymentFeesSchema,
  PaymentListParamsSchema,
  PaymentSettlementSchema,
  PaymentTransactionSchema,
  RevenueSchema,
} from './schemas/lists';
export type {
  MerchantDeletion,
  MerchantListParams,
  MerchantsPage,
} from './schemas/merchant-list';
export {
  MERCHANT_LIST_STATUSES,
  MerchantDeletionSchema,
  MerchantListParamsSchema,
  MerchantsPageSchema,
} from './schemas/merchant-list';
export type {
  FiatSettlement,
  FiatSettlementStatus,
  Merchant,
  MerchantCreateParams,
  MerchantSettlements,
  MerchantStatus,
  MerchantUpdateParams,
  MerchantWithSettlements,
} from './schemas/merchants';
export {
  FiatSettlementSchema,
  MerchantCreateParamsSchema,
  MerchantSchema,
  MerchantSettlementsSchema,
  MerchantUpdateParamsSchema,
  MerchantWithSettlementsSchema,
} from './schemas/merchants';
export type { PartnerPaymentListParams } from './schemas/partner-payments';
export { PartnerPaymentListParamsSchema } from './schemas/partner-payments';
export type {
  PaymentActionParams,
  PaymentCancellation,
  PaymentDetails,
  PaymentDetailsSettlement,
  PaymentFailureCode,
  PaymentInformation,
  PaymentStatusParams,
  PaymentStatusResult,
} from './schemas/payment-status';
export {
  PaymentActionParamsSchema,
  PaymentCancellationSchema,
  PaymentDetailsSchema,
  PaymentDetailsSettlementSchema,
  PaymentInformationSchema,
  PaymentStatusParamsSchema,
  PaymentStatusResultSchema,
} from './schemas/payment-status';
export type {
  Amount,
  AmountDisplay,
  CreatedPayment,
  KnownPaymentStatus,
  OpenPaymentStatus,
  PaymentBuyer,
  PaymentCheckoutParams,
  PaymentCreated,
  PaymentCreateParams,
  PaymentStatus,
  PaymentView,
  PaymentViewMerchant,
} from './schemas/payments';
export {
  AmountDisplaySchema,
  AmountSchema,
  FINAL_PAYMENT_STATUSES,
  isOpenPaymentStatus,
  OPEN_PAYMENT_STATUSES,
  PaymentBuyerSchema,
  PaymentCheckoutParamsSchema,
  PaymentCreatedSchema,
  PaymentCreateParamsSchema,
  PaymentViewMerchantSchema,
  PaymentViewSchema,
} from './schemas/payments';
export type { Refund, RefundCreateParams } from './schemas/refunds';
export { RefundCreateParamsSchema, RefundSchema } from './schemas/refunds';
export type {
  CryptoSettlementDeletion,
  CryptoSettlementUpdateParams,
  SettlementList,
} from './schemas/settlement-management';
export {
  CryptoSettlementDeletionSchema,
  CryptoSettlementUpdateParamsSchema,
  SettlementListSchema,
} from './schemas/settlement-management';
export type { CryptoSettlement, CryptoSettlementParams } from './schemas/settlements';
export {
  CryptoSettlementListParamsSchema,
  CryptoSettlementParamsSchema,
  CryptoSettlementSchema,
} from './schemas/settlements';
export { VERSION } from './version';
export type { MemoryGuardStoreOptions } from './webhooks/create-guard';
export type { WebhookVerificationReason } from './webhooks/errors';
export { WebhookVerificationError } from './webhooks/errors';
export type {
  PaymentCancelledEvent,
  PaymentCreatedEvent,
  PaymentExpiredEvent,
  PaymentFailedEvent,
  PaymentProcessingEvent,
  PaymentSettledEvent,
  PaymentSnapshot,
  PaymentSucceededEvent,
  PaymentWebhookEvent,
  SnapshotCancelled,
  SnapshotExpired,
  SnapshotFailed,
  SnapshotProcessing,
  SnapshotSettled,
  SnapshotSuccess,
  UnknownWebhookData,
  UnknownWebhookEvent,
  WebhookAmount,
  WebhookEvent,
  WebhookFee,
  WebhookFeePercent,
} from './webhooks/events';
export type {
  GuardableEvent,
  WebhookGuard,
  WebhookGuardKey,
  WebhookGuardOptions,
  WebhookGuardOutcome,
  WebhookGuardSession,
  WebhookGuardState,
  WebhookGuardStore,
} from './webhooks/guard';
export type {
  PgPoolClientLike,
  PgPoolLike,
  PgQueryable,
  PostgresGuardContext,
  PostgresGuardStore,
  PostgresGuardStoreOptions,
} from './webhooks/postgres';
export type { WebhookBody, WebhookHeaders, WebhooksOptions } from './webhooks/webhooks';
export { Webhooks } from './webhooks/webhooks';
