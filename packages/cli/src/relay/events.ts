/**
 * The relay's events: each change found is recorded in the state's `pending` at once, then built
 * into the service's envelope (envelope.ts) from what the REST API shows of the payment (its
 * details, list item and buyer-facing view, read again until the event carries every stage its
 * type implies), numbered in the payment's own sequence, given the payment's stage times, and
 * handed to the sink, each payment's in order.
 */
import type { MerchantGateway, PaymentView } from 'merchant-gateway';
import {
  envelopeOf,
  missingStages,
  type PaymentFacts,
  type RelayEvent,
  stageTimesOf,
} from './envelope';
import type { PendingChange, RelayState } from './state';

/** Events built at once (each a few reads): one payment's stay in order. */
const BUILDING = 16;
/** What the list's `referenceId` filter takes (the SDK refuses other values before sending). */
const REFERENCE = /^[A-Za-z0-9 /:.,+-]{3,35}$/;
/** List items looked through for one payment's at most (5 pages). */
const ITEM_SCAN = 1_000;
/** The first pause before the reads of an event are made again (doubling up to MAX_REREAD_MS). */
const FIRST_REREAD_MS = 250;
const MAX_REREAD_MS = 30_000;
/** How long a succeeded payment is read for its settlement (`payment.settled`) at most. */
export const SETTLEMENT_WATCH_MS = 24 * 60 * 60 * 1000;

export interface EventBuilderOptions {
  gateway: MerchantGateway;
  /** The relay's state: `pending`, `sequence`, `stages`, `settling`, and what tells creation times. */
  state: RelayState;
  /** Takes each event (a promise is backpressure). */
  sink: { push(event: RelayEvent): void | Promise<void> | undefined };
  /** The events' `data.live`: the API key's mode. */
  live: boolean;
  warn(message: string): void;
  /** The state changed: save soon. */
  dirty(): void;
}

export class EventBuilder {
  readonly #options: EventBuilderOptions;
  #stopping = false;
  /** Events being built (their reads in flight), at most BUILDING at once. */
  readonly #inflight = new Set<Promise<void>>();
  /** Each payment's last build: the next one of that payment starts after it (their order). */
  readonly #tails = new Map<string, Promise<void>>();
  /** Each followed payment's buyer-facing view (its `expiresAt`), read once. */
  readonly #views = new Map<string, PaymentView>();
  /** Builds waiting to read a payment again: woken (to stop) when the relay stops. */
  readonly #pauses = new Set<() => void>();

  constructor(options: EventBuilderOptions) {
    this.#options = options;
  }

  /** Starts no more reads: builds waiting to read again end, their changes left in `pending`. */
  stop(): void {
    this.#stopping = true;
    for (const wake of this.#pauses) wake();
    this.#pauses.clear();
  }

  /** Resolves when the builds under way have ended (their events pushed, or left in `pending`). */
  async idle(): Promise<void> {
    await Promise.all(this.#inflight);
  }

  /**
   * Records a change in the state's `pending` at once (so a save from now on keeps it, whatever the
   * reads still to come), then builds its event after that payment's earlier ones; at most
   * BUILDING builds run at once (the follower waits).
   */
  async enqueue(change: PendingChange): Promise<void> {
    this.#options.state.pending ??= [];
    this.#options.state.pending.push(change);
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
    const state = this.#options.state;
    state.sequence ??= {};
    state.settling ??= {};
    state.stages ??= {};
    const { sequence, settling, stages } = state;
    const createdAt = this.#createdAt(paymentId);
    const { live } = this.#options;
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
    if (status === 'settled') delete settling[paymentId];
    if ((isFinal || status === 'settled') && settling[paymentId] === undefined) {
      this.forget(paymentId);
    }
    this.#options.dirty();
  }

  /** A payment whose events are all sent: its sequence, stage times and view go. */
  forget(paymentId: string): void {
    delete this.#options.state.sequence?.[paymentId];
    delete this.#options.state.stages?.[paymentId];
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
    const state = this.#options.state;
    return (
      state.recent[paymentId] ??
      state.settling?.[paymentId]?.createdAt ??
      state.checkpoint.payments.find((p) => p.paymentId === paymentId)?.createdAt ??
      undefined
    );
  }

  /**
   * What the REST API shows of one payment now; a failed read leaves its part out (warned). A
   * failed read of the details or the list item (the stages) leaves the facts not `complete`; one
   * of the buyer-facing view (only `expires_at`, which then falls back) does not hold the event.
   */
  async #facts(
    paymentId: string,
    merchantId: string,
    createdAt: number | undefined,
  ): Promise<{ facts: PaymentFacts; complete: boolean }> {
    const { gateway, warn } = this.#options;
    let complete = true;
    const failed =
      (what: string, blocking = true) =>
      (error: unknown) => {
        if (blocking) complete = false;
        warn(`reading ${what} of ${paymentId}: ${(error as Error).message}`);
        return undefined;
      };
    const details = await gateway.payments
      .details(paymentId, { merchantId })
      .then(undefined, failed('the details'));
    // The partner-wide list has no filter by id, and its reference filter matches a part of the
    // reference (`order-1` finds `order-10`…): the merchant's payments with the reference and
    // created within a second of it, page after page until found (a few pages at most).
    const item = async () => {
      const reference = details?.referenceId;
      const byReference = reference !== undefined && REFERENCE.test(reference);
      if (!byReference && createdAt === undefined) return undefined;
      const list = gateway.partnerPayments.list({
        merchantId,
        limit: 200,
        ...(byReference ? { referenceId: reference } : {}),
        ...(createdAt === undefined
          ? {}
          : { startTs: new Date(createdAt - 1_000), endTs: new Date(createdAt + 1_000) }),
      });
      let scanned = 0;
      for await (const payment of list) {
        if (payment.paymentId === paymentId) return payment;
        if (++scanned >= ITEM_SCAN) break;
      }
      return undefined;
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
      view().then(undefined, failed('the buyer-facing view', false)),
    ]);
    return { facts: { details, item: found, view: viewed }, complete };
  }
}
