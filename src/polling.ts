import { RateLimitedError } from './core/api-error';
import { PollTimeoutError, RequestValidationError, type ValidationIssue } from './core/errors';
import type { Redactor } from './core/redact';
import { sleep } from './core/retry';
import type { RequestOptions } from './core/transport';
import { FINAL_PAYMENT_STATUSES, type PaymentCreated, type PaymentView } from './schemas/payments';

/** Options of `payments.waitForFinal` and `payments.watch`. */
export interface PollOptions {
  /** Stops polling at once, also during a wait or a read; rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * How long to poll, in milliseconds, before rejecting with `PollTimeoutError`.
   * At most 2147483647 (about 24.8 days).
   * @default 900000 (15 minutes)
   */
  timeoutMs?: number | undefined;
  /**
   * Milliseconds between reads when the service gives no `pollInMs`, e.g. when only an id is
   * given. Every wait is kept within [100 ms, 30 s].
   * @default 1000
   */
  intervalMs?: number | undefined;
  /** Called with the first view read and then once per status change, final one included. */
  onUpdate?: ((view: PaymentView) => void) | undefined;
}

/** Reads one payment view: `payments.get`. */
export type ReadPayment = (paymentId: string, options: RequestOptions) => PromiseLike<PaymentView>;

const DEFAULT_TIMEOUT_MS = 15 * 60_000;
const DEFAULT_INTERVAL_MS = 1_000;
const MIN_WAIT_MS = 100;
const MAX_WAIT_MS = 30_000;
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
  const { timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = DEFAULT_INTERVAL_MS, onUpdate } = options;
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
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
  return { paymentId, created, timeoutMs, intervalMs };
}

/** A view that says whether it is final is believed; otherwise only the documented final statuses are. */
function isFinal(view: PaymentView): boolean {
  if (typeof view.isFinal === 'boolean') return view.isFinal;
  return FINAL_PAYMENT_STATUSES.includes(view.status);
}

// A hint that is not a finite number (a hand-built PaymentCreated) must not turn into a 0 ms loop.
function hint(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function clamp(ms: number): number {
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, ms));
}

/**
 * Reads the payment until it is final, yielding the first view, then each view whose status
 * changed, then the final one, which it also returns. Every timer and listener is gone once it
 * settles or is closed (a `break` out of `for await` closes it).
 */
export async function* poll(
  read: ReadPayment,
  operation: string,
  paymentOrId: PaymentCreated | string,
  options: PollOptions = {},
  redactor?: Redactor,
): AsyncGenerator<PaymentView, PaymentView, undefined> {
  const { paymentId, created, timeoutMs, intervalMs } = plan(operation, paymentOrId, options);
  const { signal: callerSignal, onUpdate } = options;
  callerSignal?.throwIfAborted();

  // One signal for the caller's abort and our deadline: it cuts waits short and aborts reads.
  const controller = new AbortController();
  const onAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);

  let lastView: PaymentView | undefined;
  let pollInMs = hint(created?.pollInMs);
  const nextWait = () => clamp(pollInMs ?? intervalMs);
  try {
    let wait = created === undefined || created.isFinal ? 0 : nextWait();
    for (;;) {
      if (wait > 0) await sleep(wait, controller.signal);
      let view: PaymentView;
      try {
        view = await read(paymentId, { signal: controller.signal });
      } catch (error) {
        if (!(error instanceof RateLimitedError) || controller.signal.aborted) throw error;
        // The transport gave up; wait at least as long as the service asked, then read again.
        wait = Math.max(error.retryAfterMs ?? 0, nextWait());
        continue;
      }
      const changed = view.status !== lastView?.status;
      lastView = view;
      pollInMs = hint(view.pollInMs) ?? pollInMs;
      const final = created?.isFinal === true || isFinal(view);
      if (changed || final) {
        onUpdate?.(view);
        yield view;
      }
      if (final) return view;
      wait = nextWait();
    }
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timedOut) {
      // The error shows what the service sent, which must not carry the client's keys.
      const shown = redactor ? (redactor.value(lastView) as PaymentView | undefined) : lastView;
      throw new PollTimeoutError(operation, paymentId, timeoutMs, shown);
    }
    throw error;
  } finally {
    clearTimeout(deadline);
    callerSignal?.removeEventListener('abort', onAbort);
  }
}

/** Polls until the payment is final and resolves with that view. */
export async function waitForFinal(
  read: ReadPayment,
  paymentOrId: PaymentCreated | string,
  options?: PollOptions,
  redactor?: Redactor,
): Promise<PaymentView> {
  const updates = poll(read, 'payments.waitForFinal', paymentOrId, options, redactor);
  for (;;) {
    const step = await updates.next();
    if (step.done) return step.value;
  }
}

/** Polls until the payment is final, yielding the first view and each change of status. */
export function watch(
  read: ReadPayment,
  paymentOrId: PaymentCreated | string,
  options?: PollOptions,
  redactor?: Redactor,
): AsyncIterable<PaymentView> {
  return poll(read, 'payments.watch', paymentOrId, options, redactor);
}
