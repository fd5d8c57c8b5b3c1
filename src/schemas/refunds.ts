import * as z from 'zod/mini';
import { PAYMENT_ID } from '../rules/ids';
import { exact, matching, responseObject, stringField } from './common';
import { MerchantIdSchema } from './payments';

/** Input of `refunds.create`. */
export const RefundCreateParamsSchema = exact({
  /** The payment to refund in full: `^pay_[A-Za-z0-9]+$`, at most 64 characters. */
  paymentId: matching(PAYMENT_ID.pattern, 'must match ^pay_[A-Za-z0-9]+$').check(
    z.maxLength(PAYMENT_ID.max, 'must be 1 to 64 characters'),
  ),
  /** Falls back to the client's `merchantId`. Sent as the `Merchant-Id` header. */
  merchantId: z.optional(MerchantIdSchema),
});
/** Input of `refunds.create`: the `paymentId` to refund in full, and the merchant when not the client's. */
export type RefundCreateParams = z.input<typeof RefundCreateParamsSchema>;

/** What `POST /v1/refunds` answers. */
export const RefundSchema = responseObject({
  paymentId: stringField,
});
/** What `refunds.create` returns: the refunded payment's id. */
export interface Refund extends z.output<typeof RefundSchema> {}
