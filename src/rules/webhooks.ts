/** The service's webhook rules (docs/webhooks.md), shared by the SDK and the mock. */

/** The seven payment event types the service documents, in a payment's lifecycle order. */
export const PAYMENT_WEBHOOK_EVENT_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payment.settled',
] as const;
/** A payment event type the service documents (others may come and must not break a receiver). */
export type PaymentWebhookEventType = (typeof PAYMENT_WEBHOOK_EVENT_TYPES)[number];

/** A payment snapshot's stage keys: `null` until the payment reaches that stage. */
export type WebhookStageName =
  | 'processing'
  | 'success'
  | 'failed'
  | 'cancelled'
  | 'expired'
  | 'settled';

/**
 * The stages each event type implies (docs/webhooks.md, "The events"): set in every event of that
 * type, so the SDK types them non-null and refuses an event without one, and the mock never sends
 * one without them. (`payment.failed` and `payment.expired` also carry `processing` when the
 * buyer had committed, which their type does not imply.)
 */
export const IMPLIED_STAGES = {
  'payment.created': [],
  'payment.processing': ['processing'],
  'payment.succeeded': ['processing', 'success'],
  'payment.failed': ['failed'],
  'payment.expired': ['expired'],
  'payment.cancelled': ['cancelled'],
  'payment.settled': ['processing', 'success', 'settled'],
} as const satisfies Record<PaymentWebhookEventType, readonly WebhookStageName[]>;

/** The payload contract's version the events are documented at (unrelated to the REST versions). */
export const WEBHOOK_API_VERSION = '2026-05-18';

// The secret's and the tolerance's rules are in webhook-secret.ts: the client's `Webhooks` checks
// secrets at construction and imports that file alone, so the event types load with the receiver.
export { WEBHOOK_TOLERANCE_SECONDS, webhookSecretBase64 } from './webhook-secret';
