/**
 * merchant-gateway/webhooks: receiving the service's webhooks alone, for a receiver that holds no
 * API key (an edge function, a Worker, a queue consumer): verification, the event types and
 * their schemas, without the client.
 * @packageDocumentation
 */

export type { ValidationIssue } from '../core/errors/base';
export { ConfigurationError, MerchantGatewayError } from '../core/errors/base';
export type { LogData, Logger } from '../core/logger';
export { WEBHOOK_SECRET_PREFIX } from '../rules/webhook-secret';
// Which snapshot stages each event type carries: a sender (the command line's relay) builds to it.
export type { WebhookStageName } from '../rules/webhooks';
export { IMPLIED_STAGES } from '../rules/webhooks';
export * from './api';

export type { MemoryGuardStore } from './create-guard';
export { createWebhookGuard, memoryStore } from './create-guard';

export {
  isPaymentWebhookEvent,
  PAYMENT_WEBHOOK_EVENT_TYPES,
  PaymentCancelledEventSchema,
  PaymentCreatedEventSchema,
  PaymentExpiredEventSchema,
  PaymentFailedEventSchema,
  PaymentProcessingEventSchema,
  PaymentSettledEventSchema,
  PaymentSnapshotSchema,
  PaymentSucceededEventSchema,
  PaymentWebhookEventSchema,
  SnapshotCancelledSchema,
  SnapshotExpiredSchema,
  SnapshotFailedSchema,
  SnapshotProcessingSchema,
  SnapshotSettledSchema,
  SnapshotSuccessSchema,
  WebhookAmountSchema,
  WebhookEventSchema,
  WebhookFeePercentSchema,
  WebhookFeeSchema,
} from './events';
export type { MemoryGuardStoreStats } from './guard';

export { guardTableSql, postgresStore } from './postgres';
export type { SignInput } from './signature';
// The one signer, for senders of the service's webhooks (the command line's relay).
export { signWebhook } from './signature';
