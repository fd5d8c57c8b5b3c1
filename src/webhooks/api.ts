/**
 * Receiving webhooks: the public surface that both `merchant-gateway` and
 * `merchant-gateway/webhooks` export, written once: each entry re-exports this list and adds its
 * own names.
 */
export type { PaymentWebhookEventType } from '../rules/webhooks';
export type { MemoryGuardStoreOptions } from './create-guard';
export type { WebhookVerificationReason } from './errors';
export { WebhookVerificationError } from './errors';
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
} from './events';
export type {
  GuardableEvent,
  WebhookGuard,
  WebhookGuardKey,
  WebhookGuardOptions,
  WebhookGuardOutcome,
  WebhookGuardSession,
  WebhookGuardState,
  WebhookGuardStore,
} from './guard';
export type {
  PgPoolClientLike,
  PgPoolLike,
  PgQueryable,
  PostgresGuardContext,
  PostgresGuardStore,
  PostgresGuardStoreOptions,
} from './postgres';
export type { WebhookBody, WebhookHeaders, WebhooksOptions } from './webhooks';
export { Webhooks } from './webhooks';
