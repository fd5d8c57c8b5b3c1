import type { ApiPromise } from '../core/api-promise';
import type { PagePromise } from '../core/page-promise';
import { path } from '../core/path';
import type { CreateRequestOptions, RequestOptions } from '../core/transport';
import { parseRequest } from '../core/validate';
import { type PollOptions, waitForFinal, watch } from '../polling';
import type { MerchantPayment, MerchantPaymentsPage, PaymentListParams } from '../schemas/lists';
import {
  MerchantIdSchema,
  type PaymentCreated,
  PaymentCreatedSchema,
  type PaymentCreateParams,
  PaymentCreateParamsSchema,
  type PaymentView,
  PaymentViewSchema,
} from '../schemas/payments';
import { REFERENCE_FILTER_PATTERN } from '../schemas/primitives';
import { listPayments } from './payment-list';
import { merchantIdFor, type ResourceContext } from './resource';

/** Payments: create, read, follow to a final status, and list. */
export class Payments {
  readonly #context: ResourceContext;
  #referenceHinted = false;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * Creates a payment and returns the gateway URL to send the buyer to.
   *
   * Always sends an Idempotency-Key: yours, or a UUID v4 generated once per call and reused by
   * every retry, so a timeout, a dropped connection or a 5xx is retried and still makes exactly
   * one payment. Derive your own key from the order (`order-${order.id}`) and send the same body
   * for that order, so a repeat after a crash returns the original payment too; every error of
   * the call carries the key it sent as `error.idempotencyKey`.
   *
   * `referenceId` may be any non-empty string, but `payments.list({ referenceId })` only searches
   * by 3 to 35 characters of `A-Z a-z 0-9 space / : . , + -`: keep references within that to find
   * a payment by its whole reference (others are sent as given, with a one-time warning).
   *
   * @example
   * ```ts
   * const payment = await gateway.payments.create(
   *   { amount: { unit: 'iso4217/USD', value: '1250' }, referenceId: 'order-1042', expiresAt: null },
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
      this.#hintReference(input.referenceId);
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
        idempotency: 'always',
        response: PaymentCreatedSchema,
        select: (payment) => payment,
        options,
      };
    });
  }

  // The service takes any referenceId, so this only warns (once per client) where the list's
  // filter, which takes 3 to 35 characters of a narrow alphabet, could not find it whole.
  #hintReference(referenceId: string): void {
    if (this.#referenceHinted || REFERENCE_FILTER_PATTERN.test(referenceId)) return;
    this.#referenceHinted = true;
    this.#context.transport.config.logger.log(
      'warn',
      `payments.create: a referenceId of ${[...referenceId].length} characters outside 3 to 35 of A-Z a-z 0-9 space / : . , + - is sent as given, but payments.list({ referenceId }) cannot search for it whole (warned once per client)`,
    );
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

  /**
   * Lists a merchant's payments (GET /v1/merchants/payments), filtered and sorted by the service.
   * `await` it for the first page with its stats; `for await` it for every payment of every page,
   * each page fetched only when the previous one is used up.
   *
   * Dates are ISO 8601 strings with a `Z` or offset, or `Date`s; `startTs` is inclusive, `endTs`
   * exclusive. `limit` is items per page, 1 to 200. `merchantId` falls back to the client's.
   *
   * @example
   * ```ts
   * const { data, nextCursor, stats } = await gateway.payments.list({ status: 'succeeded', limit: 50 });
   * for await (const payment of gateway.payments.list({ startTs: new Date('2026-01-01T00:00:00Z') })) {
   *   console.log(payment.paymentId, payment.status);
   * }
   * ```
   * @throws {RequestValidationError} before sending, when a query value breaks a rule or no
   * merchant id is given in the call or the client.
   * @throws {PaginationError} while iterating, when the service repeats a cursor.
   */
  list(
    params: PaymentListParams = {},
    options?: RequestOptions,
  ): PagePromise<MerchantPayment, MerchantPaymentsPage> {
    return listPayments(this.#context, params, options);
  }

  /**
   * Polls the payment until its status is final (succeeded, failed, expired, cancelled, or any
   * status the service marks `isFinal`) and resolves with that view.
   *
   * Given the result of `create`, it waits the service's `pollInMs` before each read (and reads
   * once, at once, when it is already final); given an id, it reads at once, then every
   * `intervalMs`. Each wait is kept within [100 ms, 30 s] and never shorter than the service asked.
   *
   * @example
   * ```ts
   * const payment = await gateway.payments.create({ amount, referenceId: 'order-1042' });
   * redirect(payment.gatewayUrl);
   * const view = await gateway.payments.waitForFinal(payment, { timeoutMs: 10 * 60_000 });
   * if (view.status === 'succeeded') ship('order-1042');
   * ```
   * @throws {PollTimeoutError} after `timeoutMs` (default 15 minutes), with the last view read.
   * @throws {RequestValidationError} before any read, for a bad id or option.
   * @throws {ApiError} what a read threw once retries were spent (e.g. `NotFoundError`); rate
   * limiting only stretches the wait. An abort rejects with the signal's reason.
   */
  waitForFinal(paymentOrId: PaymentCreated | string, options?: PollOptions): Promise<PaymentView> {
    const { redactor } = this.#context.transport.config;
    return waitForFinal((id, opts) => this.get(id, opts), paymentOrId, options, redactor);
  }

  /**
   * Polls the payment like `waitForFinal`, yielding the first view read, then one view per status
   * change, and ending after the final one. Breaking out of the loop stops polling.
   *
   * @example
   * ```ts
   * for await (const view of gateway.payments.watch(payment)) {
   *   console.log(view.status); // requires_action, processing, succeeded
   * }
   * ```
   * @throws {PollTimeoutError} after `timeoutMs`, as `waitForFinal` does; the other errors too.
   */
  watch(paymentOrId: PaymentCreated | string, options?: PollOptions): AsyncIterable<PaymentView> {
    const { redactor } = this.#context.transport.config;
    return watch((id, opts) => this.get(id, opts), paymentOrId, options, redactor);
  }
}
