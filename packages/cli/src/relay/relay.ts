/**
 * The relay's reading side: finds every open payment of the partner (a listing at its first start,
 * then a look for new payments every sweep), follows them with one `payments.follower()`, turns
 * each status change into one event for the sink (deliveries here, or a PostgreSQL queue), and
 * keeps its state so that a restart loses nothing.
 *
 * It never stops following, however slow the receiver: an intermediate status that lasts less
 * than the backlog takes to drain still yields its event. The sink bounds its own memory (the
 * outbox spills events to disk past its bound; PostgreSQL keeps the queue in the database).
 */
import {
  type MerchantGateway,
  OPEN_PAYMENT_STATUSES,
  type PaymentFollower,
  type PaymentFollowerCheckpoint,
  type PaymentFollowerCheckpointEntry,
  type PaymentStatusChange,
  type PaymentView,
  PollTimeoutError,
} from 'merchant-gateway';
import {
  envelopeOf,
  missingStages,
  type PaymentFacts,
  type RelayEvent,
  stageTimesOf,
} from './envelope';
import type { PendingChange, RelayState, StateStore } from './state';

/** The follower's longest per-payment deadline (setTimeout's limit): the relay re-adds past it. */
const FOLLOW_MS = 2_147_483_647;
/** Each look for new payments starts this long before the newest one found (a late commit, clocks). */
const OVERLAP_MS = 60_000;
/** Events built at once (each a few reads): one payment's stay in order. */
const BUILDING = 16;
/** What the list's `referenceId` filter takes (the SDK refuses other values before sending). */
const REFERENCE = /^[A-Za-z0-9 /:.,+-]{3,35}$/;
/** The first pause before the reads of an event are made again (doubling up to MAX_REREAD_MS). */
const FIRST_REREAD_MS = 250;
const MAX_REREAD_MS = 30_000;
/** How long a succeeded payment is read for its settlement (`payment.settled`) at most. */
export const SETTLEMENT_WATCH_MS = 24 * 60 * 60 * 1000;

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
  #state!: RelayState;
  #follower: PaymentFollower | undefined;
  /** The checkpoint of the follower closed at the stop. */
  #last: PaymentFollowerCheckpoint | undefined;
  #discoveryTimer: ReturnType<typeof setTimeout> | undefined;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  #saving: Promise<void> | undefined;
  #stopping = false;
  /** Events being built (their reads in flight), at most BUILDING at once. */
  readonly #inflight = new Set<Promise<void>>();
  /** Each payment's last build: the next one of that payment starts after it (their order). */
  readonly #tails = new Map<string, Promise<void>>();
  /** Each followed payment's buyer-facing view (its `expiresAt`), read once. */
  readonly #views = new Map<string, PaymentView>();
  /** When each payment awaiting its settlement was last read (epoch ms). */
  readonly #settleReads = new Map<string, number>();
  /** Builds waiting to read a payment again: woken (to stop) when the relay stops. */
  readonly #pauses = new Set<() => void>();
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
    return this.#follower?.size ?? 0;
  }

  /** Runs until `stop` settles or the relay cannot go on; drains and saves before resolving. */
  async run(stop: Promise<unknown>): Promise<RelayEnd> {
    const { sink, store } = this.#options;
    const saved = await store?.load();
    this.#state = saved ?? (await this.#firstStart());
    await sink.start(this.#state);
    // Changes seen before the last save whose events were not built yet: built first, in order.
    const pending = this.#state.pending ?? [];
    this.#state.pending = [];
    for (const change of pending) await this.#enqueue(change);
    this.#follow(this.#state.checkpoint);
    await this.#save();
    this.#scheduleDiscovery(0);
    this.#options.onStarted?.(this.followed, saved !== undefined);
    const end = await Promise.race([
      stop.then((): RelayEnd => ({ reason: 'stopped' })),
      this.#ended,
    ]);
    this.#stopping = true;
    for (const wake of this.#pauses) wake();
    this.#pauses.clear();
    clearTimeout(this.#discoveryTimer);
    const checkpoint = this.#checkpoint();
    this.#follower?.close();
    this.#last = checkpoint;
    // The builds under way end (their events pushed, or kept in `pending` for the next start).
    await Promise.all(this.#inflight);
    await sink.drain();
    clearTimeout(this.#saveTimer);
    await this.#saving;
    await this.#save();
    return end;
  }

  /** The sink delivered (or parked) an event: save soon. */
  settled(): void {
    this.#dirty();
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
      status: [...OPEN_PAYMENT_STATUSES],
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
      : (this.#last ?? this.#state.checkpoint);
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
        for await (const change of follower) await this.#onChange(change);
      } catch (error) {
        if (!this.#stopping) this.#end({ reason: 'failed', error: error as Error });
      }
    })();
  }

  async #onChange(change: PaymentStatusChange): Promise<void> {
    if (change.previousStatus === undefined) {
      const seen = this.#state.firstSeen[change.paymentId];
      delete this.#state.firstSeen[change.paymentId];
      // First seen open: the status it had when found yields no event, only what follows it.
      if (!change.isFinal && seen === change.status) return;
    }
    if (this.#options.sink.change !== undefined) {
      this.#options.sink.change(change);
      return;
    }
    await this.#enqueue({
      paymentId: change.paymentId,
      merchantId: change.merchantId,
      status: change.status,
      isFinal: change.isFinal,
      observedAt: Date.now(),
    });
  }

  /**
   * Records a change in the state's `pending` at once (so a save from now on keeps it, whatever the
   * reads still to come), then builds its event after that payment's earlier ones; at most
   * BUILDING builds run at once (the follower waits).
   */
  async #enqueue(change: PendingChange): Promise<void> {
    this.#state.pending ??= [];
    this.#state.pending.push(change);
    const tail = this.#tails.get(change.paymentId) ?? Promise.resolve();
    const build: Promise<void> = tail
      .then(() => this.#emit(change))
      .catch((error: unknown) =>
        this.#options.warn(`building an event: ${(error as Error).message}`),
      )
      .finally(() => {
        this.#inflight.delete(build);
        if (this.#tails.get(change.paymentId) === build) this.#tails.delete(change.paymentId);
      });
    this.#tails.set(change.paymentId, build);
    this.#inflight.add(build);
    if (this.#inflight.size >= BUILDING) await Promise.race(this.#inflight);
  }

  /**
   * Reads the payment (details, list item, buyer-facing view), builds the service's envelope with
   * the payment's next sequence number, and hands it to the sink. The reads are made again (after
   * a growing pause) until none fails and the event carries every stage its type implies; a stop
   * meanwhile leaves the change in `pending`. A succeeded payment not settled yet is watched for
   * its settlement.
   */
  async #emit(change: PendingChange): Promise<void> {
    const { paymentId, merchantId, status, isFinal, observedAt } = change;
    const state = this.#state;
    state.sequence ??= {};
    state.settling ??= {};
    state.stages ??= {};
    const { sequence, settling, stages } = state;
    const createdAt = this.#createdAt(paymentId);
    const live = this.#options.live ?? false;
    const build = (status: string, facts: PaymentFacts, version: number): RelayEvent =>
      envelopeOf(
        { paymentId, merchantId, status, version, observedAt, createdAt, live },
        facts,
        stages[paymentId],
      );
    let facts: PaymentFacts;
    for (let pause = FIRST_REREAD_MS, said = false; ; pause = Math.min(pause * 2, MAX_REREAD_MS)) {
      const read = await this.#facts(paymentId, merchantId, createdAt);
      facts = read.facts;
      const trial = build(status, facts, 0);
      const missing = [
        ...missingStages(trial),
        ...(trial.type === 'payment.succeeded' && trial.data.settled !== null
          ? missingStages(build('settled', facts, 0))
          : []),
      ];
      if (read.complete && missing.length === 0) break;
      if (missing.length > 0 && read.complete && !said) {
        said = true;
        this.#options.warn(
          `${paymentId} ${trial.type}: the service shows no ${missing.join(', ')} stage yet; reading it again`,
        );
      }
      if (!(await this.#pause(pause))) return; // stopping: kept in `pending` for the next start
    }
    const next = (status: string): RelayEvent => {
      const version = sequence[paymentId] ?? 0;
      sequence[paymentId] = version + 1;
      const event = build(status, facts, version);
      // The times given now are the payment's from here on (a restart keeps them with the state).
      stages[paymentId] = { ...stageTimesOf(event), ...stages[paymentId] };
      return event;
    };
    const event = next(status);
    const settledToo = event.type === 'payment.succeeded' && event.data.settled !== null;
    const events = settledToo ? [event, next('settled')] : [event];
    if (event.type === 'payment.succeeded' && !settledToo) {
      settling[paymentId] = {
        merchantId,
        until: observedAt + SETTLEMENT_WATCH_MS,
        ...(createdAt === undefined ? {} : { createdAt }),
      };
    }
    // Pushed and taken out of `pending` in one synchronous step (a save sees one or the other);
    // the promise is the spill's backpressure.
    const pushed = events.map((e) => this.#options.sink.push(e));
    const pending = state.pending ?? [];
    pending.splice(pending.indexOf(change), 1);
    await Promise.all(pushed);
    if (status === 'settled') {
      delete settling[paymentId];
      this.#settleReads.delete(paymentId);
    }
    if ((isFinal || status === 'settled') && settling[paymentId] === undefined) {
      this.#forget(paymentId);
    }
    this.#dirty();
  }

  /** A payment whose events are all sent: its sequence, stage times and view go. */
  #forget(paymentId: string): void {
    delete this.#state.sequence?.[paymentId];
    delete this.#state.stages?.[paymentId];
    this.#views.delete(paymentId);
  }

  /** Resolves true after `ms`, or false at once when the relay stops. */
  #pause(ms: number): Promise<boolean> {
    if (this.#stopping) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.#pauses.delete(wake);
        resolve(true);
      }, ms);
      this.#pauses.add(wake);
    });
  }

  #createdAt(paymentId: string): number | undefined {
    const state = this.#state;
    return (
      state.recent[paymentId] ??
      state.settling?.[paymentId]?.createdAt ??
      state.checkpoint.payments.find((p) => p.paymentId === paymentId)?.createdAt ??
      undefined
    );
  }

  /**
   * What the REST API shows of one payment now; a failed read leaves its part out (warned) and the
   * facts not `complete`.
   */
  async #facts(
    paymentId: string,
    merchantId: string,
    createdAt: number | undefined,
  ): Promise<{ facts: PaymentFacts; complete: boolean }> {
    const { gateway, warn } = this.#options;
    let complete = true;
    const failed = (what: string) => (error: unknown) => {
      complete = false;
      warn(`reading ${what} of ${paymentId}: ${(error as Error).message}`);
      return undefined;
    };
    const details = await gateway.payments
      .details(paymentId, { merchantId })
      .then(undefined, failed('the details'));
    // The partner-wide list has no filter by id: one page of the merchant's payments with the
    // same reference (references are seldom shared), else of those created within a second of it.
    const item = async () => {
      const reference = details?.referenceId;
      const byReference = reference !== undefined && REFERENCE.test(reference);
      if (!byReference && createdAt === undefined) return undefined;
      const page = await gateway.partnerPayments.list({
        merchantId,
        limit: 200,
        ...(byReference
          ? { referenceId: reference }
          : {
              startTs: new Date((createdAt as number) - 1_000),
              endTs: new Date((createdAt as number) + 1_000),
            }),
      });
      return page.data.find((payment) => payment.paymentId === paymentId);
    };
    // `expires_at` never changes: one buyer-facing read per payment while it is followed.
    const view = async () => {
      const known = this.#views.get(paymentId);
      if (known !== undefined) return known;
      const read = await gateway.payments.get(paymentId);
      this.#views.set(paymentId, read);
      return read;
    };
    const [found, viewed] = await Promise.all([
      item().then(undefined, failed('the list item')),
      view().then(undefined, failed('the buyer-facing view')),
    ]);
    return { facts: { details, item: found, view: viewed }, complete };
  }

  /** Reads each succeeded payment awaiting its settlement; past 24 hours it is let go. */
  async #watchSettlements(): Promise<void> {
    const settling = this.#state.settling ?? {};
    const now = Date.now();
    for (const [paymentId, watch] of Object.entries(settling)) {
      if (this.#stopping) return;
      if (watch.until < now) {
        delete settling[paymentId];
        this.#forget(paymentId);
        this.#settleReads.delete(paymentId);
        this.#dirty();
        continue;
      }
      // Every sweep for its first minute, then once a minute: a payout takes minutes to hours.
      const since = watch.until - SETTLEMENT_WATCH_MS;
      const last = this.#settleReads.get(paymentId) ?? 0;
      if (now - since > 60_000 && now - last < 60_000) continue;
      this.#settleReads.set(paymentId, now);
      const details = await this.#options.gateway.payments
        .details(paymentId, { merchantId: watch.merchantId })
        .catch(() => undefined);
      if (details?.settlement?.successful == null || this.#stopping) continue;
      delete settling[paymentId];
      await this.#enqueue({
        paymentId,
        merchantId: watch.merchantId,
        status: 'settled',
        isFinal: true,
        observedAt: Date.now(),
      });
    }
  }

  // ------------------------------------------------------------ new payments

  #scheduleDiscovery(ms: number): void {
    if (this.#stopping) return;
    this.#discoveryTimer = setTimeout(() => {
      void this.#discover()
        .then(() => (this.#options.sink.change ? undefined : this.#watchSettlements()))
        .then(
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
    // One synchronous snapshot: every change the checkpoint counts as yielded is delivered, in
    // `events`, or in a spill segment from `spillFrom` on (on disk before the state is written).
    const persisted = sink.persist?.();
    const snapshot: RelayState = {
      ...this.#state,
      // Copies: the store writes after awaits, while builds go on changing these.
      pending: [...(this.#state.pending ?? [])],
      sequence: { ...this.#state.sequence },
      stages: { ...this.#state.stages },
      settling: { ...this.#state.settling },
      checkpoint: this.#checkpoint(),
      events: sink.events(),
      ...(persisted === undefined ? {} : { spillFrom: persisted.spillFrom }),
    };
    try {
      await persisted?.durable;
      await store.save(snapshot);
      if (persisted !== undefined) await sink.saved?.(persisted.spillFrom);
    } catch (error) {
      this.#options.warn(`saving the state to ${store.where}: ${(error as Error).message}`);
    }
  }
}
