import type { ApiError } from '../core/errors/api-error';
import {
  type ConnectionError,
  PollTimeoutError,
  RequestValidationError,
  type ValidationIssue,
} from '../core/errors/base';
import { signalProblem } from '../core/http/prepare';
import { ownProperties } from '../core/safety/own-properties';
import { holdProcess, MAX_TIMER_MS, onAbort, sleep, withJitter } from '../core/timers';
import { merchantIdIssue } from '../core/validate';
import type { PaymentStatusResult } from '../schemas/payment-status';
import type { PaymentCreated } from '../schemas/payments';
import { Backoff, readStatus, type ServiceHolds } from './held-read';
import { clampWait, pollHint } from './policy';
import type { FollowContext } from './reader';

/**
 * A status result in a final status (`isFinal: true`): what `payments.waitForFinal` resolves. Not
 * a wire shape of its own (`PaymentStatusResultSchema` parses it): the status no longer changes;
 * `failureCode` says why a failed payment failed, `info` how a succeeded one was paid.
 */
export interface FinalPaymentStatusResult extends PaymentStatusResult {
  isFinal: true;
}

/**
 * A failed status read that a follow outlives: a `ConnectionError` (a `TimeoutError` included),
 * a `RateLimitedError`, or an `ApiError` with a 5xx status (a `ServerError`, or a proxy's 502/504).
 */
export type FollowReadError = ConnectionError | ApiError;

/** Options of `payments.waitForFinal` and `payments.watch`. */
export interface PollOptions {
  /** Stops polling at once, also during a wait or a held read; rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * How long to poll, in milliseconds, before rejecting with `PollTimeoutError`. Failed reads do
   * not shorten it: only this deadline, an abort or a permanent answer ends a follow.
   * At most 2147483647 (about 24.8 days).
   * @default 900000 (15 minutes)
   */
  timeoutMs?: number | undefined;
  /**
   * Milliseconds between the starts of two immediate reads when the service gives no `pollInMs`.
   * Every wait is kept within [100 ms, 30 s].
   * @default 1000
   */
  intervalMs?: number | undefined;
  /**
   * The merchant whose status read to use (`GET /v1/payments/{id}/status`, API-key clients only).
   * Falls back to the `merchantId` of the `PaymentCreated` given, then to the client's; with none
   * of them, or with the app scheme, polling reads the gateway's `GET /v1/gateway/payment/{id}/status`.
   */
  merchantId?: string | undefined;
  /** Called with the first result read and then once per status change, final one included. */
  onUpdate?: ((status: PaymentStatusResult) => void) | undefined;
  /**
   * Called with each failed read the follow outlives (no answer, a timeout, rate limiting, a
   * 5xx), after the transport's own retries, before the follow waits and reads again. The
   * follow also logs one `warn` line per failure. A permanent answer (400, 401, 403, 404, 409,
   * a `ResponseValidationError`) is not passed here: it rejects the follow.
   * @example
   * ```ts
   * await gateway.payments.waitForFinal(payment, {
   *   onError: (error) => metrics.increment('payment_follow.read_failed', { name: error.name }),
   * });
   * ```
   */
  onError?: ((error: FollowReadError) => void) | undefined;
}

const DEFAULT_TIMEOUT_MS = 15 * 60_000;
const DEFAULT_INTERVAL_MS = 1_000;

interface Plan {
  paymentId: string;
  /** The merchant side is read for it; undefined reads the gateway's side. */
  merchantId: string | undefined;
  pollInMs: number | undefined;
  timeoutMs: number;
  intervalMs: number;
}

function isPositive(value: unknown, max: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= max;
}

function plan(
  operation: string,
  paymentOrId: unknown,
  options: PollOptions,
  context: FollowContext,
): Plan {
  const issues: ValidationIssue[] = [];
  // Own properties only, like the options: a polluted prototype must not name the merchant.
  const payment = ownProperties(
    typeof paymentOrId === 'object' ? (paymentOrId as PaymentCreated | null) : undefined,
  );
  const paymentId =
    typeof paymentOrId === 'string'
      ? paymentOrId
      : typeof payment.paymentId === 'string'
        ? payment.paymentId
        : '';
  if (paymentId === '') {
    issues.push({
      field: 'paymentOrId',
      message: 'must be a payment id or the result of payments.create',
    });
  }
  const {
    timeoutMs = DEFAULT_TIMEOUT_MS,
    intervalMs = DEFAULT_INTERVAL_MS,
    onUpdate,
    onError,
    merchantId: optionMerchantId,
  } = options;
  const optionIssue =
    optionMerchantId === undefined ? undefined : merchantIdIssue(optionMerchantId);
  if (optionIssue) issues.push(optionIssue);
  const paymentMerchantId = payment.merchantId;
  const paymentIssue =
    paymentMerchantId === undefined
      ? undefined
      : merchantIdIssue(paymentMerchantId, 'paymentOrId.merchantId');
  if (paymentIssue) issues.push(paymentIssue);
  if (!isPositive(timeoutMs, MAX_TIMER_MS)) {
    issues.push({
      field: 'timeoutMs',
      message: `must be a positive number of milliseconds, at most ${MAX_TIMER_MS}`,
    });
  }
  if (!isPositive(intervalMs, Number.MAX_VALUE)) {
    issues.push({ field: 'intervalMs', message: 'must be a positive number of milliseconds' });
  }
  if (onUpdate !== undefined && typeof onUpdate !== 'function') {
    issues.push({ field: 'onUpdate', message: 'must be a function' });
  }
  if (onError !== undefined && typeof onError !== 'function') {
    issues.push({ field: 'onError', message: 'must be a function' });
  }
  // The call's merchant, else the payment's, else the client's (checked too, before any read).
  let merchantId = context.merchantSide ? (optionMerchantId ?? paymentMerchantId) : undefined;
  if (context.merchantSide && merchantId === undefined && context.merchantId !== undefined) {
    merchantId = context.merchantId;
    const clientIssue = merchantIdIssue(merchantId, 'merchantId', "the client's");
    if (clientIssue) issues.push(clientIssue);
  }
  // The same rule as every call's RequestOptions.signal.
  const badSignal = signalProblem(options.signal);
  if (badSignal !== undefined) issues.push({ field: 'signal', message: badSignal });
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
  return { paymentId, merchantId, pollInMs: pollHint(payment.pollInMs), timeoutMs, intervalMs };
}

/**
 * Reads the payment's status until it is final, yielding the first result, then each result whose
 * status changed, then the final one, which it also returns. Reads alternate between immediate
 * and held ones (see the contract's Polling section). A read that fails transiently is followed,
 * after a backoff, by another; only a permanent answer, the deadline or an abort ends it. Every
 * timer and listener is gone once it settles or is closed (a `break` out of `for await` closes it).
 */
export async function* poll(
  context: FollowContext,
  operation: string,
  paymentOrId: PaymentCreated | string,
  options: PollOptions = {},
): AsyncGenerator<PaymentStatusResult, FinalPaymentStatusResult, undefined> {
  // Own properties only: a polluted Object.prototype must not change how we poll.
  const opts = ownProperties(options);
  const {
    paymentId,
    merchantId,
    timeoutMs,
    intervalMs,
    pollInMs: hinted,
  } = plan(operation, paymentOrId, opts, context);
  const { signal: callerSignal, onUpdate, onError } = opts;
  const { logger, redactor } = context;
  callerSignal?.throwIfAborted();

  // One signal for the caller's abort and our deadline: it cuts waits short and aborts reads.
  const controller = new AbortController();
  // One listener per shared signal however many pollers use it (no MaxListeners warning).
  const offAbort = callerSignal
    ? onAbort(callerSignal, () => controller.abort(callerSignal.reason))
    : undefined;
  let timedOut = false;
  const deadlineAt = Date.now() + timeoutMs;
  const deadline = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  // A `watch` iterator dropped at a `yield` must not hold the process until its deadline. A live
  // follow always has a read or a wait pending, and those keep the process alive.
  holdProcess(deadline, false);

  let last: PaymentStatusResult | undefined;
  // The failure of the last read that completed, while no read has succeeded since.
  let failure: FollowReadError | undefined;
  const backoff = new Backoff();
  let pollInMs = hinted;
  const pace = () => clampWait(pollInMs ?? intervalMs);
  // Believed until a held read comes back early without a change.
  const service: ServiceHolds = { holds: true };
  let nextHeld = false;
  try {
    let wait = 0;
    for (;;) {
      if (wait > 0) await sleep(wait, controller.signal);
      const holdFor = nextHeld ? deadlineAt - Date.now() : undefined;
      const read = await readStatus(
        context,
        { paymentId, merchantId },
        holdFor,
        last,
        service,
        controller.signal,
      );
      if (!read.ok) {
        if (!read.transient) throw read.error;
        const failed = read.error as FollowReadError;
        failure = failed;
        wait = backoff.failed(pace(), failed);
        // After a failure nothing is known: read at once, then hold again.
        nextHeld = false;
        logger.log(
          'warn',
          `${operation}: ${failed.message}; still following (failure ${backoff.failures} in a row), next read in ${wait} ms`,
          { paymentId, failures: backoff.failures, waitMs: wait },
        );
        onError?.(failed);
        continue;
      }
      const { result, started, maxPollMs } = read;
      failure = undefined;
      backoff.succeeded();
      const changed = last !== undefined && result.status !== last.status;
      const first = last === undefined;
      last = result;
      pollInMs = pollHint(result.pollInMs) ?? pollInMs;
      if (first || changed || isFinal(result)) {
        onUpdate?.(result);
        yield result;
      }
      if (isFinal(result)) return result;
      // An immediate read that saw nothing new is followed at once by a held one; otherwise the
      // next read is immediate, no sooner than one pace after this one started.
      nextHeld = service.holds && maxPollMs === undefined && !changed;
      // Jitter (never below the pace) keeps pollers started together from reading in lockstep.
      wait = nextHeld ? 0 : started + withJitter(pace()) - Date.now();
    }
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timedOut) {
      // The error shows what the service sent, which must not carry the client's keys.
      const shown = redactor.value(last) as PaymentStatusResult | undefined;
      throw new PollTimeoutError(operation, paymentId, timeoutMs, shown, failure);
    }
    throw error;
  } finally {
    clearTimeout(deadline);
    offAbort?.();
  }
}

/** Final means the read said `isFinal: true`: an unknown status is not final. */
function isFinal(result: PaymentStatusResult): result is FinalPaymentStatusResult {
  return result.isFinal === true;
}

/** Polls until the payment is final and resolves with that result. */
export async function waitForFinal(
  context: FollowContext,
  paymentOrId: PaymentCreated | string,
  options?: PollOptions,
): Promise<FinalPaymentStatusResult> {
  const updates = traced(context, 'payments.waitForFinal', paymentOrId, options);
  for (;;) {
    const step = await updates.next();
    if (step.done) return step.value;
  }
}

/** Polls until the payment is final, yielding the first result and each change of status. */
export function watch(
  context: FollowContext,
  paymentOrId: PaymentCreated | string,
  options?: PollOptions,
): AsyncIterable<PaymentStatusResult> {
  return traced(context, 'payments.watch', paymentOrId, options);
}

/** `poll`, under one span for the whole follow when the client has telemetry. */
function traced(
  context: FollowContext,
  operation: string,
  paymentOrId: PaymentCreated | string,
  options: PollOptions | undefined,
): AsyncGenerator<PaymentStatusResult, FinalPaymentStatusResult, undefined> {
  // telemetry: the follow's span, its reads (through the reader it hands back) as children.
  const { telemetry } = context;
  if (telemetry === undefined) return poll(context, operation, paymentOrId, options);
  // The spans' chunk, once loaded, wraps the follow (the buyer's bundle carries none of this).
  return (async function* () {
    const loaded = await telemetry.ready;
    return yield* loaded.follow(operation, paymentOrId, context, (c) =>
      poll(c, operation, paymentOrId, options),
    );
  })();
}
