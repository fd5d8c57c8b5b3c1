import * as z from 'zod/mini';
import { CONTROL_CHARACTER, ID_LENGTH } from '../rules/ids';
import { codePointLength } from '../rules/text';
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
    oneOrMany(
      nonEmpty.check(
        z.refine(
          (id) => codePointLength(id) <= ID_LENGTH.max,
          `must be at most ${ID_LENGTH.max} characters`,
        ),
        // The rule every other method applies to an id (core/http/path.ts).
        z.refine((id) => !CONTROL_CHARACTER.test(id), 'must not contain control characters'),
      ),
      `must be a merchant id of ${ID_LENGTH.min} to ${ID_LENGTH.max} characters, or a non-empty array of them`,
    ),
  ),
});
/** Query of `partnerPayments.list`: the filters of `payments.list` and `merchantId` (one or many). */
export type PartnerPaymentListParams = z.input<typeof PartnerPaymentListParamsSchema>;
