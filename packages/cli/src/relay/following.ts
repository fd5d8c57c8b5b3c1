/**
 * The relay's following: every open payment of the partner (a listing at its first start, then a
 * look for new payments every sweep) in one `payments.follower()`, and each succeeded payment read
 * until its settlement appears. It finds the changes; the event builder (events.ts) makes them
 * events.
 */
import {
  type MerchantGateway,
  OPEN_PAYMENT_STATUSES,
  type PaymentFollower,
  type PaymentFollowerCheckpoint,
  type PaymentFollowerCheckpointEntry,
  type PaymentStatusChange,
  PollTimeoutError,
} from 'merchant-gateway';
import { SETTLEMENT_WATCH_MS } from './events';
import type { PendingChange, RelayState } from './state';

/** The follower's longest per-payment deadline (setTimeout's limit): the relay re-adds past it. */
const FOLLOW_MS = 2_147_483_647;
/** Each look for new payments starts this long before the newest one found (a late commit, clocks). */
const OVERLAP_MS = 60_000;

export interface FollowingOptions {
  gateway: MerchantGateway;
  /** The relay's state: its checkpoint, `since`, `recent`, `firstSeen` and `settling`. */
  state: RelayState;
  /** `--sweep-interval`: the follower's sweeps and the look for new payments. */
  sweepIntervalMs: number;
  maxHeldReads?: number | undefined;
  /** Whether succeeded payments are read for their settlement (not for `follow --all`). */
  watchSettlements: boolean;
  warn(message: string): void;
  /** A status change, less the status a payment was first seen in; its promise holds the follower. */
  onChange(change: PaymentStatusChange): void | Promise<void>;
  /** A succeeded payment's settlement appeared. */
  onSettlement(change: PendingChange): Promise<void>;
  /** A succeeded payment watched 24 hours without a settlement: let go. */
  onLetGo(paymentId: string): void;
  /** The state changed: save soon. */
  dirty(): void;
  /** The follower ended on an error it cannot go past. */
  onFailed(error: Error): void;
}

/** The first start's state: every payment open now, followed from its current status (no event for it). */
export async function firstState(gateway: MerchantGateway): Promise<RelayState> {
  const startedAt = Date.now();
  const payments: PaymentFollowerCheckpointEntry[] = [];
  const list = gateway.partnerPayments.list({ status: [...OPEN_PAYMENT_STATUSES], limit: 200 });
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

export class Following {
  readonly #options: FollowingOptions;
  #follower: PaymentFollower | undefined;
  /** The checkpoint of the follower closed at the stop. */
  #last: PaymentFollowerCheckpoint | undefined;
  #discoveryTimer: ReturnType<typeof setTimeout> | undefined;
  #stopping = false;
  /** When each payment awaiting its settlement was last read (epoch ms). */
  readonly #settleReads = new Map<string, number>();

  constructor(options: FollowingOptions) {
    this.#options = options;
  }

  /** Payments followed. */
  get size(): number {
    return this.#follower?.size ?? 0;
  }

  /** The follower's checkpoint now (after the stop: as it was closed). */
  checkpoint(): PaymentFollowerCheckpoint {
    return this.#follower?.closed === false
      ? this.#follower.checkpoint()
      : (this.#last ?? this.#options.state.checkpoint);
  }

  /** Follows the payments of the state's checkpoint. */
  follow(): void {
    const { gateway, state, sweepIntervalMs, maxHeldReads, warn } = this.#options;
    const resumeFrom = state.checkpoint;
    const follower = gateway.payments.follower({
      resumeFrom,
      timeoutMs: FOLLOW_MS,
      sweepIntervalMs,
      ...(maxHeldReads === undefined ? {} : { maxHeldReads }),
      onError: (error, paymentId) => {
        if (error instanceof PollTimeoutError && paymentId !== undefined) {
          // Open for the follower's whole 24.8 days: follow it on.
          const merchantId = resumeFrom.payments.find((p) => p.paymentId === paymentId)?.merchantId;
          if (merchantId !== undefined) follower.add({ paymentId, merchantId });
          return;
        }
        warn(error.message);
      },
    });
    this.#follower = follower;
    void (async () => {
      try {
        for await (const change of follower) await this.#onChange(change);
      } catch (error) {
        if (!this.#stopping) this.#options.onFailed(error as Error);
      }
    })();
  }

  /** Looks for new payments now, then every sweep (and reads the settlements awaited). */
  discover(): void {
    this.#scheduleDiscovery(0);
  }

  /** Stops looking and closes the follower, keeping its last checkpoint. */
  stop(): void {
    this.#stopping = true;
    clearTimeout(this.#discoveryTimer);
    const checkpoint = this.checkpoint();
    this.#follower?.close();
    this.#last = checkpoint;
  }

  async #onChange(change: PaymentStatusChange): Promise<void> {
    if (change.previousStatus === undefined) {
      const { firstSeen } = this.#options.state;
      const seen = firstSeen[change.paymentId];
      delete firstSeen[change.paymentId];
      // First seen open: the status it had when found yields no event, only what follows it.
      if (!change.isFinal && seen === change.status) return;
    }
    await this.#options.onChange(change);
  }

  #scheduleDiscovery(ms: number): void {
    if (this.#stopping) return;
    const { sweepIntervalMs, watchSettlements, warn } = this.#options;
    this.#discoveryTimer = setTimeout(() => {
      void this.#discover()
        .then(() => (watchSettlements ? this.#watchSettlements() : undefined))
        .then(
          () => this.#scheduleDiscovery(sweepIntervalMs),
          (error: unknown) => {
            warn(`looking for new payments: ${(error as Error).message}`);
            this.#scheduleDiscovery(sweepIntervalMs);
          },
        );
    }, ms);
  }

  /** Lists the payments created since the last look (less the overlap) and follows the new ones. */
  async #discover(): Promise<void> {
    const { gateway, state, dirty } = this.#options;
    const list = gateway.partnerPayments.list({
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
      dirty();
    }
    for (const [paymentId, createdAt] of Object.entries(state.recent)) {
      if (createdAt < state.since - OVERLAP_MS) delete state.recent[paymentId];
    }
  }

  /** Reads each succeeded payment awaiting its settlement; past 24 hours it is let go. */
  async #watchSettlements(): Promise<void> {
    const { gateway, state, onSettlement, onLetGo, dirty } = this.#options;
    const settling = state.settling ?? {};
    for (const paymentId of this.#settleReads.keys()) {
      if (settling[paymentId] === undefined) this.#settleReads.delete(paymentId);
    }
    const now = Date.now();
    for (const [paymentId, watch] of Object.entries(settling)) {
      if (this.#stopping) return;
      if (watch.until < now) {
        delete settling[paymentId];
        this.#settleReads.delete(paymentId);
        onLetGo(paymentId);
        dirty();
        continue;
      }
      // Every sweep for its first minute, then once a minute: a payout takes minutes to hours.
      const since = watch.until - SETTLEMENT_WATCH_MS;
      const last = this.#settleReads.get(paymentId) ?? 0;
      if (now - since > 60_000 && now - last < 60_000) continue;
      this.#settleReads.set(paymentId, now);
      const details = await gateway.payments
        .details(paymentId, { merchantId: watch.merchantId })
        .catch(() => undefined);
      if (details?.settlement?.successful == null || this.#stopping) continue;
      delete settling[paymentId];
      await onSettlement({
        paymentId,
        merchantId: watch.merchantId,
        status: 'settled',
        isFinal: true,
        observedAt: Date.now(),
      });
    }
  }
}
