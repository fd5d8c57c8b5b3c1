/**
 * The relay's reading side: finds every open payment of the partner (a listing at its first start,
 * then a look for new payments every sweep), follows them with one `payments.follower()`, turns
 * each status change into one event for the sink (deliveries here, or a PostgreSQL queue), and
 * keeps its state so that a restart loses nothing.
 *
 * Memory stays bounded whatever the backlog: past `maxBacklog` undelivered events the follower is
 * closed after its checkpoint and reopened from it once half are delivered. Changes seen meanwhile
 * wait at the service, recorded by the checkpoint's last status: the reopened follower yields them.
 */
import {
  type MerchantGateway,
  type PaymentFollower,
  type PaymentFollowerCheckpoint,
  type PaymentFollowerCheckpointEntry,
  type PaymentStatusChange,
  PollTimeoutError,
} from '../../index';
import type { RelayState, StateStore } from './state';
import { eventOf, type RelayEvent } from './webhook';

/** The follower's longest per-payment deadline (setTimeout's limit): the relay re-adds past it. */
const FOLLOW_MS = 2_147_483_647;
/** Each look for new payments starts this long before the newest one found (a late commit, clocks). */
const OVERLAP_MS = 60_000;
const OPEN_STATUSES = ['requires_action', 'processing'] as const;

/** Where events go: deliveries in this process, or a shared queue. */
export interface EventSink {
  /** Takes one event (for one payment, after its earlier ones). */
  push(event: RelayEvent): void | Promise<void>;
  /** Events held in this process's memory. */
  readonly size: number;
  /** The events to keep in the state (none when the sink keeps them itself). */
  events(): RelayEvent[];
  start(): void | Promise<void>;
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
  /** Undelivered events held in memory before the follower pauses. */
  maxBacklog: number;
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
  #state!: RelayState;
  #follower: PaymentFollower | undefined;
  /** The checkpoint of a follower paused for backlog, until it is reopened. */
  #paused: PaymentFollowerCheckpoint | undefined;
  #discoveryTimer: ReturnType<typeof setTimeout> | undefined;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  #saving: Promise<void> | undefined;
  #stopping = false;
  #end!: (end: RelayEnd) => void;
  readonly #ended: Promise<RelayEnd>;

  constructor(options: RelayOptions) {
    this.#options = options;
    this.#ended = new Promise((resolve) => {
      this.#end = resolve;
    });
  }

  /** Payments followed (or waiting in a paused checkpoint). */
  get followed(): number {
    return this.#follower?.size ?? this.#paused?.payments.length ?? 0;
  }

  /** Runs until `stop` settles or the relay cannot go on; drains and saves before resolving. */
  async run(stop: Promise<unknown>): Promise<RelayEnd> {
    const { sink, store } = this.#options;
    const saved = await store?.load();
    this.#state = saved ?? (await this.#firstStart());
    for (const event of this.#state.events) await sink.push(event);
    await sink.start();
    this.#follow(this.#state.checkpoint);
    await this.#save();
    this.#scheduleDiscovery(0);
    this.#options.onStarted?.(this.followed, saved !== undefined);
    const end = await Promise.race([
      stop.then((): RelayEnd => ({ reason: 'stopped' })),
      this.#ended,
    ]);
    this.#stopping = true;
    clearTimeout(this.#discoveryTimer);
    const checkpoint = this.#checkpoint();
    this.#follower?.close();
    this.#paused = checkpoint;
    await sink.drain();
    clearTimeout(this.#saveTimer);
    await this.#saving;
    await this.#save();
    return end;
  }

  /** The sink delivered (or parked) an event: save soon, and reopen a paused follower at half. */
  settled(): void {
    this.#dirty();
    const paused = this.#paused;
    if (
      paused !== undefined &&
      !this.#stopping &&
      this.#options.sink.size <= this.#options.maxBacklog / 2
    ) {
      this.#paused = undefined;
      this.#follow(paused);
    }
  }

  /** The receiver answered 410 Gone. */
  gone(): void {
    this.#end({ reason: 'gone' });
  }

  /** The first start: every payment open now is followed from its current status (no event for it). */
  async #firstStart(): Promise<RelayState> {
    const startedAt = Date.now();
    const payments: PaymentFollowerCheckpointEntry[] = [];
    const list = this.#options.gateway.partnerPayments.list({
      status: [...OPEN_STATUSES],
      limit: 200,
    });
    for await (const payment of list) {
      const createdAt = Date.parse(payment.createdAt);
      payments.push({
        paymentId: payment.paymentId,
        merchantId: payment.merchant.id,
        status: payment.status,
        ...(Number.isFinite(createdAt) ? { createdAt } : {}),
        deadlineAt: startedAt + FOLLOW_MS,
      });
    }
    return {
      version: 1,
      startedAt,
      since: startedAt,
      recent: {},
      firstSeen: {},
      checkpoint: { version: 1, payments },
      events: [],
    };
  }

  #checkpoint(): PaymentFollowerCheckpoint {
    return this.#follower?.closed === false
      ? this.#follower.checkpoint()
      : (this.#paused ?? this.#state.checkpoint);
  }

  #follow(resumeFrom: PaymentFollowerCheckpoint): void {
    const follower = this.#options.gateway.payments.follower({
      resumeFrom,
      timeoutMs: FOLLOW_MS,
      sweepIntervalMs: this.#options.sweepIntervalMs,
      ...(this.#options.maxHeldReads === undefined
        ? {}
        : { maxHeldReads: this.#options.maxHeldReads }),
      onError: (error, paymentId) => {
        if (error instanceof PollTimeoutError && paymentId !== undefined) {
          // Open for the follower's whole 24.8 days: follow it on.
          const merchantId = resumeFrom.payments.find((p) => p.paymentId === paymentId)?.merchantId;
          if (merchantId !== undefined) follower.add({ paymentId, merchantId });
          return;
        }
        this.#options.warn(error.message);
      },
    });
    this.#follower = follower;
    void (async () => {
      try {
        for await (const change of follower) await this.#onChange(change, follower);
      } catch (error) {
        if (!this.#stopping) this.#end({ reason: 'failed', error: error as Error });
      }
    })();
  }

  async #onChange(change: PaymentStatusChange, follower: PaymentFollower): Promise<void> {
    const { sink, maxBacklog } = this.#options;
    if (change.previousStatus === undefined) {
      const seen = this.#state.firstSeen[change.paymentId];
      delete this.#state.firstSeen[change.paymentId];
      // First seen open: the status it had when found yields no event, only what follows it.
      if (!change.isFinal && seen === change.status) return;
    }
    await sink.push(eventOf(change));
    this.#dirty();
    if (sink.size >= maxBacklog && this.#follower === follower && !this.#stopping) {
      this.#options.warn(
        `${sink.size} events wait for delivery: following paused until half are delivered (the changes wait at the service)`,
      );
      this.#paused = follower.checkpoint();
      follower.close();
      this.#follower = undefined;
    }
  }

  // ------------------------------------------------------------ new payments

  #scheduleDiscovery(ms: number): void {
    if (this.#stopping) return;
    this.#discoveryTimer = setTimeout(() => {
      void this.#discover().then(
        () => this.#scheduleDiscovery(this.#options.sweepIntervalMs),
        (error: unknown) => {
          this.#options.warn(`looking for new payments: ${(error as Error).message}`);
          this.#scheduleDiscovery(this.#options.sweepIntervalMs);
        },
      );
    }, ms);
  }

  /** Lists the payments created since the last look (less the overlap) and follows the new ones. */
  async #discover(): Promise<void> {
    // Paused for backlog: the next look after it reopens finds them (the mark has not moved).
    if (this.#follower === undefined) return;
    const state = this.#state;
    const list = this.#options.gateway.partnerPayments.list({
      startTs: new Date(Math.max(0, state.since - OVERLAP_MS)),
      sortBy: 'date',
      sortDir: 'asc',
      limit: 200,
    });
    for await (const payment of list) {
      const follower = this.#follower;
      if (this.#stopping || follower === undefined) return;
      const createdAt = Date.parse(payment.createdAt);
      // Older ones: open then, the first start's listing has them; final then, they yield nothing.
      if (!(createdAt >= state.startedAt) || payment.paymentId in state.recent) continue;
      state.recent[payment.paymentId] = createdAt;
      if (createdAt > state.since) state.since = createdAt;
      // Added by id: its first read yields its status; only a final one (or a change) makes an event.
      state.firstSeen[payment.paymentId] = payment.status;
      follower.add({ paymentId: payment.paymentId, merchantId: payment.merchant.id });
      this.#dirty();
    }
    for (const [paymentId, createdAt] of Object.entries(state.recent)) {
      if (createdAt < state.since - OVERLAP_MS) delete state.recent[paymentId];
    }
  }

  // ------------------------------------------------------------ state

  #dirty(): void {
    if (this.#saveTimer !== undefined || this.#options.store === undefined) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      if (this.#saving !== undefined) {
        this.#dirty();
        return;
      }
      this.#saving = this.#save().finally(() => {
        this.#saving = undefined;
      });
    }, this.#options.saveEveryMs ?? 250);
  }

  async #save(): Promise<void> {
    const { store, sink } = this.#options;
    if (store === undefined) return;
    // One synchronous snapshot: every change the checkpoint counts as yielded is delivered or in `events`.
    const snapshot: RelayState = {
      ...this.#state,
      checkpoint: this.#checkpoint(),
      events: sink.events(),
    };
    try {
      await store.save(snapshot);
    } catch (error) {
      this.#options.warn(`saving the state to ${store.where}: ${(error as Error).message}`);
    }
  }
}
