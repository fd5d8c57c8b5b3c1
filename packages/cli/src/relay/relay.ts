/**
 * The relay: finds every open payment of the partner and follows it (following.ts), turns each
 * status change into one event for the sink (events.ts; deliveries here, or a PostgreSQL queue),
 * and keeps its state so that a restart loses nothing (saver.ts, state.ts).
 *
 * It never stops following, however slow the receiver: an intermediate status that lasts less
 * than the backlog takes to drain still yields its event. The sink bounds its own memory (the
 * outbox spills events to disk past its bound; PostgreSQL keeps the queue in the database).
 */
import type { MerchantGateway, PaymentStatusChange } from 'merchant-gateway';
import type { RelayEvent } from './envelope';
import { EventBuilder } from './events';
import { Following, firstState } from './following';
import { StateSaver } from './saver';
import type { RelayState, StateStore } from './state';

export { SETTLEMENT_WATCH_MS } from './events';

/** Where events go: deliveries in this process, or a shared queue. */
export interface EventSink {
  /**
   * Takes the changes themselves instead of events (`follow --all` prints them): no reads, no
   * envelope, no sequence.
   */
  change?(change: PaymentStatusChange): void;
  /** Takes one event (for one payment, after its earlier ones); a promise is backpressure. */
  push(event: RelayEvent): void | Promise<void> | undefined;
  /** The events to keep in the state (none when the sink keeps them itself). */
  events(): RelayEvent[];
  /** Before a save: the spill segment the state records, and every event pushed so far on disk. */
  persist?(): { spillFrom: number; durable: Promise<void> };
  /** A state recording `spillFrom` is saved. */
  saved?(spillFrom: number): Promise<void>;
  /** Takes back what a previous run saved (its events, before any new one), then delivers. */
  start(saved: Pick<RelayState, 'events' | 'spillFrom'>): void | Promise<void>;
  /** Ends the deliveries in flight, starts no more. */
  drain(): Promise<void>;
}

export interface RelayOptions {
  gateway: MerchantGateway;
  sink: EventSink;
  /** Undefined: nothing survives the process (`--state` or `--database-url` not given). */
  store: StateStore | undefined;
  /** `--sweep-interval`: the follower's sweeps and the look for new payments. */
  sweepIntervalMs: number;
  /** The events' `data.live`: the API key's mode. @default false */
  live?: boolean | undefined;
  /** Held status reads of the follower. */
  maxHeldReads?: number | undefined;
  /** The longest a change waits before the state holding it is written. @default 250 */
  saveEveryMs?: number | undefined;
  warn(message: string): void;
  /** Once the state is loaded (or the first listing done) and following has begun. */
  onStarted?(followed: number, resumed: boolean): void;
}

/** Why `run` ended: the stop signal, the receiver gone (410), or a permanent failure. */
export type RelayEnd =
  | { reason: 'stopped' }
  | { reason: 'gone' }
  | { reason: 'failed'; error: Error };

export class Relay {
  readonly #options: RelayOptions;
  #following: Following | undefined;
  #saver: StateSaver | undefined;
  #end!: (end: RelayEnd) => void;
  readonly #ended: Promise<RelayEnd>;

  constructor(options: RelayOptions) {
    this.#options = options;
    this.#ended = new Promise((resolve) => {
      this.#end = resolve;
    });
  }

  /** Payments followed. */
  get followed(): number {
    return this.#following?.size ?? 0;
  }

  /** Runs until `stop` settles or the relay cannot go on; drains and saves before resolving. */
  async run(stop: Promise<unknown>): Promise<RelayEnd> {
    const { gateway, sink, store, warn } = this.#options;
    const saved = await store?.load();
    const state = saved ?? (await firstState(gateway));
    const saver = new StateSaver({
      store,
      sink,
      state,
      checkpoint: () => following.checkpoint(),
      everyMs: this.#options.saveEveryMs ?? 250,
      warn,
    });
    const dirty = () => saver.dirty();
    const builder = new EventBuilder({
      gateway,
      state,
      sink,
      live: this.#options.live ?? false,
      warn,
      dirty,
    });
    const following = new Following({
      gateway,
      state,
      sweepIntervalMs: this.#options.sweepIntervalMs,
      maxHeldReads: this.#options.maxHeldReads,
      watchSettlements: sink.change === undefined,
      warn,
      onChange: (change) =>
        sink.change !== undefined
          ? sink.change(change)
          : builder.enqueue({
              paymentId: change.paymentId,
              merchantId: change.merchantId,
              status: change.status,
              isFinal: change.isFinal,
              observedAt: Date.now(),
            }),
      onSettlement: (change) => builder.enqueue(change),
      onLetGo: (paymentId) => builder.forget(paymentId),
      dirty,
      onFailed: (error) => this.#end({ reason: 'failed', error }),
    });
    this.#saver = saver;
    this.#following = following;

    await sink.start(state);
    // Changes seen before the last save whose events were not built yet: built first, in order.
    const pending = state.pending ?? [];
    state.pending = [];
    for (const change of pending) await builder.enqueue(change);
    following.follow();
    await saver.save();
    following.discover();
    this.#options.onStarted?.(this.followed, saved !== undefined);
    const end = await Promise.race([
      stop.then((): RelayEnd => ({ reason: 'stopped' })),
      this.#ended,
    ]);
    following.stop();
    builder.stop();
    // The builds under way end (their events pushed, or kept in `pending` for the next start).
    await builder.idle();
    await sink.drain();
    await saver.flush();
    return end;
  }

  /** The sink delivered (or parked) an event: save soon. */
  settled(): void {
    this.#saver?.dirty();
  }

  /** The receiver answered 410 Gone. */
  gone(): void {
    this.#end({ reason: 'gone' });
  }
}
