/** The service's payment statuses and payment body rules, shared by the SDK and the mock. */

/** Every status the service documents for a payment. */
export const PAYMENT_STATUSES = [
  'requires_action',
  'processing',
  'succeeded',
  'failed',
  'expired',
  'cancelled',
] as const;
/** A status the service documents (the SDK's `PaymentStatus` also admits ones to come). */
export type KnownPaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * The statuses both replacement payment lists show and filter on. `cancelled` comes with the
 * 2026-02-19 contract; a service on 2026-02-18 shows a cancelled payment as `failed`.
 */
export const LIST_PAYMENT_STATUSES = PAYMENT_STATUSES;
/** The statuses both replacement payment lists show and filter on. */
export type ListPaymentStatus = (typeof LIST_PAYMENT_STATUSES)[number];

/** The five statuses the deprecated list shows and filters on: it never gained `cancelled`. */
export const LEGACY_LIST_PAYMENT_STATUSES = [
  'requires_action',
  'processing',
  'succeeded',
  'failed',
  'expired',
] as const;
/** The statuses the deprecated list shows and filters on. */
export type LegacyListPaymentStatus = (typeof LEGACY_LIST_PAYMENT_STATUSES)[number];

/** Statuses after which a payment no longer changes. */
export const FINAL_PAYMENT_STATUSES = ['succeeded', 'failed', 'expired', 'cancelled'] as const;

/** The documented statuses a payment can still leave. */
export const OPEN_PAYMENT_STATUSES = ['requires_action', 'processing'] as const;

/** Payment amount unit: `iso4217/<3-letter currency code>`. */
export const FIAT_UNIT_PATTERN = /^iso4217\/[A-Z]{3}$/;

/** A non-negative integer amount in minor units, as a string of digits. */
export const MINOR_UNITS_PATTERN = /^\d+$/;
