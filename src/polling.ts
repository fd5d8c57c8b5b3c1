import * as z from 'zod/mini';
import { RateLimitedError } from './core/api-error';
import { PollTimeoutError, RequestValidationError, type ValidationIssue } from './core/errors';
import { signalProblem } from './core/options';
import { own } from './core/own';
import type { Redactor } from './core/redact';
import { onAbort, sleep, withJitter } from './core/retry';
import type { RequestOptions } from './core/transport';
import type { PaymentStatusResult } from './schemas/payment-status';
import { MerchantIdSchema, type PaymentCreated } from './schemas/payments';

/** Options of `payments.waitForFinal` and `payments.watch`. */
export interface PollOptions {
  /** Stops polling at once, also during a wait or a held read; rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * How long to poll, in milliseconds, before rejecting with `PollTimeoutError`.
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
   * Falls back to the client's; with neither, or with the app scheme, polling reads the gateway's
   * `GET /v1/gateway/payment/{id}/status`.
   */
  merchantId?: string | undefined;
  /** Called with the first result read and then once per status change, final one included. */
  onUpdate?: ((status: PaymentStatusResult) => void) | undefined;
}

/**
 * Reads one payment status: immediate when `maxPollMs` is undefined, else held up to `maxPollMs`
 * until the status changes.
 */
export type ReadStatus = (
  paymentId: string,
  maxPollMs: number | undefined,
  options: RequestOptions,
) => PromiseLike<PaymentStatusResult>;

const DEFAULT_TIMEOUT_MS = 15 * 60_000;
const DEFAULT_INTERVAL_MS = 1_000;
const MIN_WAIT_MS = 100;
const MAX_WAIT_MS = 30_000;
/** The longest `maxPollMs` a held read asks for. */
const MAX_HOLD_MS = 30_000;
// setTimeout fires at once past this, which would turn a long timeout into an immediate one.
const MAX_TIMEOUT_MS = 2_147_483_647;

interface Plan {
  paymentId: string;
  created: PaymentCreated | undefined;
  timeoutMs: number;
  intervalMs: number;
}

function isPositive(value: unknown, max: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= max;
}

function plan(operation: string, paymentOrId: unknown, options: PollOptions): Plan {
  const issues: ValidationIssue[] = [];
  let paymentId = '';
  let created: PaymentCreated | undefined;
  if (typeof paymentOrId === 'string') {
    paymentId = paymentOrId;
  } else if (typeof paymentOrId === 'object' && paymentOrId !== null) {
    created = paymentOrId as PaymentCreated;
    paymentId = typeof created.paymentId === 'string' ? created.paymentId : '';
  }
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
    merchantId,
  } = options;
  if (merchantId !== undefined && !z.safeParse(MerchantIdSchema, merchantId).success) {
    issues.push({
      field: 'merchantId',
      message: 'must be a non-empty merchant id of visible ASCII characters',
    });
  }
  if (!isPositive(timeoutMs, MAX_TIMEOUT_MS)) {
    issues.push({
      field: 'timeoutMs',
      message: `must be a positive number of milliseconds, at most ${MAX_TIMEOUT_MS}`,
    });
  }
  if (!isPositive(intervalMs, Number.MAX_VALUE)) {
    issues.push({ field: 'intervalMs', message: 'must be a positive number of milliseconds' });
  }
  if (onUpdate !== undefined && typeof onUpdate !== 'function') {
    issues.push({ field: 'onUpdate', message: 'must be a function' });
  }
  // The same rule as every call's RequestOptions.signal.
  const badSignal = signalProblem(options.signal);
  if (badSignal !== undefined) issues.push({ field: 'signal', message: badSignal });
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
  return { paymentId, created, timeoutMs, intervalMs };
}

// A hint that is not a finite number (a hand-built PaymentCreated) must not turn into a 0 ms loop.
function hint(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function clamp(ms: number): number {
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, ms));
}

/**
 * A held read that answers this much before its `maxPollMs` without a change shows a service that
 * does not hold reads (a slack for clocks and the network, up to 1 s).
 */
function answeredEarly(elapsedMs: number, maxPollMs: number): boolean {
  return elapsedMs < maxPollMs - Math.min(1000, maxPollMs / 10);
}

/**
 * Reads the payment's status until it is final, yielding the first result, then each result whose
 * status changed, then the final one, which it also returns. Reads alternate between immediate
 * and held ones (see the contract's Polling section). Every timer and listener is gone once it
 * settles or is closed (a `break` out of `for await` closes it).
 */
export async function* poll(
  read: ReadStatus,
  operation: string,
  paymentOrId: PaymentCreated | string,
  options: PollOptions = {},
  redactor?: Redactor,
): AsyncGenerator<PaymentStatusResult, PaymentStatusResult, undefined> {
  // Own properties only: a polluted Object.prototype must not change how we poll.
  const opts = own(options);
  const { paymentId, created, timeoutMs, intervalMs } = plan(operation, paymentOrId, opts);
  const { signal: callerSignal, onUpdate } = opts;
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

  let last: PaymentStatusResult | undefined;
  let pollInMs = hint(created?.pollInMs);
  const pace = () => clamp(pollInMs ?? intervalMs);
  // Believed until a held read comes back early without a change.
  let serviceHolds = true;
  let nextHeld = false;
  try {
    let wait = 0;
    for (;;) {
      if (wait > 0) await sleep(wait, controller.signal);
      const started = Date.now();
      const maxPollMs: number | undefined =
        nextHeld && serviceHolds
          ? Math.max(1, Math.min(MAX_HOLD_MS, deadlineAt - started))
          : undefined;
      let result: PaymentStatusResult;
      try {
        result = await read(paymentId, maxPollMs, { signal: controller.signal });
      } catch (error) {
        if (!(error instanceof RateLimitedError) || controller.signal.aborted) throw error;
        // The transport gave up; wait at least as long as the service asked, then read again.
        wait = Math.max(error.retryAfterMs ?? 0, pace());
        continue;
      }
      const changed = last !== undefined && result.status !== last.status;
      const first = last === undefined;
      last = result;
      pollInMs = hint(result.pollInMs) ?? pollInMs;
      const final = created?.isFinal === true || result.isFinal === true;
      if (first || changed || final) {
        onUpdate?.(result);
        yield result;
      }
      if (final) return result;
      if (maxPollMs !== undefined && !changed && answeredEarly(Date.now() - started, maxPollMs)) {
        serviceHolds = false;
      }
      // An immediate read that saw nothing new is followed at once by a held one; otherwise the
      // next read is immediate, no sooner than one pace after this one started.
      nextHeld = serviceHolds && maxPollMs === undefined && !changed;
      // Jitter (never below the pace) keeps pollers started together from reading in lockstep.
      wait = nextHeld ? 0 : started + withJitter(pace()) - Date.now();
    }
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timedOut) {
      // The error shows what the service sent, which must not carry the client's keys.
      const shown = redactor ? (redactor.value(last) as PaymentStatusResult | undefined) : last;
      throw new PollTimeoutError(operation, paymentId, timeoutMs, shown);
    }
    throw error;
  } finally {
    clearTimeout(deadline);
    offAbort?.();
  }
}

/** Polls until the payment is final and resolves with that result. */
export async function waitForFinal(
  read: ReadStatus,
  paymentOrId: PaymentCreated | string,
  options?: PollOptions,
  redactor?: Redactor,
): Promise<PaymentStatusResult> {
  const updates = poll(read, 'payments.waitForFinal', paymentOrId, options, redactor);
  for (;;) {
    const step = await updates.next();
    if (step.done) return step.value;
  }
}

/** Polls until the payment is final, yielding the first result and each change of status. */
export function watch(
  read: ReadStatus,
  paymentOrId: PaymentCreated | string,
  options?: PollOptions,
  redactor?: Redactor,
): AsyncIterable<PaymentStatusResult> {
  return poll(read, 'payments.watch', paymentOrId, options, redactor);
}
