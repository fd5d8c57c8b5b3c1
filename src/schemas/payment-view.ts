// The buyer-facing view of a payment, apart from the partner's create schemas in payments.ts (which
// re-exports all of this): what the buyer entry imports, without the partner's side.
import * as z from 'zod/mini';
import {
  FINAL_PAYMENT_STATUSES as FINAL,
  type KnownPaymentStatus,
  OPEN_PAYMENT_STATUSES as OPEN,
} from '../rules/payments';
import {
  booleanField,
  maybe,
  maybeNumber,
  maybeString,
  numberField,
  openEnum,
  responseObject,
  stringField,
} from './common';

/** Payment statuses the service documents; others may come (and are not final). */
export type PaymentStatus = KnownPaymentStatus | (string & {});
export type { KnownPaymentStatus };

/** Statuses after which a payment no longer changes. */
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = FINAL;

/** The documented statuses a payment can still leave. */
export type OpenPaymentStatus = (typeof OPEN)[number];

/**
 * The documented statuses a payment can still leave, typed to fit the lists' `status` filter
 * (`partnerPayments.list({ status: [...OPEN_PAYMENT_STATUSES] })`). To test a payment's status,
 * `isOpenPaymentStatus` takes any string; an undocumented status is neither open nor final.
 */
export const OPEN_PAYMENT_STATUSES: readonly OpenPaymentStatus[] = OPEN;

/** True for the documented statuses a payment can still leave (`requires_action`, `processing`). */
export function isOpenPaymentStatus(status: string): status is OpenPaymentStatus {
  return (OPEN as readonly string[]).includes(status);
}

const amountDisplay = responseObject({
  assetName: stringField,
  assetSymbol: stringField,
  /** Digits after the decimal point: `value / 10 ** decimals` is the amount in major units. */
  decimals: numberField,
  iconUrl: maybeString,
  networkIconUrl: maybeString,
  networkName: maybeString,
});
/** How an amount is shown: names, symbol and decimals of its asset (and network, for tokens). */
export interface AmountDisplay extends z.output<typeof amountDisplay> {}
/** How an amount is shown: names, symbol and decimals of its asset (and network, for tokens). */
export const AmountDisplaySchema: z.ZodMiniType<AmountDisplay> = amountDisplay;

const amount = responseObject({
  /** `iso4217/<currency>` for fiat, `caip19/<CAIP-19 asset id>` for a token. */
  unit: stringField,
  /** A string of digits in minor units (the smallest unit of the currency or token). */
  value: stringField,
  display: AmountDisplaySchema,
});
/** An amount with its display: `value` is a digit string in minor units of `unit`. */
export interface Amount extends z.output<typeof amount> {}
/** An amount with its display: `value` is a digit string in minor units of `unit`. */
export const AmountSchema: z.ZodMiniType<Amount> = amount;

const paymentBuyer = responseObject({
  /** The buyer's account, CAIP-10. */
  accountCaip10: stringField,
  accountProviderIcon: maybeString,
  accountProviderName: maybeString,
});
/** The wallet that pays: its CAIP-10 account and, when known, its provider's name and icon. */
export interface PaymentBuyer extends z.output<typeof paymentBuyer> {}
/** The wallet that pays: its CAIP-10 account and, when known, its provider's name and icon. */
export const PaymentBuyerSchema: z.ZodMiniType<PaymentBuyer> = paymentBuyer;

const paymentViewMerchant = responseObject({
  iconUrl: maybeString,
  name: stringField,
});
/** The merchant as the buyer-facing view names it. */
export interface PaymentViewMerchant extends z.output<typeof paymentViewMerchant> {}
/** The merchant as the buyer-facing view names it. */
export const PaymentViewMerchantSchema: z.ZodMiniType<PaymentViewMerchant> = paymentViewMerchant;

const paymentView = responseObject({
  status: openEnum<PaymentStatus>(),
  /** Seconds since the epoch. */
  expiresAt: numberField,
  /** The token amount to pay: `unit` is `caip19/<CAIP-19 asset id>`, `value` in its smallest unit. */
  amount: AmountSchema,
  /** Null until a buyer has begun paying. */
  buyer: maybe(PaymentBuyerSchema),
  merchant: PaymentViewMerchantSchema,
  /** Sent by newer services; honoured by polling when present. */
  isFinal: z.optional(booleanField),
  /** Sent by newer services; honoured by polling when present. */
  pollInMs: maybeNumber,
});
/** The buyer-facing view of a payment that `payments.get` returns. */
export interface PaymentView extends z.output<typeof paymentView> {}
/** A payment as the buyer-facing gateway shows it: only what a buyer needs to begin paying. */
export const PaymentViewSchema: z.ZodMiniType<PaymentView> = paymentView;

/** Why a payment failed; the service documents one value so far, others may come. */
export type PaymentFailureCode = 'declined_user' | (string & {});

/** What a succeeded payment was paid with: the transaction hash and the token amount. */
export const PaymentInformationSchema = responseObject({
  /** Hash of the paying transaction. */
  txId: stringField,
  /** The amount paid, in token units. */
  optionAmount: AmountSchema,
});
/** The transaction and token amount of a succeeded payment. */
export interface PaymentInformation extends z.output<typeof PaymentInformationSchema> {}

/** What `GET /v1/payments/{id}/status` (and the gateway's status read) answers. */
export const PaymentStatusResultSchema = responseObject({
  status: openEnum<PaymentStatus>(),
  /** True once the status can no longer change. */
  isFinal: booleanField,
  /** Milliseconds to wait before reading again; absent or null once final. */
  pollInMs: maybeNumber,
  /** Set when the payment failed. */
  failureCode: maybe(openEnum<PaymentFailureCode>()),
  /** Set when the payment succeeded. */
  info: maybe(PaymentInformationSchema),
});
/** A payment's status as the status read returns it: `status`, `isFinal`, `pollInMs`, and why or how it ended. */
export interface PaymentStatusResult extends z.output<typeof PaymentStatusResultSchema> {}
