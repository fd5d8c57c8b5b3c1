import * as z from 'zod/mini';
import { CHECKOUT_URL_RULE, isCheckoutUrl } from '../rules/checkout';
import { ID_LENGTH } from '../rules/ids';
import {
  FIAT_UNIT_PATTERN,
  FINAL_PAYMENT_STATUSES as FINAL,
  type KnownPaymentStatus,
  MINOR_UNITS_PATTERN,
} from '../rules/payments';
import {
  exact,
  matching,
  maybe,
  openEnum,
  requiredString,
  responseObject,
  satisfying,
} from './common';

/** Payment statuses the service documents; others may come (and are not final). */
export type PaymentStatus = KnownPaymentStatus | (string & {});
export type { KnownPaymentStatus };

/** Statuses after which a payment no longer changes. */
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = FINAL;

// Each response shape is built unnamed, given a named interface (so hovers and errors say
// `PaymentCreated`, not its fields), and exported as a schema typed by that interface.

const paymentCreated = responseObject({
  paymentId: z.string(),
  status: openEnum<PaymentStatus>(),
  /** True once the payment is final; then `pollInMs` is absent or null. */
  isFinal: z.boolean(),
  /** Milliseconds to wait before reading the payment again. */
  pollInMs: maybe(z.number()),
  /** Seconds since the epoch. */
  expiresAt: z.number(),
  /** Send the buyer here to pay. */
  gatewayUrl: z.string(),
  /**
   * Not a field the service sends: the merchant the `payments.create` call was for (its
   * `merchantId`, else the client's), added by the SDK so that `waitForFinal(payment)` and
   * `watch(payment)` read that merchant's status. Absent on a `PaymentCreated` built or stored
   * without it; following one then uses the call's or the client's merchant.
   */
  // Not the service's field to break: whatever a body carries there never fails a create. (A
  // transform, not z.catch: catch pulls about 3 KB gzip of zod into every bundle.)
  merchantId: z.optional(
    z.pipe(
      z.unknown(),
      z.transform((value): string | undefined => (typeof value === 'string' ? value : undefined)),
    ),
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

const amountDisplay = responseObject({
  assetName: z.string(),
  assetSymbol: z.string(),
  /** Digits after the decimal point: `value / 10 ** decimals` is the amount in major units. */
  decimals: z.number(),
  iconUrl: maybe(z.string()),
  networkIconUrl: maybe(z.string()),
  networkName: maybe(z.string()),
});
/** How an amount is shown: names, symbol and decimals of its asset (and network, for tokens). */
export interface AmountDisplay extends z.output<typeof amountDisplay> {}
/** How an amount is shown: names, symbol and decimals of its asset (and network, for tokens). */
export const AmountDisplaySchema: z.ZodMiniType<AmountDisplay> = amountDisplay;

const amount = responseObject({
  /** `iso4217/<currency>` for fiat, `caip19/<CAIP-19 asset id>` for a token. */
  unit: z.string(),
  /** A string of digits in minor units (the smallest unit of the currency or token). */
  value: z.string(),
  display: AmountDisplaySchema,
});
/** An amount with its display: `value` is a digit string in minor units of `unit`. */
export interface Amount extends z.output<typeof amount> {}
/** An amount with its display: `value` is a digit string in minor units of `unit`. */
export const AmountSchema: z.ZodMiniType<Amount> = amount;

const paymentBuyer = responseObject({
  /** The buyer's account, CAIP-10. */
  accountCaip10: z.string(),
  accountProviderIcon: maybe(z.string()),
  accountProviderName: maybe(z.string()),
});
/** The wallet that pays: its CAIP-10 account and, when known, its provider's name and icon. */
export interface PaymentBuyer extends z.output<typeof paymentBuyer> {}
/** The wallet that pays: its CAIP-10 account and, when known, its provider's name and icon. */
export const PaymentBuyerSchema: z.ZodMiniType<PaymentBuyer> = paymentBuyer;

const paymentViewMerchant = responseObject({
  iconUrl: maybe(z.string()),
  name: z.string(),
});
/** The merchant as the buyer-facing view names it. */
export interface PaymentViewMerchant extends z.output<typeof paymentViewMerchant> {}
/** The merchant as the buyer-facing view names it. */
export const PaymentViewMerchantSchema: z.ZodMiniType<PaymentViewMerchant> = paymentViewMerchant;

const paymentView = responseObject({
  status: openEnum<PaymentStatus>(),
  /** Seconds since the epoch. */
  expiresAt: z.number(),
  /** The token amount to pay: `unit` is `caip19/<CAIP-19 asset id>`, `value` in its smallest unit. */
  amount: AmountSchema,
  /** Null until a buyer has begun paying. */
  buyer: maybe(PaymentBuyerSchema),
  merchant: PaymentViewMerchantSchema,
  /** Sent by newer services; honoured by polling when present. */
  isFinal: z.optional(z.boolean()),
  /** Sent by newer services; honoured by polling when present. */
  pollInMs: maybe(z.number()),
});
/** The buyer-facing view of a payment that `payments.get` returns. */
export interface PaymentView extends z.output<typeof paymentView> {}
/** A payment as the buyer-facing gateway shows it: only what a buyer needs to begin paying. */
export const PaymentViewSchema: z.ZodMiniType<PaymentView> = paymentView;

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

/**
 * A merchant id as sent in the `Merchant-Id` header: 1 to 255 visible ASCII characters, since
 * fetch would trim surrounding spaces and refuse control characters, and a header has no business
 * being megabytes long.
 */
const MERCHANT_ID_RULE = `must be a merchant id of ${ID_LENGTH.min} to ${ID_LENGTH.max} visible ASCII characters`;
export const MerchantIdSchema = matching(
  new RegExp(`^[\\x21-\\x7E]{${ID_LENGTH.min},${ID_LENGTH.max}}$`),
  `${MERCHANT_ID_RULE} (sent as the Merchant-Id header)`,
);

/** Why `value` cannot be a merchant id, or undefined when it can (`MerchantIdSchema`'s rule). */
export function merchantIdProblem(value: unknown): string | undefined {
  return z.safeParse(MerchantIdSchema, value).success ? undefined : MERCHANT_ID_RULE;
}

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
