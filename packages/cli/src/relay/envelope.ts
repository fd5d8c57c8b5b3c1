/**
 * The service's own webhook envelope and payment snapshot (`api_version` 2026-05-18), built from
 * what the REST API shows of a payment: its details (`payments.details`), its partner-wide list
 * item (`partnerPayments.list`) and its buyer-facing view (`payments.get`, for `expires_at`).
 *
 * What the relay cannot know it fills plainly (the table of docs/command-line.md, "The webhook
 * relay"): `payment_state_version` is the relay's own per-payment sequence; `live` follows the
 * key's mode; a stage's time is the one the relay first gave it (the list item's `lastUpdatedAt`
 * when the item is at that stage, else when the relay saw the change), the same in every later
 * event of the payment; reasons it is not told are null.
 */
import { createHash } from 'node:crypto';
import type { MerchantPayment, PaymentDetails, PaymentView } from 'merchant-gateway';
import {
  IMPLIED_STAGES,
  type PaymentSnapshot,
  type SnapshotProcessing,
  type WebhookAmount,
  type WebhookFee,
  type WebhookStageName,
} from 'merchant-gateway/webhooks';

export const API_VERSION = '2026-05-18';

/** One event as the relay delivers it: exactly the service's envelope (the POSTed body). */
export interface RelayEvent {
  /** `evt_…`, also the `webhook-id`: stable per event across retries and restarts. */
  id: string;
  /** `payment.<created|processing|succeeded|failed|expired|cancelled|settled>`. */
  type: string;
  api_version: string;
  /** ISO 8601 UTC. */
  created_at: string;
  data: PaymentSnapshot;
}

/** What the relay read of a payment when it saw a change (each may be missing: a failed read). */
export interface PaymentFacts {
  details?: PaymentDetails | undefined;
  item?: MerchantPayment | undefined;
  view?: PaymentView | undefined;
}

/** The snapshot's stage objects, by their key in `data`. */
export type StageKey = WebhookStageName;

/** Each stage's time (ISO 8601) as the relay first gave it to the payment, by stage. */
export type StageTimes = Partial<Record<StageKey, string>>;

/**
 * The stages `event`'s type implies that its snapshot lacks (null): none when it can be sent. The
 * table is the SDK's (IMPLIED_STAGES), the one its receiver checks events against.
 */
export function missingStages(event: RelayEvent): StageKey[] {
  const implied: readonly StageKey[] = Object.hasOwn(IMPLIED_STAGES, event.type)
    ? IMPLIED_STAGES[event.type as keyof typeof IMPLIED_STAGES]
    : [];
  return implied.filter((stage) => event.data[stage] === null);
}

/** The time of each stage `event` carries. */
export function stageTimesOf(event: RelayEvent): StageTimes {
  const { processing, success, failed, cancelled, expired, settled } = event.data;
  const times: StageTimes = {};
  if (processing) times.processing = processing.processing_at;
  if (success) times.success = success.succeeded_at;
  if (failed) times.failed = failed.failed_at;
  if (cancelled) times.cancelled = cancelled.cancelled_at;
  if (expired) times.expired = expired.expired_at;
  if (settled) times.settled = settled.settled_at;
  return times;
}

/** The snapshot key of the stage a status reaches. */
const STAGE_OF: Readonly<Record<string, StageKey>> = {
  processing: 'processing',
  succeeded: 'success',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'expired',
};

/** The change an event is about, as the relay knows it. */
export interface ObservedChange {
  paymentId: string;
  merchantId: string;
  /** The status reached, or `settled` for the settlement of a succeeded payment. */
  status: string;
  /** The relay's per-payment sequence number for this event. */
  version: number;
  /** Epoch ms when the relay saw the change. */
  observedAt: number;
  /** The payment's creation (epoch ms) when the relay knows it. */
  createdAt?: number | undefined;
  live: boolean;
}

/**
 * `live` from the API key: `wcp_test_…` is test mode, another `wcp_…` key live. A key of another
 * shape (a mock's, a proxy's) counts as test: a receiver never mistakes it for real money.
 */
export function liveOf(apiKey: string): boolean {
  return apiKey.startsWith('wcp_') && !apiKey.startsWith('wcp_test_');
}

/** The event's id: the payment, the relay's sequence number and the type, hashed. */
export function eventId(paymentId: string, version: number, type: string): string {
  const digest = createHash('sha256')
    .update(`${paymentId}\n${version}\n${type}`)
    .digest('base64url');
  return `evt_${digest.slice(0, 32)}`;
}

const typeOf = (status: string): string =>
  status === 'requires_action' ? 'payment.created' : `payment.${status}`;

const iso = (ms: number): string => new Date(ms).toISOString();

/** A CAIP-2 chain from a list item's `networkId` (`8453` or `eip155:8453`) or a CAIP-19 unit. */
function chainOf(networkId: string | undefined, unit: string | undefined): string | undefined {
  if (networkId !== undefined) return networkId.includes(':') ? networkId : `eip155:${networkId}`;
  const match = unit === undefined ? null : /^caip19\/([^/]+)\//.exec(unit);
  return match?.[1];
}

/** `"2.9"` (percent) as `29/1000`. */
function percentOf(percentage: string): WebhookFee['percent'] | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(percentage.trim());
  if (match === null) return undefined;
  const decimals = match[2] ?? '';
  const numerator = BigInt(`${match[1]}${decimals}`);
  return {
    numerator: numerator.toString(),
    denominator: (100n * 10n ** BigInt(decimals.length)).toString(),
  };
}

/** The list item's fees as the snapshot's `fee`, when the item tells total, fixed and percentage. */
function feeOf(item: MerchantPayment | undefined): WebhookFee | null {
  const fees = item?.fees;
  if (!fees?.fixed || fees.percentage == null) return null;
  const percent = percentOf(fees.percentage);
  if (percent === undefined || fees.fixed.unit !== fees.total.unit) return null;
  const percentValue = BigInt(fees.total.value) - BigInt(fees.fixed.value);
  return {
    kind: 'base_plus_percent',
    base_amount: { unit: fees.fixed.unit, value: fees.fixed.value },
    percent,
    percent_amount: { unit: fees.total.unit, value: percentValue.toString() },
    total_amount: { unit: fees.total.unit, value: fees.total.value },
  };
}

const amountOf = (amount: { unit: string; value?: string | undefined } | null | undefined) =>
  amount?.value === undefined ? undefined : { unit: amount.unit, value: amount.value };

/** `time`, or `floor` when that is later (epoch ms; ISO 8601 out). */
function notBefore(time: string, floor: number): string {
  return Date.parse(time) < floor ? iso(floor) : time;
}

/**
 * The envelope of one change, every stage the facts can fill, null where they cannot. A stage in
 * `seen` keeps that time; one not seen before gets this event's time (an earlier stage first seen
 * now happened no later than this one), which is never before a time already given.
 */
export function envelopeOf(
  change: ObservedChange,
  facts: PaymentFacts,
  seen: StageTimes = {},
): RelayEvent {
  const { details, item, view } = facts;
  const status = change.status === 'settled' ? 'succeeded' : change.status;
  const type = change.status === 'settled' ? 'payment.settled' : typeOf(change.status);
  const observed = iso(change.observedAt);
  const latest = Math.max(0, ...Object.values(seen).map((time) => Date.parse(time) || 0));
  const settledAt = seen.settled ?? notBefore(item?.settledAt ?? observed, latest);
  const own = STAGE_OF[status];
  // This event's stage: the item's last update when the item shows it, else when seen.
  const eventAt =
    change.status === 'settled'
      ? settledAt
      : own === undefined
        ? observed
        : (seen[own] ??
          notBefore(
            item?.status === status && item.lastUpdatedAt ? item.lastUpdatedAt : observed,
            latest,
          ));
  const stageAt = (stage: StageKey): string => seen[stage] ?? eventAt;
  const createdAt =
    item?.createdAt ?? (change.createdAt === undefined ? observed : iso(change.createdAt));
  const amount: WebhookAmount = amountOf(item?.fiatAmount) ??
    amountOf(view?.amount) ?? { unit: 'iso4217/XXX', value: '0' };

  const optionAmount = amountOf(details?.info?.optionAmount) ?? amountOf(item?.tokenAmount);
  const chain = chainOf(item?.transaction?.networkId, optionAmount?.unit);
  const paidOrTried = status !== 'requires_action' && status !== 'cancelled';
  const processing: SnapshotProcessing | null =
    paidOrTried && optionAmount !== undefined && chain !== undefined
      ? {
          processing_at: stageAt('processing'),
          option_amount: optionAmount,
          fee: feeOf(item),
          settlement_amount: amountOf(item?.settlement?.amount) ?? optionAmount,
          buyer_caip10: item?.buyer?.accountCaip10 ?? view?.buyer?.accountCaip10 ?? null,
          chain_caip2: chain,
        }
      : null;
  const payout = details?.settlement?.successful;
  const settledAmount = amountOf(payout?.amount) ?? amountOf(item?.settlement?.amount);
  const settled =
    status === 'succeeded' && (payout != null || item?.settlement?.settled === true)
      ? {
          settled_at: settledAt,
          tx_id: payout?.txId ?? item?.settlement?.txHash ?? null,
          amount: settledAmount ?? optionAmount ?? amount,
        }
      : null;
  const data: PaymentSnapshot = {
    payment_id: change.paymentId,
    merchant_id: item?.merchant.id ?? change.merchantId,
    live: change.live,
    payment_state_version: change.version,
    reference_id: details?.referenceId ?? item?.referenceId ?? null,
    status,
    amount,
    created_at: createdAt,
    expires_at: view === undefined ? createdAt : iso(view.expiresAt * 1000),
    processing,
    success:
      status === 'succeeded'
        ? {
            succeeded_at: stageAt('success'),
            tx_id: details?.info?.txId ?? item?.transaction?.hash ?? null,
          }
        : null,
    failed:
      status === 'failed'
        ? { failed_at: stageAt('failed'), failure_reason: details?.failureCode ?? null }
        : null,
    cancelled:
      status === 'cancelled'
        ? { cancelled_at: stageAt('cancelled'), cancellation_reason: null }
        : null,
    expired: status === 'expired' ? { expired_at: stageAt('expired') } : null,
    settled,
  };
  return {
    id: eventId(change.paymentId, change.version, type),
    type,
    api_version: API_VERSION,
    // When it happened: its stage's time (the payment's creation for `payment.created`).
    created_at: status === 'requires_action' ? createdAt : eventAt,
    data,
  };
}
