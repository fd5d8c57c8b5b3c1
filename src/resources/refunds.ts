import type { ApiPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/http/transport';
import { parseRequest } from '../core/validate';
import {
  type Refund,
  type RefundCreateParams,
  RefundCreateParamsSchema,
  RefundSchema,
} from '../schemas/refunds';
import type { ResourceContext } from './resource';
import { merchantIdFor } from './resource';

/** Refunds: give a succeeded payment's money back, in full. */
export class Refunds {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * Refunds a succeeded payment in full (POST /v1/refunds). A payment can be refunded once only.
   *
   * The service takes no Idempotency-Key here, yet a refund cannot happen twice, so the call is
   * retried after a dropped connection, a timeout or a 5xx (the outcome is unknown); when such a
   * retry meets 409 `already_refunded`, the earlier attempt did refund and the call resolves with
   * `{ paymentId }`. A 409 on the first attempt (or after only rate limiting) is a `ConflictError`.
   *
   * @example
   * ```ts
   * const refund = await gateway.refunds.create({ paymentId: 'pay_123' });
   * console.log('refunded', refund.paymentId);
   * ```
   * @throws {RequestValidationError} before sending: `paymentId` not `^pay_[A-Za-z0-9]+$` (1 to 64
   * characters), or no merchant id in the call or the client.
   * @throws {InvalidRequestError} `payment_not_succeeded`: only a succeeded payment is refundable.
   * @throws {ConflictError} `already_refunded`: the payment was refunded before this call.
   */
  create(params: RefundCreateParams, options?: RequestOptions): ApiPromise<Refund> {
    const context = this.#context;
    return context.transport.request(() => {
      const operation = 'refunds.create';
      const input = parseRequest(operation, RefundCreateParamsSchema, params);
      const merchantId = merchantIdFor(context, operation, input.merchantId);
      const { paymentId } = input;
      return {
        operation,
        method: 'POST',
        path: '/v1/refunds',
        headers: { 'Merchant-Id': merchantId },
        body: { paymentId },
        response: RefundSchema,
        select: (refund) => refund,
        // Only after an unknown outcome: a first-attempt 409 means someone else refunded it.
        recoverAfterUnknownOutcome: (error) =>
          error.status === 409 && error.code === 'already_refunded' ? { paymentId } : undefined,
        options,
      };
    });
  }
}
