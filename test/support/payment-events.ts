// Payment webhook events shaped like the service's (docs/webhooks.md): a full snapshot per
// event, every stage key present, `payment_state_version` rising per payment. For tests that take
// an already verified event (the guard, follower.ingest); signed deliveries are the mock's.

export type EventType =
  | 'payment.created'
  | 'payment.processing'
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.expired'
  | 'payment.cancelled'
  | 'payment.settled';

export interface PaymentEventFixture {
  id: string;
  type: EventType;
  api_version: string;
  created_at: string;
  data: {
    payment_id: string;
    merchant_id: string;
    live: boolean;
    payment_state_version: number;
    reference_id: string | null;
    status: string;
    amount: { unit: string; value: string };
    created_at: string;
    expires_at: string;
    processing: Record<string, unknown> | null;
    success: { succeeded_at: string; tx_id: string | null } | null;
    failed: { failed_at: string; failure_reason: string | null } | null;
    cancelled: { cancelled_at: string; cancellation_reason: string | null } | null;
    expired: { expired_at: string } | null;
    settled: Record<string, unknown> | null;
  };
}

const USDC = 'caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const AT = '2026-06-30T10:00:00.000Z';

const STATUS: Record<EventType, string> = {
  'payment.created': 'requires_action',
  'payment.processing': 'processing',
  'payment.succeeded': 'succeeded',
  'payment.failed': 'failed',
  'payment.expired': 'expired',
  'payment.cancelled': 'cancelled',
  'payment.settled': 'succeeded',
};

/** The lifecycles a payment can take, as its events in version order. */
export const LIFECYCLES: readonly (readonly EventType[])[] = [
  ['payment.created', 'payment.processing', 'payment.succeeded', 'payment.settled'],
  ['payment.created', 'payment.processing', 'payment.failed'],
  ['payment.created', 'payment.processing', 'payment.expired'],
  ['payment.created', 'payment.cancelled'],
  ['payment.created', 'payment.expired'],
];

/** One event of `paymentId` at `version`, its snapshot filled as the service fills it for `type`. */
export function paymentEvent(
  paymentId: string,
  type: EventType,
  version: number,
  options: { merchantId?: string; txId?: string; id?: string } = {},
): PaymentEventFixture {
  const paid = ['payment.processing', 'payment.succeeded', 'payment.settled'].includes(type);
  const succeeded = type === 'payment.succeeded' || type === 'payment.settled';
  const txId = options.txId ?? `0x${paymentId.replace(/\W/g, '').padEnd(64, '0').slice(0, 64)}`;
  return {
    id: options.id ?? `evt_${paymentId}_${version}`,
    type,
    api_version: '2026-05-18',
    created_at: AT,
    data: {
      payment_id: paymentId,
      merchant_id: options.merchantId ?? 'merchant_fixture',
      live: false,
      payment_state_version: version,
      reference_id: `order_${paymentId}`,
      status: STATUS[type],
      amount: { unit: 'iso4217/USD', value: '1000' },
      created_at: AT,
      expires_at: '2026-06-30T10:15:00.000Z',
      processing:
        paid || (version > 1 && (type === 'payment.failed' || type === 'payment.expired'))
          ? {
              processing_at: AT,
              option_amount: { unit: USDC, value: '10000000' },
              fee: null,
              settlement_amount: { unit: USDC, value: '10000000' },
              buyer_caip10: 'eip155:8453:0x000000000000000000000000000000000000dEaD',
              chain_caip2: 'eip155:8453',
            }
          : null,
      success: succeeded ? { succeeded_at: AT, tx_id: txId } : null,
      failed: type === 'payment.failed' ? { failed_at: AT, failure_reason: 'declined' } : null,
      cancelled:
        type === 'payment.cancelled'
          ? { cancelled_at: AT, cancellation_reason: 'merchant cancelled' }
          : null,
      expired: type === 'payment.expired' ? { expired_at: AT } : null,
      settled:
        type === 'payment.settled'
          ? { settled_at: AT, tx_id: txId, amount: { unit: USDC, value: '10000000' } }
          : null,
    },
  };
}

/** Every event of one payment's lifecycle, versions 0, 1, 2, … */
export function lifecycle(paymentId: string, types: readonly EventType[]): PaymentEventFixture[] {
  return types.map((type, version) => paymentEvent(paymentId, type, version));
}

/** What `count` concurrent deliveries of one event answer, sorted: one `handled`, the rest `duplicate`. */
export function handledOnce(count: number): string[] {
  return [...Array.from({ length: count - 1 }, () => 'duplicate'), 'handled'];
}
