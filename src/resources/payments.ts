import type * as z from 'zod/mini';
import type { ApiPromise } from '../core/api-promise';
import { RequestValidationError } from '../core/errors/base';
import type { CreateRequestOptions, RequestOptions } from '../core/http/transport';
import type { PagePromise } from '../core/page-promise';
import { parseRequest, resolveMerchantId } from '../core/validate';
import { LazyPaymentFollower } from '../follow/follower';
import type { FollowContext, PaymentReader } from '../follow/reader';
import {
  type FinalPaymentStatusResult,
  type PollOptions,
  waitForFinal,
  watch,
} from '../follow/single';
import type { PaymentFollower, PaymentFollowerOptions } from '../follow/types';
import type { MerchantPayment, MerchantPaymentsPage, PaymentListParams } from '../schemas/lists';
import type {
  PaymentActionParams,
  PaymentCancellation,
  PaymentDetails,
  PaymentStatusParams,
  PaymentStatusResult,
} from '../schemas/payment-status';
import {
  type CreatedPayment,
  type PaymentCreated,
  PaymentCreatedSchema,
  type PaymentCreateParams,
  PaymentCreateParamsSchema,
  type PaymentView,
} from '../schemas/payments';
import { REFERENCE_FILTER_PATTERN } from '../schemas/primitives';
import { paymentView } from './buyer';
import { cancelPayment, checkedPaymentStatus, paymentDetails } from './payment-actions';
import { listPartnerPayments, listPayments } from './payment-list';
import type { ResourceContext } from './resource';
import { paymentStatus } from './status-read';

/** Payments: create, read, follow to a final status, and list. */
export class Payments {
  readonly #context: ResourceContext;
  readonly #follow: FollowContext;
  #referenceHinted = false;

  constructor(context: ResourceContext) {
    this.#context = context;
    this.#follow = Payments.#followContext(context);
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
  create(params: PaymentCreateParams, options?: CreateRequestOptions): ApiPromise<CreatedPayment> {
    const { transport } = this.#context;
    const operation = 'payments.create';
    let merchantId: string;
    let body: PaymentCreateBody;
    try {
      const input = parseRequest(operation, PaymentCreateParamsSchema, params);
      // The client's default is checked here too: it reaches the header by the same path.
      merchantId = resolveMerchantId(operation, input.merchantId, this.#context.merchantId);
      this.#hintReference(input.referenceId);
      body = paymentCreateBody(input);
    } catch (error) {
      return transport.rejected(error);
    }
    // Described once, as data: the transport calls nothing back in this resource.
    return transport.request<typeof PaymentCreatedSchema, CreatedPayment>({
      operation,
      method: 'POST',
      path: '/v1/payments',
      headers: { 'Merchant-Id': merchantId },
      body,
      idempotency: 'always',
      response: PaymentCreatedSchema,
      // The merchant it was created for, so following it reads that merchant's status.
      adds: { merchantId },
      options,
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
   * @deprecated Use gateway.buyer.get: the buyer-facing view belongs with the buyer's calls.
   * @throws {NotFoundError} when the payment does not exist.
   */
  get(paymentId: string, options?: RequestOptions): ApiPromise<PaymentView> {
    return paymentView(this.#context, 'payments.get', paymentId, options);
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
   * Reads one payment as its merchant sees it (GET /v1/payments/{id}): status, your
   * `referenceId`, and how it ended (`failureCode` when failed, `info` with the transaction when
   * succeeded, `settlement` once paid out). The result adds the `paymentId` asked for.
   *
   * @example
   * ```ts
   * const details = await gateway.payments.details('pay_123');
   * if (details.status === 'succeeded') console.log(details.referenceId, details.info?.txId);
   * ```
   * @throws {RequestValidationError} before sending: a bad id, or no merchant id in the call or client.
   * @throws {NotFoundError} when the payment does not exist.
   */
  details(
    paymentId: string,
    params: PaymentActionParams = {},
    options?: RequestOptions,
  ): ApiPromise<PaymentDetails> {
    return paymentDetails(this.#context, paymentId, params, options);
  }

  /**
   * Reads a payment's status (GET /v1/payments/{id}/status). With `maxPollMs` the service holds
   * the read open up to that many milliseconds and answers as soon as the status changes (long
   * polling); the attempt's timeout is stretched by `maxPollMs` to cover it.
   * `waitForFinal` and `watch` use this read for you.
   *
   * @example
   * ```ts
   * const { status, isFinal, pollInMs } = await gateway.payments.status('pay_123', { maxPollMs: 30_000 });
   * ```
   * @throws {RequestValidationError} before sending: a bad id, `maxPollMs` not a whole number
   * >= 0, or no merchant id in the call or client.
   */
  status(
    paymentId: string,
    params: PaymentStatusParams = {},
    options?: RequestOptions,
  ): ApiPromise<PaymentStatusResult> {
    return checkedPaymentStatus(this.#context, paymentId, params, options);
  }

  /**
   * Cancels a payment that is not final yet (POST /v1/payments/{id}/cancel). Always sends an
   * Idempotency-Key (yours, or one generated per call and reused by its retries), so a retried
   * cancel after a timeout or 5xx is safe.
   *
   * @example
   * ```ts
   * const cancellation = await gateway.payments.cancel('pay_123');
   * console.log(cancellation.status, cancellation.cancelledReason); // cancelled cancelled_by_merchant
   * ```
   * @throws {RequestValidationError} before sending: a bad id or key, or no merchant id.
   * @throws {InvalidRequestError} when the payment can no longer be cancelled (already final).
   */
  cancel(
    paymentId: string,
    params: PaymentActionParams = {},
    options?: CreateRequestOptions,
  ): ApiPromise<PaymentCancellation> {
    return cancelPayment(this.#context, paymentId, params, options);
  }

  /**
   * Follows the payment until its status is final and resolves with that status result
   * (`isFinal: true`; `failureCode` when failed, `info.txId` when succeeded).
   *
   * It reads the status endpoint: `GET /v1/payments/{id}/status` for API-key clients with a
   * merchant id (the option, else the `PaymentCreated`'s own, else the client's), else
   * `GET /v1/gateway/payment/{id}/status`. Reads alternate between immediate and held ones
   * (`maxPollMs` up to 30 s), so a change while a read is held arrives at once, and no read
   * starts sooner than `pollInMs` (else `intervalMs`) after an immediate one. A service that does
   * not hold reads is read once per `pollInMs`.
   *
   * Failed reads do not end it: no answer, a timeout, rate limiting or a 5xx (a restarting
   * service, a proxy's 502 or 504) is reported to `onError` and logged as one `warn` line, and
   * the next read follows after a backoff (doubling per failure in a row, at most 30 s, at least
   * a `Retry-After`). A held read cut by an intermediary makes the client's later held reads
   * shorter than the cut.
   *
   * @example
   * ```ts
   * const payment = await gateway.payments.create({ amount, referenceId: 'order-1042' });
   * redirect(payment.gatewayUrl);
   * const result = await gateway.payments.waitForFinal(payment, { timeoutMs: 10 * 60_000 });
   * if (result.status === 'succeeded') ship('order-1042', result.info?.txId);
   * ```
   * @throws {PollTimeoutError} after `timeoutMs` (default 15 minutes), with the last result read
   * and, when the last read failed, that failure as `cause`.
   * @throws {RequestValidationError} before any read, for a bad id or option.
   * @throws {ApiError} on a permanent answer (400, 401, 403, 404, 409), at once.
   * @throws {ResponseValidationError} when a read's body does not match the schema, at once.
   * An abort rejects with the signal's reason.
   */
  waitForFinal(
    paymentOrId: PaymentCreated | string,
    options?: PollOptions,
  ): Promise<FinalPaymentStatusResult> {
    return waitForFinal(this.#follow, paymentOrId, options);
  }

  /**
   * Follows the payment like `waitForFinal`, yielding the first result read, then one result per
   * status change, and ending after the final one. Breaking out of the loop stops polling; an
   * iterator dropped without `return()` keeps no timer alive.
   *
   * @example
   * ```ts
   * for await (const update of gateway.payments.watch(payment)) {
   *   console.log(update.status); // requires_action, processing, succeeded
   * }
   * ```
   * @throws {PollTimeoutError} after `timeoutMs`, as `waitForFinal` does; the other errors too.
   */
  watch(
    paymentOrId: PaymentCreated | string,
    options?: PollOptions,
  ): AsyncIterable<PaymentStatusResult> {
    return watch(this.#follow, paymentOrId, options);
  }

  /**
   * Follows many payments at once, for a backend with hundreds or thousands open: at most
   * `maxHeldReads` held status reads at a time (default 8), and every other payment learned by
   * sweeping the partner-wide list (`GET /v1/payments`, 200 a page) every `sweepIntervalMs`
   * (default 5 s), not by one read each. `for await` it for one `PaymentStatusChange` per status
   * change; a payment leaves after its final change, or after `timeoutMs` (default 15 minutes
   * from its `add`) with a `PollTimeoutError` to `onError`. Transient failures (outages, 5xx,
   * rate limiting) are reported to `onError` and retried after a backoff; they never end it.
   * `checkpoint()` and `resumeFrom` carry it across restarts (at-least-once delivery).
   * API-key clients only: the app scheme has no list to sweep.
   *
   * @example
   * ```ts
   * const follower = gateway.payments.follower({ onError: (error) => log.warn(error) });
   * follower.add(await gateway.payments.create({ amount, referenceId: 'order-1042' }));
   * for await (const change of follower) {
   *   if (change.isFinal) await settleOrder(change.paymentId, change.status, change.result);
   * }
   * ```
   * @throws {RequestValidationError} before anything is sent: a bad option (named), or a client
   * on the app scheme.
   */
  follower(options?: PaymentFollowerOptions): PaymentFollower {
    if (!Object.hasOwn(this.#context.transport.config.authHeaders, 'Api-Key')) {
      throw new RequestValidationError('payments.follower', [
        {
          field: 'apiKey',
          message:
            'the follower needs an API-key client: it sweeps the partner-wide list, which the app scheme (appId + clientId) cannot read; use payments.watch there',
        },
      ]);
    }
    return new LazyPaymentFollower(
      { ...this.#follow, reader: Payments.#reader(this.#context, 'payments.follower') },
      options,
    );
  }

  /**
   * The port follow code reads payments through (it imports nothing from resources/). A held read
   * is one attempt: a retry would ask again for a hold an intermediary has just cut.
   */
  static #reader(context: ResourceContext, operation: string): PaymentReader {
    return {
      status: (paymentId, merchantId, maxPollMs, signal) =>
        paymentStatus(
          context,
          operation,
          paymentId,
          () => ({ merchantId, maxPollMs }),
          maxPollMs === undefined ? { signal } : { signal, maxRetries: 0 },
        ),
      sweep: (params, signal) => listPartnerPayments(context, params, { signal }).pages(),
    };
  }

  /** What a follow of this client uses: its status read, merchant, hold limit and logger. */
  static #followContext(context: ResourceContext): FollowContext {
    const { config } = context.transport;
    // Only the apiKey scheme may use the merchant-side read; the app scheme reads the gateway's.
    const merchantSide = Object.hasOwn(config.authHeaders, 'Api-Key');
    return {
      reader: Payments.#reader(context, 'payments.status'),
      merchantId: merchantSide ? context.merchantId : undefined,
      merchantSide,
      holdLimit: context.holdLimit,
      logger: config.logger,
      redactor: config.redactor,
      telemetry: config.telemetry,
    };
  }
}

/** The body of POST /v1/payments, from checked params: amounts as strings, a Date as epoch seconds. */
type PaymentCreateBody = ReturnType<typeof paymentCreateBody>;

function paymentCreateBody(input: z.output<typeof PaymentCreateParamsSchema>) {
  const { expiresAt, checkout } = input;
  return {
    amount: { unit: input.amount.unit, value: String(input.amount.value) },
    referenceId: input.referenceId,
    ...(expiresAt === undefined
      ? {}
      : {
          expiresAt: expiresAt instanceof Date ? Math.floor(expiresAt.getTime() / 1000) : expiresAt,
        }),
    ...(checkout === undefined
      ? {}
      : { checkout: { successUrl: checkout.successUrl, errorUrl: checkout.errorUrl } }),
  };
}
