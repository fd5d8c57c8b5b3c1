/**
 * The relay's deliveries in this process: one queue per payment (its events in order, one in
 * flight at a time), a few payments delivered at once, each event retried with backoff and the
 * same `webhook-id`, then kept ("parked") for the next start when the receiver never took it.
 * Each payment's backoff is its own timer: no worker sleeps through it, and other payments' new
 * events (which wake idle workers) never shorten it.
 *
 * At most `maxHeld` events are held in memory: past that, events spill to disk (spill.ts) in the
 * order they came, and every later one follows them there until the spill is read back, half a
 * bound at a time, as deliveries free room. So the heap is bounded whatever the backlog, and one
 * payment's events keep their order (memory holds only events older than any on disk).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spill } from './spill';
import { attempt, type RelayEvent } from './webhook';

/**
 * Waits between attempts of one event: 5 s, 10 s, 20 s, 40 s, 80 s (each ±25 %), so 6 attempts over
 * about 2.5 minutes before it is kept for the next start (the contract: at least 5 over a minute).
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5_000, 10_000, 20_000, 40_000, 80_000];

export interface OutboxOptions {
  url: string;
  /** The `whsec_…` secret the SDK's signer signs with. */
  secret: string;
  /** Waits between attempts; an event gets `retryDelaysMs.length + 1` attempts. */
  retryDelaysMs: readonly number[];
  /** Payments delivered at once (each its own events in order). */
  concurrency: number;
  /** Per attempt. */
  timeoutMs: number;
  /** Events held in memory; the next ones spill to disk until deliveries catch up. */
  maxHeld: number;
  /**
   * Path prefix of the spill segments (`--state FILE`: beside it), kept until a saved state holds
   * what was read back; undefined: a temporary directory, removed at the end (nothing survives).
   */
  spillAt: string | undefined;
  warn(message: string): void;
  /** After each delivery (and parking): the relay saves state and may resume its follower. */
  onSettled(event: RelayEvent, delivered: boolean): void;
  /** The receiver answered 410 Gone: no more deliveries to it. */
  onGone(event: RelayEvent): void;
}

export class Outbox {
  readonly #options: OutboxOptions;
  readonly #queues = new Map<string, RelayEvent[]>();
  /** Payments whose head event can be delivered now, in the order they became ready. */
  #ready: string[] = [];
  #readyHead = 0;
  /** Payments whose head event used up its attempts: kept, not retried before the next start. */
  readonly #parked = new Set<string>();
  readonly #wakers = new Set<() => void>();
  /**
   * Payments waiting out their own backoff: the attempts their head event has had, and the timer
   * that makes them ready again. Only that timer (or the stop) ends the wait: new events of other
   * payments wake idle workers, never a payment in backoff.
   */
  readonly #backoff = new Map<string, ReturnType<typeof setTimeout>>();
  /** Failed attempts of each payment's head event so far. */
  readonly #failures = new Map<string, number>();
  #workers: Promise<void>[] = [];
  #stopping = false;
  #size = 0;
  #spill!: Spill;
  #temporary: string | undefined;
  #refilling: Promise<void> | undefined;

  constructor(options: OutboxOptions) {
    this.#options = options;
  }

  /**
   * Queues an event behind the earlier ones of its payment, in memory while there is room and
   * nothing older on disk, else on disk (the promise is backpressure while its lines are written).
   */
  push(event: RelayEvent): Promise<void> | undefined {
    const spill = this.#spill;
    if (spill.size > 0 || this.#refilling !== undefined) return spill.append(event);
    if (this.#size >= this.#options.maxHeld) {
      this.#options.warn(
        `${this.#size} events wait for delivery: the next ones spill to ${spill.where} until the receiver catches up`,
      );
      return spill.append(event);
    }
    this.#hold(event);
    return undefined;
  }

  #hold(event: RelayEvent): void {
    const paymentId = event.data.payment_id;
    let queue = this.#queues.get(paymentId);
    if (queue?.some((queued) => queued.id === event.id)) return;
    if (queue === undefined) {
      queue = [];
      this.#queues.set(paymentId, queue);
      this.#ready.push(paymentId);
      this.#wake();
    }
    queue.push(event);
    this.#size++;
  }

  /** Every event held in memory, each payment's in order: what the state keeps beside the spill. */
  events(): RelayEvent[] {
    return [...this.#queues.values()].flat();
  }

  /** The spill segment the state records (`spillFrom`), and every event pushed so far on disk. */
  persist(): { spillFrom: number; durable: Promise<void> } {
    return { spillFrom: this.#spill.from, durable: this.#spill.durable() };
  }

  /** A state recording `spillFrom` is saved: the segments read back before it go. */
  saved(spillFrom: number): Promise<void> {
    return this.#spill.release(spillFrom);
  }

  /** Takes back the saved events (into memory) and the spill a previous run left, then delivers. */
  async start(saved: { events: RelayEvent[]; spillFrom?: number | undefined }): Promise<void> {
    let base = this.#options.spillAt;
    if (base === undefined) {
      this.#temporary = await mkdtemp(join(tmpdir(), 'merchant-gateway-relay-'));
      base = join(this.#temporary, 'events');
    }
    this.#spill = await Spill.open({
      base,
      segmentSize: Math.max(1, Math.floor(this.#options.maxHeld / 2)),
      from: saved.spillFrom ?? 0,
      deleteOnRead: this.#temporary !== undefined,
    });
    // Older than anything on disk: held whatever their number (the state held them in memory before).
    for (const event of saved.events) this.#hold(event);
    this.#refill();
    for (let i = 0; i < this.#options.concurrency; i++) this.#workers.push(this.#worker());
  }

  /** After the last save: the segment being written closed (a temporary spill removed). */
  async close(): Promise<void> {
    await this.#refilling;
    await this.#spill?.close();
    if (this.#temporary !== undefined) await rm(this.#temporary, { recursive: true, force: true });
  }

  /** Reads the oldest spill segment back once memory is down to half its bound. */
  #refill(): void {
    const spill = this.#spill;
    if (this.#refilling !== undefined || this.#stopping) return;
    if (spill.size === 0 || this.#size > this.#options.maxHeld / 2) return;
    this.#refilling = spill
      .read((events) => {
        for (const event of events) this.#hold(event);
      })
      .then(
        () => {
          this.#refilling = undefined;
          if (spill.size === 0)
            this.#options.warn('the spill is read back: events held in memory again');
          this.#refill();
        },
        (error: Error) => {
          this.#refilling = undefined;
          this.#options.warn(`reading back ${spill.where}: ${error.message}`);
        },
      );
  }

  /** Stops taking events; resolves when the attempts in flight have ended (each at most `timeoutMs`). */
  async drain(): Promise<void> {
    this.#stopping = true;
    // Payments in backoff keep their event (the state saved at the end holds it).
    for (const timer of this.#backoff.values()) clearTimeout(timer);
    this.#backoff.clear();
    this.#wake();
    await Promise.all(this.#workers);
  }

  #wake(): void {
    for (const wake of this.#wakers) wake();
    this.#wakers.clear();
  }

  #next(): string | undefined {
    if (this.#readyHead >= this.#ready.length) return undefined;
    const paymentId = this.#ready[this.#readyHead++];
    if (this.#readyHead > 1024 && this.#readyHead * 2 > this.#ready.length) {
      this.#ready = this.#ready.slice(this.#readyHead);
      this.#readyHead = 0;
    }
    return paymentId;
  }

  async #worker(): Promise<void> {
    while (!this.#stopping) {
      const paymentId = this.#next();
      if (paymentId === undefined) {
        await new Promise<void>((resolve) => this.#wakers.add(resolve));
        continue;
      }
      const queue = this.#queues.get(paymentId) as RelayEvent[];
      const event = queue[0] as RelayEvent;
      const outcome = await this.#attempt(paymentId, event);
      if (outcome === 'stopped' || outcome === 'backoff') {
        // Stopped: kept as it is, the state saved at the end holds it and the next start delivers
        // it. Backoff: its own timer makes the payment ready again; the worker takes another.
        continue;
      }
      this.#failures.delete(paymentId);
      if (outcome === 'parked') {
        this.#parked.add(paymentId);
        this.#options.onSettled(event, false);
        continue;
      }
      queue.shift();
      this.#size--;
      if (queue.length > 0) this.#ready.push(paymentId);
      else this.#queues.delete(paymentId);
      this.#refill();
      this.#options.onSettled(event, true);
    }
  }

  /**
   * One attempt of a payment's head event. On a failure with attempts left the payment waits out
   * its own delay (its timer alone puts it back in the ready list), so other payments' traffic
   * never shortens it.
   */
  async #attempt(
    paymentId: string,
    event: RelayEvent,
  ): Promise<'delivered' | 'parked' | 'stopped' | 'backoff'> {
    const { url, secret, retryDelaysMs, timeoutMs, warn } = this.#options;
    const outcome = await attempt(url, secret, event, timeoutMs);
    if (outcome.ok) return 'delivered';
    if (outcome.gone) {
      this.#stopping = true;
      this.#wake();
      this.#options.onGone(event);
      return 'stopped';
    }
    const failed = this.#failures.get(paymentId) ?? 0;
    const delay = retryDelaysMs[failed];
    const what = `event ${event.id} (payment ${event.data.payment_id} ${event.type})`;
    if (delay === undefined) {
      warn(`${what}: ${outcome.reason} after ${failed + 1} attempts; kept for the next start`);
      return 'parked';
    }
    if (this.#stopping) return 'stopped';
    this.#failures.set(paymentId, failed + 1);
    const wait = Math.round(delay * (0.75 + Math.random() / 2));
    warn(`${what}: ${outcome.reason}; attempt ${failed + 2} in ${wait} ms`);
    const timer = setTimeout(() => {
      this.#backoff.delete(paymentId);
      if (this.#stopping) return;
      this.#ready.push(paymentId);
      this.#wake();
    }, wait);
    this.#backoff.set(paymentId, timer);
    return 'backoff';
  }
}
