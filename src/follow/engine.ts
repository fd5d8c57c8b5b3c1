import { AuthenticationError } from '../core/errors/api-error';
import { PollTimeoutError } from '../core/errors/base';
import { onAbort } from '../core/timers';
import type { PaymentStatusResult } from '../schemas/payment-status';
import { ChangeQueue } from './changes';
import { EngineClock } from './clock';
import {
  type Change,
  checkpointOf,
  Deadlines,
  type Entry,
  isNews,
  newEntry,
  paceOf,
  pickHeld,
  reportFailure,
} from './entries';
import { type FollowerSettings, OPERATION, type Seed } from './follower-input';
import { Backoff, readStatus, type ServiceHolds } from './held-read';
import type { FollowerIngestOutcome, IngestibleEvent } from './ingest';
import { ingestInto } from './ingest-step';
import { isTransient } from './policy';
import type { FollowContext } from './reader';
import { runSweep, type SweepHost, sweepQuery } from './sweep';
import type {
  PaymentStatusChangeSource as ChangeSource,
  PaymentFollowerCheckpoint,
  PaymentStatusChange,
} from './types';

/**
 * The reading side of `payments.follower()` (loaded on demand by `LazyPaymentFollower`).
 *
 * - `maxHeldReads` slots each keep one held status read open, on the payment most likely to
 *   change next: one in `processing` (the buyer has paid, the chain confirms within seconds),
 *   else the most recently added (a buyer just sent to checkout acts within minutes; older ones
 *   mostly expire). A held read answers the moment its payment changes.
 * - Every `sweepIntervalMs` a sweep reads the partner-wide list (`sweep.ts`).
 * - One reader makes the immediate status reads: the first read of a payment added by id, the
 *   confirmation of a list item showing `failed` (a 2026-02-18 list shows a cancelled payment so)
 *   or a status it does not know, and payments the list did not show. While such reads wait, the
 *   held-read slots make them too, before holding again. So at most `maxHeldReads + 2` requests
 *   are open at once.
 */
export class FollowerEngine implements SweepHost {
  readonly #context: FollowContext;
  readonly #settings: FollowerSettings;
  readonly #entries = new Map<string, Entry>();
  /** Entries in the order added, for the newest-first pick (compacted as entries leave). */
  #order: Entry[] = [];
  /** Entries known to be in `processing`, oldest first. */
  readonly #processing = new Set<Entry>();
  readonly #deadlines = new Deadlines();
  readonly #readQueue: Entry[] = [];
  readonly #changes = new ChangeQueue();
  readonly #controller = new AbortController();
  readonly #clock = new EngineClock();
  #closed = false;
  /** Why the follower ended on its own (a permanent sweep failure, the caller's abort). */
  #failure: { error: unknown } | undefined;
  #failureDelivered = false;
  #sweeps = 0;
  /** Whether the service holds status reads; false after one came back early unchanged. */
  readonly #service: ServiceHolds = { holds: true };
  readonly #offAbort: (() => void) | undefined;
  readonly #accept = (item: Change) => this.#accepted(item);

  constructor(context: FollowContext, settings: FollowerSettings, seeds: readonly Seed[]) {
    this.#context = context;
    this.#settings = settings;
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

  get closed(): boolean {
    return this.#closed;
  }

  get entries(): ReadonlyMap<string, Entry> {
    return this.#entries;
  }

  add(seed: Seed): void {
    if (this.#closed || this.#entries.has(seed.paymentId)) return;
    const entry = newEntry(seed, this.#sweeps);
    this.#entries.set(seed.paymentId, entry);
    this.#settings.telemetry?.added(seed.paymentId); // telemetry
    this.#order.push(entry);
    if (seed.known?.status === 'processing') this.#processing.add(entry);
    this.#deadlines.push(entry);
    this.#armDeadline();
    // A payment added by id yields its first status read, made at once.
    if (seed.known === undefined) this.enqueueRead(entry);
    this.#clock.wake();
    this.#keepAlive();
  }

  remove(paymentId: string): void {
    const entry = this.#entries.get(paymentId);
    if (entry) this.#leave(entry);
  }

  checkpoint(): PaymentFollowerCheckpoint {
    return checkpointOf(this.#entries.values());
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#settings.telemetry?.closed(); // telemetry
    this.#controller.abort();
    this.#offAbort?.();
    this.#clock.close();
    this.#changes.settle(() => this.#ended());
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
    const change = this.#changes.take(this.#accept);
    if (change) return Promise.resolve({ done: false, value: change });
    if (this.#closed) return this.#ended();
    const waiting = this.#changes.wait();
    this.#keepAlive();
    return waiting;
  }

  /** Whether a queued change is still news (its payment still followed); marks it yielded. */
  #accepted({ entry, change }: Change): boolean {
    // Removed or timed out since: its changes are not reported.
    if (this.#entries.get(change.paymentId) !== entry) return false;
    entry.yielded = change.status;
    if (change.isFinal) this.#leave(entry);
    return true;
  }

  #ended(): Promise<IteratorResult<PaymentStatusChange>> {
    if (this.#failure && !this.#failureDelivered) {
      this.#failureDelivered = true;
      return Promise.reject(this.#failure.error);
    }
    return Promise.resolve({ done: true, value: undefined });
  }

  #report(entry: Entry, result: PaymentStatusResult, at: number, source: ChangeSource): void {
    const previous = entry.known;
    entry.known = result;
    entry.learnedAt = at;
    if (result.status === 'processing') this.#processing.add(entry);
    else this.#processing.delete(entry);
    if (result.isFinal) {
      this.#settings.telemetry?.final(entry.seed.paymentId, result.status); // telemetry
      entry.done = true;
      this.#processing.delete(entry);
    }
    this.#changes.push({
      entry,
      change: {
        paymentId: entry.seed.paymentId,
        merchantId: entry.seed.merchantId,
        status: result.status,
        isFinal: result.isFinal,
        previousStatus: previous?.status,
        result,
        source,
      },
    });
    this.#changes.deliver(this.#accept);
    this.#keepAlive();
  }

  /** Takes in a status from a read or a list item: reports it when it is news. */
  learn(entry: Entry, result: PaymentStatusResult, lookedAt: number): void {
    if (this.#closed || entry.done || this.#entries.get(entry.seed.paymentId) !== entry) return;
    if (isNews(entry, result, lookedAt)) this.#report(entry, result, lookedAt, 'poll');
  }

  /** A webhook's snapshot of a followed payment (`ingest.ts`): reported when it is news. */
  ingest(event: IngestibleEvent): FollowerIngestOutcome {
    return ingestInto(this, event, (entry, result) => {
      this.#report(entry, result, Date.now(), 'webhook');
    });
  }

  #leave(entry: Entry): void {
    if (this.#entries.get(entry.seed.paymentId) !== entry) return;
    this.#entries.delete(entry.seed.paymentId);
    this.#settings.telemetry?.left(entry.seed.paymentId); // telemetry
    entry.done = true;
    this.#processing.delete(entry);
    // Compact the add order once most of it has left.
    if (this.#order.length > 64 && this.#entries.size * 2 < this.#order.length) {
      this.#order = this.#order.filter((e) => this.#entries.get(e.seed.paymentId) === e);
    }
    this.#keepAlive();
  }

  /** Reports a failure the follower outlives; `left` says whether its payment left with it. */
  #onError(error: unknown, paymentId: string | undefined, left: boolean): void {
    reportFailure(this.#context.logger, this.#settings.onError, error, paymentId, left);
  }

  /** Ends the follower because of `failure`: the iterator rejects with it once, then ends. */
  #fail(failure: { error: unknown }): void {
    if (this.#closed) return;
    this.#failure = failure;
    this.close();
  }

  // ------------------------------------------------------------ timers

  /**
   * The engine's timers hold the process open only while payments are followed and a `for await`
   * waits for the next change: a follower dropped with payments open lets Node exit.
   */
  #keepAlive(): void {
    this.#clock.hold(this.#entries.size > 0 && this.#changes.waiting > 0);
  }

  sleep(ms: number): Promise<void> {
    return this.#clock.sleep(ms);
  }

  #armDeadline(): void {
    const first = this.#deadlines.peek();
    if (first !== undefined) this.#clock.armDeadline(first.seed.deadlineAt, () => this.#expire());
  }

  #expire(): void {
    const now = Date.now();
    for (;;) {
      const first = this.#deadlines.peek();
      if (first === undefined || first.seed.deadlineAt > now) break;
      this.#deadlines.pop();
      // Gone already, or its final change waits to be yielded: not a timeout.
      if (first.done || this.#entries.get(first.seed.paymentId) !== first) continue;
      this.#leave(first);
      const shown = this.#context.redactor.value(first.known) as PaymentStatusResult | undefined;
      this.#onError(
        new PollTimeoutError(OPERATION, first.seed.paymentId, this.#settings.timeoutMs, shown),
        first.seed.paymentId,
        true,
      );
    }
    this.#armDeadline();
  }

  // ------------------------------------------------------------ reads

  /**
   * A read that failed: a transient failure is reported and the caller backs off (true); a
   * permanent one ends this payment (an authentication failure ends the follower: no read can
   * succeed).
   */
  #failed(entry: Entry, error: unknown, transient: boolean): boolean {
    if (this.#closed) return false;
    if (transient) {
      this.#onError(error, entry.seed.paymentId, false);
      return true;
    }
    if (error instanceof AuthenticationError) {
      this.#fail({ error });
      return false;
    }
    this.#leave(entry);
    this.#onError(error, entry.seed.paymentId, true);
    return false;
  }

  #readOf(entry: Entry, holdForMs: number | undefined) {
    const signal = this.#controller.signal;
    return readStatus(this.#context, entry.seed, holdForMs, entry.known, this.#service, signal);
  }

  /** One held-read slot: keeps one held read open on the best candidate, one after another. */
  async #slot(): Promise<void> {
    const backoff = new Backoff();
    const readBackoff = new Backoff();
    while (!this.#closed) {
      // Immediate reads waiting (a burst of final statuses to confirm) come before holding: the
      // slot's connection serves them, so the follower never opens more than maxHeldReads + 2.
      if (this.#readQueue.length > 0 && (await this.#readQueued(readBackoff))) continue;
      const entry = pickHeld(this.#processing, this.#order, this.#entries);
      if (entry === undefined) {
        await this.#clock.waitForWork();
        continue;
      }
      entry.held = true;
      const read = await this.#readOf(entry, entry.seed.deadlineAt - Date.now());
      entry.held = false;
      let wait: number;
      if (read.ok) {
        backoff.succeeded();
        this.learn(entry, read.result, read.started);
        // Never faster than the service asked: the next read no sooner than a pace after this one.
        wait = read.started + paceOf(read.result) - Date.now();
      } else {
        if (!this.#failed(entry, read.error, read.transient)) continue;
        wait = backoff.failed(paceOf(entry.known), read.error);
      }
      await this.#clock.sleep(wait);
    }
  }

  enqueueRead(entry: Entry): void {
    if (entry.queued || entry.done) return;
    entry.queued = true;
    this.#readQueue.push(entry);
    this.#clock.wake();
  }

  /** The one immediate reader: first reads, confirmations, payments the list did not show. */
  async #reader(): Promise<void> {
    const backoff = new Backoff();
    while (!this.#closed) {
      if (!(await this.#readQueued(backoff))) await this.#clock.waitForWork();
    }
  }

  /**
   * Makes the next queued immediate read, if any (false when the queue is empty). A transient
   * failure puts the payment back first in the queue, after a backoff.
   */
  async #readQueued(backoff: Backoff): Promise<boolean> {
    const entry = this.#readQueue.shift();
    if (entry === undefined) return false;
    entry.queued = false;
    if (entry.done || this.#entries.get(entry.seed.paymentId) !== entry) return true;
    const read = await this.#readOf(entry, undefined);
    if (read.ok) {
      backoff.succeeded();
      this.learn(entry, read.result, read.started);
      await this.#clock.sleep(0);
    } else if (this.#failed(entry, read.error, read.transient)) {
      entry.queued = true;
      this.#readQueue.unshift(entry);
      await this.#clock.sleep(backoff.failed(paceOf(entry.known), read.error));
    }
    return true;
  }

  // ------------------------------------------------------------ sweeps

  async #sweeper(): Promise<void> {
    const backoff = new Backoff();
    while (!this.#closed) {
      const started = Date.now();
      let wait = this.#settings.sweepIntervalMs;
      if (this.#entries.size === 0) {
        await this.#clock.waitForWork();
        continue;
      }
      try {
        await this.#sweep();
        backoff.succeeded();
      } catch (error) {
        if (this.#closed) return;
        if (!isTransient(error)) {
          this.#fail({ error });
          return;
        }
        this.#onError(error, undefined, false);
        wait = backoff.failed(this.#settings.sweepIntervalMs, error);
      }
      await this.#clock.sleep(started + wait - Date.now());
    }
  }

  async #sweep(): Promise<void> {
    const query = sweepQuery(this.#entries.values());
    if (query === undefined) return;
    const sweep = ++this.#sweeps;
    const pages = this.#context.reader.sweep(query.params, this.#controller.signal);
    await runSweep(this, pages, sweep, query.targets);
  }
}
