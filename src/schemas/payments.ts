import * as z from 'zod/mini';
import { CHECKOUT_URL_RULE, isCheckoutUrl } from '../rules/checkout';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../rules/ids';
import { FIAT_UNIT_PATTERN, MINOR_UNITS_PATTERN } from '../rules/payments';
import {
  booleanField,
  exact,
  matching,
  maybeNumber,
  numberField,
  openEnum,
  requiredString,
  responseObject,
  satisfying,
  stringField,
} from './common';
import type { PaymentStatus } from './payment-view';

// The buyer-facing view lives apart so the buyer entry's bundle carries none of the create schemas
// below (their union, bigint and date pull zod code a wallet never runs).
export type {
  Amount,
  AmountDisplay,
  KnownPaymentStatus,
  OpenPaymentStatus,
  PaymentBuyer,
  PaymentStatus,
  PaymentView,
  PaymentViewMerchant,
} from './payment-view';
export {
  AmountDisplaySchema,
  AmountSchema,
  FINAL_PAYMENT_STATUSES,
  isOpenPaymentStatus,
  OPEN_PAYMENT_STATUSES,
  PaymentBuyerSchema,
  PaymentViewMerchantSchema,
  PaymentViewSchema,
} from './payment-view';

// Each response shape is built unnamed, given a named interface (so hovers and errors say
// `PaymentCreated`, not its fields), and exported as a schema typed by that interface.

const paymentCreated = responseObject({
  paymentId: stringField,
  status: openEnum<PaymentStatus>(),
  /** True once the payment is final; then `pollInMs` is absent or null. */
  isFinal: booleanField,
  /** Milliseconds to wait before reading the payment again. */
  pollInMs: maybeNumber,
  /** Seconds since the epoch. */
  expiresAt: numberField,
  /** Send the buyer here to pay. */
  gatewayUrl: stringField,
  /**
   * Not a field the service sends: the merchant the `payments.create` call was for (its
   * `merchantId`, else the client's), added by the SDK so that `waitForFinal(payment)` and
   * `watch(payment)` read that merchant's status. Absent on a `PaymentCreated` built or stored
   * without it; following one then uses the call's or the client's merchant.
   */
  // Not the service's field to break: whatever a body carries there never fails a create. (An
  // overwrite check, not z.catch, which pulls about 3 KB gzip of zod into every bundle, nor a pipe
  // into a transform, about 400 B.)
  merchantId: z.optional(
    z
      .unknown()
      .check(
        z.overwrite((value) => (typeof value === 'string' ? value : undefined) as never),
      ) as unknown as z.ZodMiniType<string | undefined, unknown>,
  ),
});
/** What `payments.create` returns: id, status, `pollInMs` hint and the `gatewayUrl` for the buyer. */
export interface PaymentCreated extends z.output<typeof paymentCreated> {}
/** What `payments.create` returns: where to send the buyer, and how to follow the payment. */
export const PaymentCreatedSchema: z.ZodMiniType<PaymentCreated> = paymentCreated;
/**
 * What `payments.create` returns: a `PaymentCreated` whose `merchantId` is always set (the call's
 * `merchantId`, else the client's), so `const m: string = payment.merchantId` compiles. Anything
 * that takes a `PaymentCreated` takes it. No schema of its own: what the service sends is
 * `PaymentCreatedSchema`'s; the SDK adds `merchantId`.
 */
export interface CreatedPayment extends PaymentCreated {
  merchantId: string;
}

/** A whole number of minor units: digits, or a non-negative safe integer or bigint. */
const minorUnits = z.union(
  [
    matching(
      MINOR_UNITS_PATTERN,
      'must be a whole number of minor units, as digits (e.g. "100" for 1.00)',
    ),
    z
      .number()
      .check(
        z.refine(
          (n) => Number.isSafeInteger(n) && n >= 0,
          'must be a non-negative whole number of minor units',
        ),
      ),
    z
      .bigint()
      .check(z.refine((n) => n >= 0n, 'must be a non-negative whole number of minor units')),
  ],
  // Reached when no branch fits the type at all (NaN, Infinity, null, an object).
  { error: 'must be minor units as a string of digits, or a non-negative integer or bigint' },
);

// Past this, a "seconds" value is almost surely milliseconds (year 5138 and later).
const MAX_EPOCH_SECONDS = 100_000_000_000;
const EXPIRES_AT_RULE = 'must be whole seconds since the epoch (not milliseconds), a Date, or null';

const expiresAt = z.nullable(
  z.union(
    [
      z
        .number()
        .check(
          z.refine(
            (n) => Number.isSafeInteger(n) && n >= 0 && n < MAX_EPOCH_SECONDS,
            EXPIRES_AT_RULE,
          ),
        ),
      z
        .date()
        .check(
          z.refine(
            (d) => d.getTime() >= 0 && d.getTime() < MAX_EPOCH_SECONDS * 1000,
            'must be a Date from 1970 on (it is sent as seconds since the epoch)',
          ),
        ),
    ],
    // Reached for strings, invalid Dates and other types.
    { error: EXPIRES_AT_RULE },
  ),
);

/** A merchant id as sent in the `Merchant-Id` header (MERCHANT_ID_PATTERN). */
export const MerchantIdSchema = matching(
  MERCHANT_ID_PATTERN,
  `${MERCHANT_ID_RULE} (sent as the Merchant-Id header)`,
);

const checkoutUrl = satisfying(isCheckoutUrl, CHECKOUT_URL_RULE);

/**
 * Where the gateway sends the buyer back after checkout (2026-02-19.preview: send it with
 * `apiVersion: '2026-02-19.preview'`).
 */
export const PaymentCheckoutParamsSchema = exact({
  /** The buyer lands here after paying. An https URL (http only on loopback, for development). */
  successUrl: checkoutUrl,
  /** The buyer lands here when the payment fails or is cancelled. Same rule as `successUrl`. */
  errorUrl: checkoutUrl,
});
/** `payments.create`'s `checkout`: `{ successUrl, errorUrl }`, both required. */
export type PaymentCheckoutParams = z.input<typeof PaymentCheckoutParamsSchema>;

/** Input of `payments.create`. */
export const PaymentCreateParamsSchema = exact({
  /** Falls back to the client's `merchantId`. Sent as the `Merchant-Id` header. */
  merchantId: z.optional(MerchantIdSchema),
  amount: exact({
    /** `iso4217/<currency>`, e.g. `iso4217/USD`. */
    unit: matching(FIAT_UNIT_PATTERN, 'must be iso4217/<3-letter currency code>, e.g. iso4217/USD'),
    /** Minor units: `"100"` is USD 1.00. Numbers and bigints are sent as digit strings. */
    value: minorUnits,
  }),
  /** Your own reference for the payment. */
  referenceId: requiredString().check(z.minLength(1, 'must not be empty')),
  /** Seconds since the epoch, a `Date`, or null for the service's default (5 minutes). */
  expiresAt: z.optional(expiresAt),
  /**
   * 2026-02-19.preview: where the gateway's checkout sends the buyer afterwards
   * (`{ successUrl, errorUrl }`, both required). Sent only when given; use it with
   * `apiVersion: '2026-02-19.preview'`, which a service on 2026-02-18 would not honour.
   * @example { successUrl: 'https://shop.example/paid', errorUrl: 'https://shop.example/cart' }
   */
  checkout: z.optional(PaymentCheckoutParamsSchema),
});
/** Input of `payments.create`: `amount` in minor units, `referenceId`, optional `merchantId`, `expiresAt` and (preview) `checkout`. */
export type PaymentCreateParams = z.input<typeof PaymentCreateParamsSchema>;
