/** The service's webhook rules (facts: spec/service-webhooks.md), shared by the SDK and the mock. */

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

/** The payload contract's version the events are documented at (unrelated to the REST versions). */
export const WEBHOOK_API_VERSION = '2026-05-18';

// The secret's and the tolerance's rules are in webhook-secret.ts: the client's `Webhooks` checks
// secrets at construction and imports that file alone, so the event types load with the receiver.
export { WEBHOOK_TOLERANCE_SECONDS, webhookSecretBase64 } from './webhook-secret';
