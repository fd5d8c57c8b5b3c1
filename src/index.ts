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
// The buyer's surface and the webhooks' surface, each written once and shared with its own entry
// (merchant-gateway/buyer, merchant-gateway/webhooks).
export * from './buyer-api';
export type { ClientOptions } from './client';
export { MerchantGateway } from './client';
export { PaginationError, PollTimeoutError } from './core/errors/base';
export type { CreateRequestOptions } from './core/http/transport';
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
export type { LegacyPayments } from './resources/legacy-payments';
export type { Merchants } from './resources/merchants';
export type { PartnerPayments } from './resources/partner-payments';
export type { Payments } from './resources/payments';
export type { Refunds } from './resources/refunds';
export type { Settlements } from './resources/settlements';
export * from './webhooks/api';
// Receiving the service's webhooks (also alone, with the schemas: merchant-gateway/webhooks).
// The schemas stay in that entry: here the verifier and parser load on first use.

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
export type { MerchantDeletion, MerchantListParams, MerchantsPage } from './schemas/merchant-list';
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
  PaymentStatusParams,
} from './schemas/payment-status';
export {
  PaymentActionParamsSchema,
  PaymentCancellationSchema,
  PaymentDetailsSchema,
  PaymentDetailsSettlementSchema,
  PaymentStatusParamsSchema,
} from './schemas/payment-status';
export type {
  CreatedPayment,
  OpenPaymentStatus,
  PaymentCheckoutParams,
  PaymentCreated,
  PaymentCreateParams,
} from './schemas/payments';
export {
  isOpenPaymentStatus,
  OPEN_PAYMENT_STATUSES,
  PaymentCheckoutParamsSchema,
  PaymentCreatedSchema,
  PaymentCreateParamsSchema,
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
