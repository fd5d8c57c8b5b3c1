import { AuthenticationError } from '../core/api-error';
import { PollTimeoutError } from '../core/errors';
import {
  answeredEarly,
  clampWait,
  failureWaitMs,
  isTransient,
  MAX_HOLD_MS,
  pollHint,
} from '../core/follow-policy';
import { onAbort } from '../core/retry';
import type { FollowerTelemetry } from '../core/telemetry';
import { holdProcess } from '../core/timers';
import { paymentStatus } from '../resources/payment-actions';
import { listPartnerPayments } from '../resources/payment-list';
import type { ResourceContext } from '../resources/resource';
import type { MerchantPayment, MerchantPaymentsPage } from '../schemas/lists';
import type { PartnerPaymentListParams } from '../schemas/partner-payments';
import type { PaymentStatusResult } from '../schemas/payment-status';
import { entryOf, type FollowerSettings, type Seed } from './follower';
import type { PaymentFollowerCheckpoint, PaymentStatusChange } from './types';

const OPERATION = 'payments.follower';
const DEFAULT_PACE_MS = 1_000;
/** Items per sweep page: the list's largest page. */
export const SWEEP_PAGE_SIZE = 200;
/** Up to this many merchants, a sweep names them (`merchantId` repeated); past it, it lists all. */
export const SWEEP_MERCHANT_FILTER_MAX = 20;

/**
 * How far a status has moved along a payment's life; a source showing a lower rank than the one
 * known is behind (a list page older than a read), never a change. Unknown statuses have none.
 */
const RANK: Readonly<Record<string, number>> = {
  requires_action: 0,
  processing: 1,
  succeeded: 2,
  failed: 2,
  expired: 2,
  cancelled: 2,
};
/** The statuses a list item is trusted for without a status read: known and not final. */
const OPEN = new Set(['requires_action', 'processing']);
/**
 * Final statuses a list item is trusted for. Not `failed`: a 2026-02-18 list has no `cancelled`
 * and shows a cancelled payment as failed, so a failed item is confirmed by a status read (which
 * also gives its `failureCode`).
 */
const TRUSTED_FINAL = new Set(['succeeded', 'expired', 'cancelled']);

interface Entry {
  seed: Seed;
  /** The status last learned (yielded or waiting in the queue). */
  known: PaymentStatusResult | undefined;
  /** The status last yielded, what a checkpoint records. */
  yielded: string | undefined;
  /** When the source of `known` looked (a read's or page request's start), epoch ms. */
  learnedAt: number;
  createdAt: number | undefined;
  /** Final status learned: no more reads; it leaves once that change is yielded. */
  done: boolean;
  held: boolean;
  queued: boolean;
  /** The sweep number that last saw it in the list. */
  seenIn: number;
  /** Not found by a sweep that reached the end of the list: it is read directly each sweep. */
  unlisted: boolean;
  /** The sweep count when it was added: sweeps after it look for it. */
  since: number;
}

interface Change {
  entry: Entry;
  change: PaymentStatusChange;
}

function paceOf(result: PaymentStatusResult | undefined): number {
  return clampWait(pollHint(result?.pollInMs) ?? DEFAULT_PACE_MS);
}

/** Whether `result` tells something new about `known`. */
function differs(known: PaymentStatusResult | undefined, result: PaymentStatusResult): boolean {
  return known === undefined || known.status !== result.status || known.isFinal !== result.isFinal;
}

/** A binary min-heap of entries by deadline: the next timeout in O(log n), whatever the size. */
class Deadlines {
  readonly #heap: Entry[] = [];

  get size(): number {
    return this.#heap.length;
  }

  peek(): Entry | undefined {
    return this.#heap[0];
  }

  push(entry: Entry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as Entry).seed.deadlineAt <= entry.seed.deadlineAt) break;
      heap[i] = heap[parent] as Entry;
      i = parent;
    }
    heap[i] = entry;
  }

  pop(): Entry | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length &&
        (heap[right] as Entry).seed.deadlineAt < (heap[left] as Entry).seed.deadlineAt
          ? right
          : left;
      if ((heap[child] as Entry).seed.deadlineAt >= last.seed.deadlineAt) break;
      heap[i] = heap[child] as Entry;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * The reading side of `payments.follower()` (loaded on demand by `LazyPaymentFollower`).
 *
 * - `maxHeldReads` slots each keep one held status read open, on the payment most likely to
 *   change next: one in `processing` (the buyer has paid, the chain confirms within seconds),
 *   else the most recently added (a buyer just sent to checkout acts within minutes; older ones
 *   mostly expire). A held read answers the moment its payment changes.
 * - Every `sweepIntervalMs` a sweep reads the partner-wide list, newest first, 200 a page, from
 *   the oldest followed payment's creation (less a margin), naming the merchants when there are
 *   few, and stops as soon as it has seen every followed payment.
 * - One reader makes the immediate status reads: the first read of a payment added by id, the
 *   confirmation of a list item showing `failed` (a 2026-02-18 list shows a cancelled payment so)
 *   or a status it does not know, and payments the list did not show. While such reads wait, the
 *   held-read slots make them too, before holding again. So at most `maxHeldReads + 2` requests
 *   are open at once.
 */
export class FollowerEngine {
  readonly #context: ResourceContext;
  readonly #settings: FollowerSettings;
  readonly #entries = new Map<string, Entry>();
  /** Entries in the order added, for the newest-first pick (compacted as entries leave). */
  #order: Entry[] = [];
  /** Entries known to be in `processing`, oldest first. */
  readonly #processing = new Set<Entry>();
  readonly #deadlines = new Deadlines();
  readonly #readQueue: Entry[] = [];
  readonly #changes: Change[] = [];
  #changesHead = 0;
  readonly #consumers: {
    resolve: (step: IteratorResult<PaymentStatusChange>) => void;
    reject: (error: unknown) => void;
  }[] = [];
  readonly #controller = new AbortController();
  readonly #timers = new Set<Timer>();
  readonly #sleepers = new Set<() => void>();
  /** Slots and the reader waiting for work. */
  readonly #idle = new Set<() => void>();
  #deadlineTimer: Timer | undefined;
  #closed = false;
  /** Why the follower ended on its own (a permanent sweep failure, the caller's abort). */
  #failure: { error: unknown } | undefined;
  #failureDelivered = false;
  #sweeps = 0;
  /** Whether the service holds status reads; false after one came back early unchanged. */
  #serviceHolds = true;
  readonly #offAbort: (() => void) | undefined;
  readonly #telemetry: FollowerTelemetry | undefined;

  constructor(context: ResourceContext, settings: FollowerSettings, seeds: readonly Seed[]) {
    this.#context = context;
    this.#settings = settings;
    // telemetry: the follower's payments counter and time-to-final histogram, when on.
    this.#telemetry = context.transport.config.telemetry?.follower();
    const { signal } = settings;
    this.#offAbort = signal
      ? onAbort(signal, () => this.#fail({ error: signal.reason }))
      : undefined;
    for (const seed of seeds) this.add(seed);
    if (signal?.aborted) {
      this.#fail({ error: signal.reason });
      return;
    }
    for (let i = 0; i < settings.maxHeldReads; i++) void this.#slot();
    void this.#reader();
    void this.#sweeper();
  }

  // ------------------------------------------------------------ the public side

  get size(): number {
    return this.#entries.size;
  }

  get closed(): boolean {
    return this.#closed;
  }

  add(seed: Seed): void {
    if (this.#closed || this.#entries.has(seed.paymentId)) return;
    const entry: Entry = {
      seed,
      known: seed.known,
      yielded: seed.known?.status,
      learnedAt: 0,
      createdAt: seed.createdAt,
      done: false,
      held: false,
      queued: false,
      seenIn: 0,
      unlisted: false,
      since: this.#sweeps,
    };
    const wasEmpty = this.#entries.size === 0;
    this.#entries.set(seed.paymentId, entry);
    this.#telemetry?.added(seed.paymentId); // telemetry
    this.#order.push(entry);
    if (seed.known?.status === 'processing') this.#processing.add(entry);
    this.#deadlines.push(entry);
    this.#armDeadline();
    // A payment added by id yields its first status read, made at once.
    if (seed.known === undefined) this.#enqueueRead(entry);
    this.#wakeIdle();
    if (wasEmpty) this.#keepAlive();
  }

  remove(paymentId: string): void {
    const entry = this.#entries.get(paymentId);
    if (entry) this.#leave(entry);
  }

  checkpoint(): PaymentFollowerCheckpoint {
    const payments = [];
    for (const entry of this.#entries.values()) {
      payments.push(entryOf({ ...entry.seed, createdAt: entry.createdAt }, entry.yielded));
    }
    return { version: 1, payments };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#telemetry?.closed(); // telemetry
    this.#controller.abort();
    this.#offAbort?.();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (this.#deadlineTimer !== undefined) clearTimeout(this.#deadlineTimer);
    for (const wake of [...this.#sleepers, ...this.#idle]) wake();
    this.#changes.length = 0;
    this.#changesHead = 0;
    this.#settleConsumers();
  }

  iterator(): AsyncIterator<PaymentStatusChange> {
    return {
      next: () => this.#next(),
      return: async () => {
        this.close();
        return { done: true, value: undefined };
      },
    };
  }

  // ------------------------------------------------------------ delivery

  #next(): Promise<IteratorResult<PaymentStatusChange>> {
    const change = this.#take();
    if (change) return Promise.resolve({ done: false, value: change });
    if (this.#closed) return this.#ended();
    return new Promise((resolve, reject) => this.#consumers.push({ resolve, reject }));
  }

  /** The next queued change whose payment is still followed; marks it yielded. */
  #take(): PaymentStatusChange | undefined {
    while (this.#changesHead < this.#changes.length) {
      const item = this.#changes[this.#changesHead] as Change;
      this.#changes[this.#changesHead++] = undefined as unknown as Change;
      if (this.#changesHead > 1024 && this.#changesHead * 2 > this.#changes.length) {
        this.#changes.splice(0, this.#changesHead);
        this.#changesHead = 0;
      }
      const { entry, change } = item;
      // Removed or timed out since: its changes are not reported.
      if (this.#entries.get(change.paymentId) !== entry) continue;
      entry.yielded = change.status;
      if (change.isFinal) this.#leave(entry);
      return change;
    }
    return undefined;
  }

  #ended(): Promise<IteratorResult<PaymentStatusChange>> {
    if (this.#failure && !this.#failureDelivered) {
      this.#failureDelivered = true;
      return Promise.reject(this.#failure.error);
    }
    return Promise.resolve({ done: true, value: undefined });
  }

  #settleConsumers(): void {
    for (const consumer of this.#consumers.splice(0)) {
      this.#ended().then(consumer.resolve, consumer.reject);
    }
  }

  #report(entry: Entry, result: PaymentStatusResult, learnedAt: number): void {
    const previous = entry.known;
    entry.known = result;
    entry.learnedAt = learnedAt;
    if (result.status === 'processing') this.#processing.add(entry);
    else this.#processing.delete(entry);
    if (result.isFinal) {
      this.#telemetry?.final(entry.seed.paymentId, result.status); // telemetry
      entry.done = true;
      this.#processing.delete(entry);
    }
    const change: PaymentStatusChange = {
      paymentId: entry.seed.paymentId,
      merchantId: entry.seed.merchantId,
      status: result.status,
      isFinal: result.isFinal,
      previousStatus: previous?.status,
      result,
    };
    const consumer = this.#consumers.shift();
    if (consumer) {
      this.#changes.push({ entry, change });
      const next = this.#take();
      if (next) consumer.resolve({ done: false, value: next });
      else this.#consumers.unshift(consumer);
    } else {
      this.#changes.push({ entry, change });
    }
  }

  /** Takes in a status from a read or a list item: reports it when it is news. */
  #learn(entry: Entry, result: PaymentStatusResult, lookedAt: number): void {
    if (this.#closed || entry.done || this.#entries.get(entry.seed.paymentId) !== entry) return;
    if (!differs(entry.known, result)) return;
    const known = entry.known && RANK[entry.known.status];
    const now = RANK[result.status];
    // Statuses only move forward; without ranks, the fresher look wins.
    const forward =
      known === undefined || now === undefined ? lookedAt >= entry.learnedAt : now > known;
    if (!forward) return;
    this.#report(entry, result, lookedAt);
  }

  #leave(entry: Entry): void {
    if (this.#entries.get(entry.seed.paymentId) !== entry) return;
    this.#entries.delete(entry.seed.paymentId);
    this.#telemetry?.left(entry.seed.paymentId); // telemetry
    entry.done = true;
    this.#processing.delete(entry);
    // Compact the add order once most of it has left.
    if (this.#order.length > 64 && this.#entries.size * 2 < this.#order.length) {
      this.#order = this.#order.filter((e) => this.#entries.get(e.seed.paymentId) === e);
    }
    if (this.#entries.size === 0) this.#keepAlive();
  }

  #onError(error: unknown, paymentId: string | undefined): void {
    const err = error instanceof Error ? error : new Error(String(error));
    this.#context.transport.config.logger.log(
      'warn',
      `${OPERATION}: ${paymentId ? `payment ${paymentId}: ` : 'sweep: '}${err.message}`,
    );
    try {
      this.#settings.onError?.(err, paymentId);
    } catch (thrown) {
      this.#context.transport.config.logger.log(
        'warn',
        `${OPERATION}: onError threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
      );
    }
  }

  /** Ends the follower because of `failure`: the iterator rejects with it once, then ends. */
  #fail(failure: { error: unknown }): void {
    if (this.#closed) return;
    this.#failure = failure;
    this.close();
  }

  // ------------------------------------------------------------ timers

  /** Timers hold the process open only while payments are followed. */
  #keepAlive(): void {
    const busy = this.#entries.size > 0;
    for (const timer of [...this.#timers, this.#deadlineTimer]) {
      if (timer !== undefined) holdProcess(timer, busy);
    }
  }

  #timer(ms: number, run: () => void): Timer {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
    if (this.#entries.size === 0) holdProcess(timer, false);
    return timer;
  }

  /**
   * Waits `ms`, or less when the follower closes. Always at least one turn of the event loop:
   * fetch puts a connection back in its pool only then, and a read sent before would open another.
   */
  #sleep(ms: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#sleepers.delete(done);
        clearTimeout(timer);
        this.#timers.delete(timer);
        resolve();
      };
      this.#sleepers.add(done);
      const timer = this.#timer(Math.max(0, ms), done);
    });
  }

  /** Waits until there may be work (a payment added, a read queued) or the follower closes. */
  #waitForWork(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#idle.delete(done);
        resolve();
      };
      this.#idle.add(done);
    });
  }

  #wakeIdle(): void {
    for (const wake of [...this.#idle]) wake();
  }

  #armDeadline(): void {
    const first = this.#deadlines.peek();
    if (this.#closed || first === undefined) return;
    if (this.#deadlineTimer !== undefined) clearTimeout(this.#deadlineTimer);
    const wait = Math.min(2_147_483_647, Math.max(0, first.seed.deadlineAt - Date.now()));
    this.#deadlineTimer = setTimeout(() => this.#expire(), wait);
    if (this.#entries.size === 0) holdProcess(this.#deadlineTimer, false);
  }

  #expire(): void {
    this.#deadlineTimer = undefined;
    const now = Date.now();
    for (;;) {
      const first = this.#deadlines.peek();
      if (first === undefined || first.seed.deadlineAt > now) break;
      this.#deadlines.pop();
      // Gone already, or its final change waits to be yielded: not a timeout.
      if (first.done || this.#entries.get(first.seed.paymentId) !== first) continue;
      this.#leave(first);
      const shown = this.#context.transport.config.redactor.value(first.known) as
        | PaymentStatusResult
        | undefined;
      this.#onError(
        new PollTimeoutError(OPERATION, first.seed.paymentId, this.#settings.timeoutMs, shown),
        first.seed.paymentId,
      );
    }
    this.#armDeadline();
  }

  // ------------------------------------------------------------ reads

  #read(entry: Entry, maxPollMs: number | undefined): Promise<PaymentStatusResult> {
    const { seed } = entry;
    return paymentStatus(
      this.#context,
      OPERATION,
      seed.paymentId,
      () => ({ merchantId: seed.merchantId, maxPollMs }),
      { signal: this.#controller.signal },
    );
  }

  /**
   * A read that failed: a transient failure is reported and the caller backs off; a permanent one
   * ends this payment (an authentication failure ends the follower: no read can succeed).
   */
  #failed(entry: Entry, error: unknown): boolean {
    if (this.#closed) return false;
    if (isTransient(error)) {
      this.#onError(error, entry.seed.paymentId);
      return true;
    }
    if (error instanceof AuthenticationError) {
      this.#fail({ error });
      return false;
    }
    this.#leave(entry);
    this.#onError(error, entry.seed.paymentId);
    return false;
  }

  #pick(): Entry | undefined {
    for (const entry of this.#processing) {
      if (!entry.held && !entry.done) return entry;
    }
    for (let i = this.#order.length - 1; i >= 0; i--) {
      const entry = this.#order[i] as Entry;
      if (!entry.held && !entry.done && entry.known !== undefined) {
        if (this.#entries.get(entry.seed.paymentId) === entry) return entry;
      }
    }
    return undefined;
  }

  /** One held-read slot: keeps one held read open on the best candidate, one after another. */
  async #slot(): Promise<void> {
    let failures = 0;
    const readFailures = { count: 0 };
    while (!this.#closed) {
      // Immediate reads waiting (a burst of final statuses to confirm) come before holding: the
      // slot's connection serves them, so the follower never opens more than maxHeldReads + 2.
      if (this.#readQueue.length > 0 && (await this.#readQueued(readFailures))) continue;
      const entry = this.#pick();
      if (entry === undefined) {
        await this.#waitForWork();
        continue;
      }
      entry.held = true;
      const started = Date.now();
      const wanted = Math.min(MAX_HOLD_MS, entry.seed.deadlineAt - started);
      const maxPollMs = this.#serviceHolds ? this.#context.holdLimit.cap(wanted) : undefined;
      let wait: number;
      try {
        const result = await this.#read(entry, maxPollMs);
        failures = 0;
        const changed = differs(entry.known, result);
        this.#learn(entry, result, started);
        const lasted = Date.now() - started;
        if (maxPollMs !== undefined && !changed && answeredEarly(lasted, maxPollMs)) {
          // Answered early with nothing new: this service does not hold reads.
          this.#serviceHolds = false;
        }
        // Never faster than the service asked: the next read no sooner than a pace after this one.
        wait = started + paceOf(result) - Date.now();
      } catch (error) {
        if (maxPollMs !== undefined) this.#context.holdLimit.failed(Date.now() - started);
        if (!this.#failed(entry, error)) continue;
        failures++;
        wait = failureWaitMs(paceOf(entry.known), failures, error);
      } finally {
        entry.held = false;
      }
      await this.#sleep(wait);
    }
  }

  #enqueueRead(entry: Entry): void {
    if (entry.queued || entry.done) return;
    entry.queued = true;
    this.#readQueue.push(entry);
    this.#wakeIdle();
  }

  /** The one immediate reader: first reads, confirmations, payments the list did not show. */
  async #reader(): Promise<void> {
    const failures = { count: 0 };
    while (!this.#closed) {
      if (!(await this.#readQueued(failures))) await this.#waitForWork();
    }
  }

  /**
   * Makes the next queued immediate read, if any (false when the queue is empty). A transient
   * failure puts the payment back first in the queue, after a backoff.
   */
  async #readQueued(failures: { count: number }): Promise<boolean> {
    const entry = this.#readQueue.shift();
    if (entry === undefined) return false;
    entry.queued = false;
    if (entry.done || this.#entries.get(entry.seed.paymentId) !== entry) return true;
    const started = Date.now();
    try {
      const result = await this.#read(entry, undefined);
      failures.count = 0;
      this.#learn(entry, result, started);
      await this.#sleep(0);
    } catch (error) {
      if (this.#failed(entry, error)) {
        failures.count++;
        entry.queued = true;
        this.#readQueue.unshift(entry);
        await this.#sleep(failureWaitMs(paceOf(entry.known), failures.count, error));
      }
    }
    return true;
  }

  // ------------------------------------------------------------ sweeps

  /** The list query of one sweep, or undefined when nothing needs sweeping. */
  #sweepQuery(): { params: PartnerPaymentListParams; targets: number } | undefined {
    let targets = 0;
    let from = Number.POSITIVE_INFINITY;
    const merchants = new Set<string>();
    for (const entry of this.#entries.values()) {
      if (entry.done) continue;
      // Counted as the sweep about to start (number this.#sweeps + 1) will count it.
      targets++;
      merchants.add(entry.seed.merchantId);
      if (entry.unlisted) continue;
      const bound = entry.createdAt ?? entry.seed.notBefore;
      // A payment added by id, not yet seen: its creation is unknown, so no lower bound.
      from = Math.min(from, bound === undefined ? Number.NEGATIVE_INFINITY : bound);
    }
    if (targets === 0) return undefined;
    const params: PartnerPaymentListParams = {
      sortBy: 'date',
      sortDir: 'desc',
      limit: SWEEP_PAGE_SIZE,
    };
    // A minute of margin below the oldest creation: clocks and the service's rounding.
    if (Number.isFinite(from)) params.startTs = new Date(Math.max(0, from - 60_000));
    if (merchants.size <= SWEEP_MERCHANT_FILTER_MAX) params.merchantId = [...merchants].sort();
    return { params, targets };
  }

  async #sweeper(): Promise<void> {
    let failures = 0;
    while (!this.#closed) {
      const started = Date.now();
      let wait = this.#settings.sweepIntervalMs;
      if (this.#entries.size === 0) {
        await this.#waitForWork();
        continue;
      }
      try {
        await this.#sweep();
        failures = 0;
      } catch (error) {
        if (this.#closed) return;
        if (!isTransient(error)) {
          this.#fail({ error });
          return;
        }
        failures++;
        this.#onError(error, undefined);
        wait = failureWaitMs(this.#settings.sweepIntervalMs, failures, error);
      }
      await this.#sleep(started + wait - Date.now());
    }
  }

  /** One sweep: pages of the list until every followed payment was seen or the list ends. */
  async #sweep(): Promise<void> {
    const query = this.#sweepQuery();
    if (query === undefined) return;
    const sweep = ++this.#sweeps;
    const sweepStarted = Date.now();
    let unseen = query.targets;
    const pages = listPartnerPayments(this.#context, query.params, {
      signal: this.#controller.signal,
    })
      .pages()
      [Symbol.asyncIterator]();
    let complete = false;
    try {
      for (;;) {
        const requested = Date.now();
        const step: IteratorResult<MerchantPaymentsPage> = await pages.next();
        if (this.#closed) return;
        if (step.done) {
          complete = true;
          break;
        }
        for (const item of step.value.data) {
          const entry = this.#entries.get(item.paymentId);
          if (entry === undefined || entry.seenIn === sweep) continue;
          entry.seenIn = sweep;
          if (entry.since < sweep) unseen--;
          this.#fromList(entry, item, requested);
        }
        if (unseen <= 0) break;
        await this.#sleep(0);
        if (this.#closed) return;
      }
    } finally {
      if (!complete) await pages.return?.(undefined);
    }
    if (!complete) return;
    // The list ended without showing some: read those directly (a list that lags behind new
    // payments, an id whose creation is unknown), and stop letting them stretch later sweeps.
    for (const entry of this.#entries.values()) {
      if (entry.done || entry.seenIn === sweep || entry.since >= sweep) continue;
      if (entry.seed.deadlineAt < sweepStarted) continue;
      if (entry.createdAt === undefined) entry.unlisted = true;
      if (!entry.held) this.#enqueueRead(entry);
    }
  }

  /** What a list item says about a followed payment. */
  #fromList(entry: Entry, item: MerchantPayment, requested: number): void {
    const createdAt = Date.parse(item.createdAt);
    if (Number.isFinite(createdAt)) {
      entry.createdAt = createdAt;
      entry.unlisted = false;
    }
    if (entry.done || entry.known?.status === item.status) return;
    if (OPEN.has(item.status) && item.isTerminal !== true) {
      this.#learn(entry, { status: item.status, isFinal: false }, requested);
      return;
    }
    if (TRUSTED_FINAL.has(item.status) && item.isTerminal === true) {
      this.#learn(entry, { status: item.status, isFinal: true }, requested);
      return;
    }
    // Failed (perhaps a cancelled payment on a 2026-02-18 service), a status this SDK does not
    // know, or one whose isTerminal disagrees: a status read says what it is.
    const known = entry.known && RANK[entry.known.status];
    const shown = RANK[item.status];
    if (known !== undefined && shown !== undefined && shown <= known) return;
    this.#enqueueRead(entry);
  }
}
