import type { ApiPromise } from '../core/api-promise';
import { path } from '../core/path';
import type { CreateRequestOptions, RequestOptions } from '../core/transport';
import { parseRequest } from '../core/validate';
import {
  MerchantIdSchema,
  type PaymentCreated,
  PaymentCreatedSchema,
  type PaymentCreateParams,
  PaymentCreateParamsSchema,
  type PaymentView,
  PaymentViewSchema,
} from '../schemas/payments';
import { merchantIdFor, type ResourceContext } from './resource';

/** Payments: create, read, follow to a final status, and list. */
export class Payments {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * Creates a payment and returns the gateway URL to send the buyer to.
   *
   * Without `idempotencyKey` a failed attempt is retried only on rate limiting (the service did
   * not act), never after a timeout or 5xx, which could create a second payment. Give a key of
   * your own (e.g. your order id) and those failures are retried too, safely.
   *
   * @example
   * ```ts
   * const payment = await gateway.payments.create(
   *   { amount: { unit: 'iso4217/USD', value: '1250' }, referenceId: 'order-1042' },
   *   { idempotencyKey: 'order-1042' },
   * );
   * redirect(payment.gatewayUrl);
   * ```
   * @throws {RequestValidationError} before sending, e.g. no merchant id in the call or client.
   */
  create(params: PaymentCreateParams, options?: CreateRequestOptions): ApiPromise<PaymentCreated> {
    return this.#context.transport.request(() => {
      const operation = 'payments.create';
      const input = parseRequest(operation, PaymentCreateParamsSchema, params);
      // The client's default is checked here too: it reaches the header by the same path.
      const merchantId = parseRequest(
        operation,
        MerchantIdSchema,
        merchantIdFor(this.#context, operation, input.merchantId),
        'merchantId',
      );
      const { expiresAt } = input;
      const body = {
        amount: { unit: input.amount.unit, value: String(input.amount.value) },
        referenceId: input.referenceId,
        ...(expiresAt === undefined
          ? {}
          : {
              expiresAt:
                expiresAt instanceof Date ? Math.floor(expiresAt.getTime() / 1000) : expiresAt,
            }),
      };
      return {
        operation,
        method: 'POST',
        path: '/v1/payments',
        headers: { 'Merchant-Id': merchantId },
        body,
        idempotency: 'optional',
        response: PaymentCreatedSchema,
        select: (payment) => payment,
        options,
      };
    });
  }

  /**
   * Reads a payment through the buyer-facing gateway view.
   * @throws {NotFoundError} when the payment does not exist.
   */
  get(paymentId: string, options?: RequestOptions): ApiPromise<PaymentView> {
    return this.#context.transport.request(() => {
      const operation = 'payments.get';
      return {
        operation,
        method: 'GET',
        path: path(operation, '/v1/gateway/payment/{paymentId}', { paymentId }),
        response: PaymentViewSchema,
        select: (view) => view,
        options,
      };
    });
  }
}
