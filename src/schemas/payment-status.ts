import * as z from 'zod/mini';
import { MAX_POLL_MS } from '../rules/ids';
import { exact, maybe, openEnum, responseObject, stringField } from './common';
import { type PaymentFailureCode, PaymentInformationSchema } from './payment-view';
import { MerchantIdSchema, type PaymentStatus } from './payments';

// The status read's answer lives with the buyer-facing view (payment-view.ts), so the buyer entry
// carries none of the merchant-side schemas below.
export type {
  PaymentFailureCode,
  PaymentInformation,
  PaymentStatusResult,
} from './payment-view';
export { PaymentInformationSchema, PaymentStatusResultSchema } from './payment-view';

/** The settlement of a succeeded payment, once it was paid out to the merchant. */
export const PaymentDetailsSettlementSchema = responseObject({
  /** Null or absent until the payout happened. */
  successful: maybe(
    responseObject({
      txId: stringField,
      // The published contract promises a `value` but its schema has none: taken when present.
      amount: responseObject({ unit: stringField, value: z.optional(stringField) }),
    }),
  ),
});
/** A payment's settlement: `successful` holds the payout transaction once there is one. */
export interface PaymentDetailsSettlement extends z.output<typeof PaymentDetailsSettlementSchema> {}

/** The body of `GET /v1/payments/{id}`: the merchant's view of one payment. */
export const PaymentDetailsSchema = responseObject({
  status: openEnum<PaymentStatus>(),
  referenceId: stringField,
  failureCode: maybe(openEnum<PaymentFailureCode>()),
  info: maybe(PaymentInformationSchema),
  settlement: maybe(PaymentDetailsSettlementSchema),
});
/** What `payments.details` returns: the service's body plus the `paymentId` that was asked for. */
export interface PaymentDetails extends z.output<typeof PaymentDetailsSchema> {
  /** The id the call asked for (the service's body does not repeat it). */
  paymentId: string;
}

/** What `POST /v1/payments/{id}/cancel` answers. */
export const PaymentCancellationSchema = responseObject({
  paymentId: stringField,
  status: openEnum<PaymentStatus>(),
  /** Free text, e.g. `cancelled_by_merchant`. */
  cancelledReason: stringField,
  /** When the payment was cancelled (RFC 3339). */
  cancelledAt: stringField,
});
/** What `payments.cancel` returns: the cancelled payment's id, status, reason and time. */
export interface PaymentCancellation extends z.output<typeof PaymentCancellationSchema> {}

/** Options of `payments.details` and `payments.cancel`. */
export const PaymentActionParamsSchema = exact({
  /** Falls back to the client's `merchantId`. Sent as the `Merchant-Id` header. */
  merchantId: z.optional(MerchantIdSchema),
});
/** Options of `payments.details` and `payments.cancel`: the merchant, when not the client's. */
export type PaymentActionParams = z.input<typeof PaymentActionParamsSchema>;

const MAX_POLL_RULE = `must be a whole number of milliseconds from 0 to ${MAX_POLL_MS}`;

/** Options of `payments.status`. */
export const PaymentStatusParamsSchema = exact({
  /** Falls back to the client's `merchantId`. Sent as the `Merchant-Id` header. */
  merchantId: z.optional(MerchantIdSchema),
  /**
   * Longest time, in milliseconds, the service may hold the read open, answering early when the
   * status changes. A whole number from 0 to 60,000; absent or 0 asks for an immediate answer.
   */
  maxPollMs: z.optional(
    z
      .number({ error: MAX_POLL_RULE })
      .check(z.refine((n) => Number.isSafeInteger(n) && n >= 0 && n <= MAX_POLL_MS, MAX_POLL_RULE)),
  ),
});
/** Options of `payments.status`: the merchant and `maxPollMs` for a held (long-polling) read. */
export type PaymentStatusParams = z.input<typeof PaymentStatusParamsSchema>;
