/**
 * The service documentation's example webhook events (docs/webhooks.md, "The events"): one
 * payment, USD 10.00 paid in 10 USDC on Base with a 2.9 % fee.
 * Built from the facts' data, as the wire sends them (snake_case, every stage key present).
 * Shared by the receiver's, the mock's and the guard's tests.
 */
import type {
  PaymentCancelledEvent,
  PaymentCreatedEvent,
  PaymentExpiredEvent,
  PaymentFailedEvent,
  PaymentProcessingEvent,
  PaymentSettledEvent,
  PaymentSnapshot,
  PaymentSucceededEvent,
  PaymentWebhookEvent,
  SnapshotProcessing,
} from '../../src/webhooks/events';

/** The documentation's test vector (check it with the tolerance off). */
export const TEST_VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: '1614265330',
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
} as const;

export const FIXTURE_API_VERSION = '2026-05-18';
export const FIXTURE_PAYMENT_ID = 'pay_fixture_01HZX4V9K3T';
export const FIXTURE_MERCHANT_ID = 'merchant_fixture_01HZX4V9K3T';

const USDC_BASE = 'caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const usdc = (value: string) => ({ unit: USDC_BASE, value });

const processing: SnapshotProcessing = {
  processing_at: '2026-06-30T09:59:10.512Z',
  option_amount: usdc('10000000'),
  fee: {
    kind: 'base_plus_percent',
    base_amount: usdc('0'),
    percent: { numerator: '29', denominator: '1000' },
    percent_amount: usdc('290000'),
    total_amount: usdc('290000'),
  },
  settlement_amount: usdc('9710000'),
  buyer_caip10: 'eip155:8453:0x000000000000000000000000000000000000dEaD',
  chain_caip2: 'eip155:8453',
};

const SUCCESS_TX = '0x8f1e5c1b9a4a1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c';
const SETTLED_TX = '0x93d2f1a0b9c8e7d6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2';

function snapshot(fields: Partial<PaymentSnapshot>): PaymentSnapshot {
  return {
    payment_id: FIXTURE_PAYMENT_ID,
    merchant_id: FIXTURE_MERCHANT_ID,
    live: true,
    payment_state_version: 0,
    reference_id: 'order_fixture_1042',
    status: 'requires_action',
    amount: { unit: 'iso4217/USD', value: '1000' },
    created_at: '2026-06-30T09:59:00.084Z',
    expires_at: '2026-06-30T10:14:00.000Z',
    processing: null,
    success: null,
    failed: null,
    cancelled: null,
    expired: null,
    settled: null,
    ...fields,
  };
}

function envelope<E extends PaymentWebhookEvent>(
  type: E['type'],
  id: string,
  created_at: string,
  data: PaymentSnapshot,
): E {
  return { id, type, api_version: FIXTURE_API_VERSION, created_at, data } as E;
}

export const paymentCreated: PaymentCreatedEvent = envelope(
  'payment.created',
  'evt_fixture_payment_created',
  '2026-06-30T09:59:00.084Z',
  snapshot({}),
);

export const paymentProcessing: PaymentProcessingEvent = envelope(
  'payment.processing',
  'evt_fixture_payment_processing',
  '2026-06-30T09:59:10.512Z',
  snapshot({ payment_state_version: 1, status: 'processing', processing }),
);

export const paymentSucceeded: PaymentSucceededEvent = envelope(
  'payment.succeeded',
  'evt_fixture_payment_succeeded',
  '2026-06-30T10:00:00.271Z',
  snapshot({
    payment_state_version: 2,
    status: 'succeeded',
    processing,
    success: { succeeded_at: '2026-06-30T10:00:00.271Z', tx_id: SUCCESS_TX },
  }),
);

export const paymentFailed: PaymentFailedEvent = envelope(
  'payment.failed',
  'evt_fixture_payment_failed',
  '2026-06-30T10:00:00.271Z',
  snapshot({
    payment_state_version: 1,
    status: 'failed',
    failed: { failed_at: '2026-06-30T10:00:00.271Z', failure_reason: 'insufficient allowance' },
  }),
);

export const paymentExpiredAfterProcessing: PaymentExpiredEvent = envelope(
  'payment.expired',
  'evt_fixture_payment_expired_after_processing',
  '2026-06-30T10:14:00.030Z',
  snapshot({
    payment_state_version: 2,
    status: 'expired',
    processing,
    expired: { expired_at: '2026-06-30T10:14:00.030Z' },
  }),
);

export const paymentCancelled: PaymentCancelledEvent = envelope(
  'payment.cancelled',
  'evt_fixture_payment_cancelled',
  '2026-06-30T10:00:00.271Z',
  snapshot({
    payment_state_version: 1,
    status: 'cancelled',
    cancelled: {
      cancelled_at: '2026-06-30T10:00:00.271Z',
      cancellation_reason: 'merchant cancelled',
    },
  }),
);

export const paymentSettled: PaymentSettledEvent = envelope(
  'payment.settled',
  'evt_fixture_payment_settled',
  '2026-06-30T10:05:00.696Z',
  snapshot({
    payment_state_version: 3,
    status: 'succeeded',
    processing,
    success: { succeeded_at: '2026-06-30T10:00:00.271Z', tx_id: SUCCESS_TX },
    settled: { settled_at: '2026-06-30T10:05:00.696Z', tx_id: SETTLED_TX, amount: usdc('9710000') },
  }),
);

/** Every documented example, one per event type (the expired one after processing). */
export const EXAMPLE_EVENTS: readonly PaymentWebhookEvent[] = [
  paymentCreated,
  paymentProcessing,
  paymentSucceeded,
  paymentFailed,
  paymentExpiredAfterProcessing,
  paymentCancelled,
  paymentSettled,
];

/** An event's body as the service sends it: the JSON text the signature covers. */
export function webhookBody(event: unknown): string {
  return JSON.stringify(event);
}
