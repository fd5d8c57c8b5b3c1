import type { MerchantPayment, MerchantPaymentsPage } from '../schemas/lists';
import type { PartnerPaymentListParams } from '../schemas/partner-payments';
import type { PaymentStatusResult } from '../schemas/payment-status';
import { type Entry, OPEN, RANK, TRUSTED_FINAL } from './entries';

/** Items per sweep page: the list's largest page. */
export const SWEEP_PAGE_SIZE = 200;
/** Up to this many merchants, a sweep names them (`merchantId` repeated); past it, it lists all. */
export const SWEEP_MERCHANT_FILTER_MAX = 20;

/** What a sweep needs from the engine. */
export interface SweepHost {
  readonly entries: ReadonlyMap<string, Entry>;
  readonly closed: boolean;
  sleep(ms: number): Promise<void>;
  /** Takes in a status a list item showed (reported when it is news). */
  learn(entry: Entry, result: PaymentStatusResult, lookedAt: number): void;
  /** Queues an immediate status read of `entry`. */
  enqueueRead(entry: Entry): void;
}

/**
 * The list query of the next sweep (number `sweep`), or undefined when nothing needs sweeping:
 * newest first, 200 a page, from the oldest followed payment's creation less a minute, naming
 * the merchants when there are few. Built from own data only: nothing inherited is sent.
 */
export function sweepQuery(
  entries: Iterable<Entry>,
): { params: PartnerPaymentListParams; targets: number } | undefined {
  let targets = 0;
  let from = Number.POSITIVE_INFINITY;
  const merchants = new Set<string>();
  for (const entry of entries) {
    if (entry.done) continue;
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

/**
 * One sweep (number `sweep`): pages of the list until every followed payment was seen or the list
 * ends. Payments a complete list did not show are read directly (a list that lags behind new
 * payments, an id whose creation is unknown) and stop stretching later sweeps.
 */
export async function runSweep(
  host: SweepHost,
  pages: AsyncIterable<MerchantPaymentsPage>,
  sweep: number,
  targets: number,
): Promise<void> {
  const sweepStarted = Date.now();
  let unseen = targets;
  const iterator = pages[Symbol.asyncIterator]();
  let complete = false;
  try {
    for (;;) {
      const requested = Date.now();
      const step = await iterator.next();
      if (host.closed) return;
      if (step.done) {
        complete = true;
        break;
      }
      for (const item of step.value.data) {
        const entry = host.entries.get(item.paymentId);
        if (entry === undefined || entry.seenIn === sweep) continue;
        entry.seenIn = sweep;
        if (entry.since < sweep) unseen--;
        fromList(host, entry, item, requested);
      }
      if (unseen <= 0) break;
      await host.sleep(0);
      if (host.closed) return;
    }
  } finally {
    if (!complete) await iterator.return?.(undefined);
  }
  if (!complete) return;
  for (const entry of host.entries.values()) {
    if (entry.done || entry.seenIn === sweep || entry.since >= sweep) continue;
    if (entry.seed.deadlineAt < sweepStarted) continue;
    if (entry.createdAt === undefined) entry.unlisted = true;
    if (!entry.held) host.enqueueRead(entry);
  }
}

/** What a list item says about a followed payment. */
function fromList(host: SweepHost, entry: Entry, item: MerchantPayment, requested: number): void {
  const createdAt = Date.parse(item.createdAt);
  if (Number.isFinite(createdAt)) {
    entry.createdAt = createdAt;
    entry.unlisted = false;
  }
  if (entry.done || entry.known?.status === item.status) return;
  if (OPEN.has(item.status) && item.isTerminal !== true) {
    host.learn(entry, { status: item.status, isFinal: false }, requested);
    return;
  }
  if (TRUSTED_FINAL.has(item.status) && item.isTerminal === true) {
    host.learn(entry, { status: item.status, isFinal: true }, requested);
    return;
  }
  // Failed (perhaps a cancelled payment on a 2026-02-18 service), a status this SDK does not
  // know, or one whose isTerminal disagrees: a status read says what it is.
  const known = entry.known && RANK[entry.known.status];
  const shown = RANK[item.status];
  if (known !== undefined && shown !== undefined && shown <= known) return;
  host.enqueueRead(entry);
}
