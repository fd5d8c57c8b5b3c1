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

/** How far a delivery's timestamp may be from the receiver's clock, either way, by default. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';

/**
 * The base64 text of an endpoint secret (after `whsec_`; a bare base64 secret is taken too, as
 * the reference libraries take it), or `undefined` when it is not base64 of at least one byte.
 */
export function webhookSecretBase64(secret: string): string | undefined {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(text) && text.length % 4 !== 1 ? text : undefined;
}
