/**
 * The relay's deliveries in this process: one queue per payment (its events in order, one in
 * flight at a time), a few payments delivered at once, each event retried with backoff and the
 * same `webhook-id`, then kept ("parked") for the next start when the receiver never took it.
 */
import { attempt, type RelayEvent } from './webhook';

/**
 * Waits between attempts of one event: 5 s, 10 s, 20 s, 40 s, 80 s (each ±25 %), so 6 attempts over
 * about 2.5 minutes before it is kept for the next start (the contract: at least 5 over a minute).
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5_000, 10_000, 20_000, 40_000, 80_000];

export interface OutboxOptions {
  url: string;
  key: Buffer;
  /** Waits between attempts; an event gets `retryDelaysMs.length + 1` attempts. */
  retryDelaysMs: readonly number[];
  /** Payments delivered at once (each its own events in order). */
  concurrency: number;
  /** Per attempt. */
  timeoutMs: number;
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
  #workers: Promise<void>[] = [];
  #stopping = false;
  #size = 0;

  constructor(options: OutboxOptions) {
    this.#options = options;
  }

  /** Events held (queued, in flight or parked). */
  get size(): number {
    return this.#size;
  }

  /** Queues an event behind the earlier ones of its payment; one already queued is not repeated. */
  push(event: RelayEvent): void {
    const paymentId = event.data.paymentId;
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

  /** Every event held, each payment's in order: what the state keeps. */
  events(): RelayEvent[] {
    return [...this.#queues.values()].flat();
  }

  start(): void {
    for (let i = 0; i < this.#options.concurrency; i++) this.#workers.push(this.#worker());
  }

  /** Stops taking events; resolves when the attempts in flight have ended (each at most `timeoutMs`). */
  async drain(): Promise<void> {
    this.#stopping = true;
    this.#wake();
    await Promise.all(this.#workers);
  }

  #wake(): void {
    for (const wake of this.#wakers) wake();
    this.#wakers.clear();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wakers.add(done);
    });
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
      const outcome = await this.#deliver(event);
      if (outcome === 'stopped') {
        // Kept as it is: the state saved at the end holds it, the next start delivers it.
        continue;
      }
      if (outcome === 'parked') {
        this.#parked.add(paymentId);
        this.#options.onSettled(event, false);
        continue;
      }
      queue.shift();
      this.#size--;
      if (queue.length > 0) this.#ready.push(paymentId);
      else this.#queues.delete(paymentId);
      this.#options.onSettled(event, true);
    }
  }

  async #deliver(event: RelayEvent): Promise<'delivered' | 'parked' | 'stopped'> {
    const { url, key, retryDelaysMs, timeoutMs, warn } = this.#options;
    for (let i = 0; ; i++) {
      const outcome = await attempt(url, key, event, timeoutMs);
      if (outcome.ok) return 'delivered';
      if (outcome.gone) {
        this.#stopping = true;
        this.#wake();
        this.#options.onGone(event);
        return 'stopped';
      }
      const delay = retryDelaysMs[i];
      if (delay === undefined) {
        warn(
          `event ${event.id} (payment ${event.data.paymentId} ${event.data.status}): ${outcome.reason} after ${i + 1} attempts; kept for the next start`,
        );
        return 'parked';
      }
      const wait = Math.round(delay * (0.75 + Math.random() / 2));
      warn(
        `event ${event.id} (payment ${event.data.paymentId} ${event.data.status}): ${outcome.reason}; attempt ${i + 2} in ${wait} ms`,
      );
      if (this.#stopping) return 'stopped';
      await this.#sleep(wait);
      if (this.#stopping) return 'stopped';
    }
  }
}
