import * as z from 'zod/mini';
import { nonEmpty, oneOrMany, PaymentListParamsSchema } from './lists';

/**
 * Query of `partnerPayments.list`: the query of `payments.list`, with `merchantId` as one id or
 * several, sent as repeated `merchantId` parameters. No `Merchant-Id` header is sent.
 */
export const PartnerPaymentListParamsSchema = z.extend(PaymentListParamsSchema, {
  /**
   * The merchants to list: one id or a non-empty array of them. Left out, the list spans every
   * merchant of the partner (the client's default `merchantId` does not apply).
   */
  merchantId: z.optional(
    oneOrMany(nonEmpty, 'must be a non-empty merchant id or a non-empty array of them'),
  ),
});
/** Query of `partnerPayments.list`: the filters of `payments.list` and `merchantId` (one or many). */
export type PartnerPaymentListParams = z.input<typeof PartnerPaymentListParamsSchema>;
