/** Bounds on the ids and hold times a caller passes: the same for every method that takes one. */
import type { Bounds } from './text';

/**
 * An id in a path (`merchantId`, `paymentId`, a settlement id) or the `Merchant-Id` header: 1 to
 * 255 characters (code points). A 10 MB id would otherwise go out as a 10 MB URL or header.
 */
export const ID_LENGTH: Bounds = { min: 1, max: 255 };

/**
 * A merchant id as sent in the `Merchant-Id` header: 1 to 255 visible ASCII characters, since
 * fetch would trim surrounding spaces and refuse control characters, and a header has no business
 * being megabytes long.
 */
export const MERCHANT_ID_PATTERN = /^[\x21-\x7E]{1,255}$/;

/** What MERCHANT_ID_PATTERN asks, as validation errors say it. */
export const MERCHANT_ID_RULE = 'must be a merchant id of 1 to 255 visible ASCII characters';

/**
 * The longest `maxPollMs` a caller may ask the service to hold a status read, in milliseconds.
 * The service publishes no cap; its own guides use 30,000 and 60,000, and a read held longer
 * outlives most proxies' idle timeouts anyway.
 */
export const MAX_POLL_MS = 60_000;

/** Earliest and latest instants a `Date` may name: years 0000 to 9999, what ISO 8601 writes in 4 digits. */
export const DATE_RANGE_MS = { min: -62_167_219_200_000, max: 253_402_300_799_999 } as const;

/** A control character (C0 or DEL), which no id may contain, in a path or a list filter. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
export const CONTROL_CHARACTER = /[\x00-\x1F\x7F]/;

/**
 * A payment id as the service writes it (`pay_` then letters and digits, 1 to 64 characters):
 * what `refunds.create` and the checkout route accept, where an id comes from someone else.
 */
export const PAYMENT_ID = { pattern: /^pay_[A-Za-z0-9]+$/, max: 64 } as const;
