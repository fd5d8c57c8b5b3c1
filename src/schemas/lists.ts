import * as z from 'zod/mini';
import { matching, maybe, openEnum, satisfying } from './common';
import { AmountDisplaySchema } from './payments';
import {
  CAIP2_PATTERN,
  isIsoDateTime,
  REFERENCE_FILTER_PATTERN,
  toWireDateTime,
} from './primitives';

/**
 * The statuses the payment lists show and filter on. `cancelled` comes with the 2026-02-19
 * contract; a service on 2026-02-18 shows a cancelled payment as `failed`.
 */
export type ListPaymentStatus =
  | 'requires_action'
  | 'processing'
  | 'succeeded'
  | 'failed'
  | 'expired'
  | 'cancelled';

/** The six statuses a list's `status` filter accepts. */
export const LIST_PAYMENT_STATUSES: readonly ListPaymentStatus[] = [
  'requires_action',
  'processing',
  'succeeded',
  'failed',
  'expired',
  'cancelled',
];

// ---------------------------------------------------------------- responses

// The published contract names these fields without their types: present, of any shape.
const present = z.custom<unknown>((value) => value !== undefined, 'is required');

/** One payment of `payments.list`. Fields beyond the required ones appear as the payment progresses. */
export const MerchantPaymentSchema = z.looseObject({
  paymentId: z.string(),
  merchant: z.looseObject({
    id: z.string(),
    name: maybe(z.string()),
    iconUrl: maybe(z.string()),
  }),
  referenceId: z.string(),
  status: openEnum<ListPaymentStatus>(),
  /** True once the status can no longer change. */
  isTerminal: z.boolean(),
  /** ISO 8601. */
  createdAt: z.string(),
  /** ISO 8601. */
  lastUpdatedAt: z.string(),
  /** The amount asked for: `{ unit: 'iso4217/USD', value: '1250' }` (minor units). */
  fiatAmount: maybe(
    z.looseObject({ unit: z.string(), value: z.string(), display: AmountDisplaySchema }),
  ),
  /** The token amount paid or quoted, in the token's smallest unit; `display` may be null. */
  tokenAmount: maybe(
    z.looseObject({ unit: z.string(), value: z.string(), display: maybe(AmountDisplaySchema) }),
  ),
  buyer: maybe(
    z.looseObject({
      accountCaip10: z.string(),
      accountProviderName: maybe(z.string()),
      accountProviderIcon: maybe(z.string()),
    }),
  ),
  transaction: maybe(
    z.looseObject({ networkId: z.string(), hash: maybe(z.string()), nonce: maybe(z.number()) }),
  ),
  fees: maybe(
    z.looseObject({
      total: present,
      fixed: z.optional(z.unknown()),
      percentage: z.optional(z.unknown()),
    }),
  ),
  settlement: maybe(
    z.looseObject({
      settled: z.boolean(),
      amount: z.optional(z.unknown()),
      txHash: maybe(z.string()),
    }),
  ),
  /** ISO 8601. */
  settledAt: maybe(z.string()),
});
/** One payment of `payments.list`. */
export type MerchantPayment = z.infer<typeof MerchantPaymentSchema>;

/** A page of `payments.list`: its items, the cursor of the next page, and stats of the whole filtered set. */
export const MerchantPaymentsPageSchema = z.looseObject({
  data: z.array(MerchantPaymentSchema),
  /** Null (or absent) on the last page. */
  nextCursor: maybe(z.string()),
  stats: z.looseObject({
    /** Revenue per currency, in major units (e.g. `12.5` for USD 12.50). */
    totalRevenue: z.array(z.looseObject({ amount: z.number(), currency: z.string() })),
    totalTransactions: z.number(),
    totalCustomers: z.number(),
  }),
});
/** A page of `payments.list`: `data`, `nextCursor` and `stats`. */
export type MerchantPaymentsPage = z.infer<typeof MerchantPaymentsPageSchema>;

const nullableString = z.nullable(z.string());

/** One payment of the deprecated `legacyPayments.list`, with the service's snake_case names. */
export const LegacyPaymentSchema = z.looseObject({
  payment_id: z.string(),
  merchant_id: z.string(),
  reference_id: z.string(),
  status: openEnum<ListPaymentStatus>(),
  is_terminal: z.boolean(),
  wallet_name: z.string(),
  token_symbol: nullableString,
  token_decimals: z.nullable(z.number()),
  token_logo: nullableString,
  chain_logo: nullableString,
  wallet_logo: nullableString,
  chain_id: maybe(z.string()),
  buyer_caip10: maybe(z.string()),
  token_caip19: maybe(z.string()),
  tx_hash: maybe(z.string()),
  nonce: maybe(z.number()),
  /** In the token's smallest unit. */
  token_amount: maybe(z.string()),
  /** In the currency's minor units; null when it does not fit a 32-bit integer. */
  fiat_amount: maybe(z.number()),
  fiat_currency: maybe(z.string()),
  created_at: maybe(z.string()),
  last_updated_at: maybe(z.string()),
  settled_at: maybe(z.string()),
  settlement_status: maybe(z.string()),
  settlement_tx_hash: maybe(z.string()),
});
/** One payment of the deprecated `legacyPayments.list` (snake_case). */
export type LegacyPayment = z.infer<typeof LegacyPaymentSchema>;

/** A page of the deprecated list. */
export const LegacyPaymentsPageSchema = z.looseObject({
  data: z.array(LegacyPaymentSchema),
  /** Null or absent on the last page. */
  next_cursor: maybe(z.string()),
  stats: z.looseObject({
    total_customers: z.number(),
    total_transactions: z.number(),
    /** In major units. */
    total_revenue: z.looseObject({ amount: z.number(), currency: z.string() }),
  }),
});
/** A page of the deprecated `legacyPayments.list`: `data`, `next_cursor` and `stats`. */
export type LegacyPaymentsPage = z.infer<typeof LegacyPaymentsPageSchema>;

// ----------------------------------------------------------------- requests

/** A date-time filter: an ISO 8601 string (sent as it is) or a `Date` (sent in UTC, to the second). */
const dateTime = z.pipe(
  z.union(
    [
      satisfying(
        isIsoDateTime,
        'must be an ISO 8601 date-time with a real calendar date and a Z or offset, e.g. 2026-01-31T00:00:00Z',
      ),
      z.date(),
    ],
    { error: 'must be an ISO 8601 date-time string or a valid Date' },
  ),
  z.transform((value: string | Date) =>
    typeof value === 'string' ? value : toWireDateTime(value),
  ),
);

/** One value or several, always sent as a repeated query parameter (an empty array is refused). */
export function oneOrMany<T extends z.ZodMiniType<string>>(item: T, message: string) {
  const either = z.union([item, z.array(item).check(z.minLength(1, message))], { error: message });
  return z.pipe(
    either,
    z.transform((value: z.output<typeof either>): string[] =>
      Array.isArray(value) ? value : [value as string],
    ),
  );
}

export const nonEmpty = z
  .string({ error: 'must be a string' })
  .check(z.minLength(1, 'must not be empty'));

const statuses = oneOrMany(
  z.enum(['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled']),
  'must be one of requires_action, processing, succeeded, failed, expired, cancelled, or a non-empty array of them',
);
// The deprecated list knows five statuses: it never gained `cancelled`.
const legacyStatuses = oneOrMany(
  z.enum(['requires_action', 'processing', 'succeeded', 'failed', 'expired']),
  'must be one of requires_action, processing, succeeded, failed, expired, or a non-empty array of them',
);
const sortBy = z.enum(['date', 'amount'], { error: 'must be "date" or "amount"' });
const sortDir = z.enum(['asc', 'desc'], { error: 'must be "asc" or "desc"' });
const limit = z
  .number({ error: 'must be an integer from 1 to 200' })
  .check(
    z.refine((n) => Number.isInteger(n) && n >= 1 && n <= 200, 'must be an integer from 1 to 200'),
  );

/** Query of `payments.list`. Every filter is optional; pages are 1 to 200 items. */
export const PaymentListParamsSchema = z.strictObject({
  /** Falls back to the client's `merchantId`. Sent as the `Merchant-Id` header. */
  merchantId: z.optional(z.string({ error: 'must be a string' })),
  /** Created at or after (inclusive): ISO 8601 with a `Z` or offset, or a `Date`. */
  startTs: z.optional(dateTime),
  /** Created before (exclusive): ISO 8601 with a `Z` or offset, or a `Date`. */
  endTs: z.optional(dateTime),
  /** Token symbols, e.g. `'USDC'` or `['USDC', 'USDT']`; sent as repeated `token_symbol`. */
  tokenSymbol: z.optional(oneOrMany(nonEmpty, 'must be a non-empty string or array of them')),
  /** Comma-separated CAIP-2 chain ids, e.g. `'eip155:8453,eip155:1'`; sent as it is. */
  network: z.optional(
    satisfying(
      (value) => value.split(',').every((id) => CAIP2_PATTERN.test(id)),
      'must be comma-separated CAIP-2 chain ids, e.g. eip155:8453,eip155:1',
    ),
  ),
  /** @default the service's: 'date' */
  sortBy: z.optional(sortBy),
  /** @default the service's: 'desc' */
  sortDir: z.optional(sortDir),
  /** Start after this cursor (a page's `nextCursor`). */
  cursor: z.optional(nonEmpty),
  /** Items per page, 1 to 200. @default the service's */
  limit: z.optional(limit),
  /** One status or several: requires_action, processing, succeeded, failed, expired, cancelled. */
  status: z.optional(statuses),
  /** A substring of the reference id: 3 to 35 of `A-Z a-z 0-9 space / : . , + -`. */
  referenceId: z.optional(
    matching(
      REFERENCE_FILTER_PATTERN,
      'must be 3 to 35 characters of A-Z a-z 0-9 space / : . , + -',
    ),
  ),
});
/** Query of `payments.list`: filters, sort, `cursor`, `limit` (1 to 200) and `merchantId`. */
export type PaymentListParams = z.input<typeof PaymentListParamsSchema>;

/** Query of the deprecated `legacyPayments.list`, with its snake_case names. */
export const LegacyPaymentListParamsSchema = z.strictObject({
  /** Created at or after: ISO 8601 with a `Z` or offset, or a `Date`. */
  start_ts: z.optional(dateTime),
  /** Created before: ISO 8601 with a `Z` or offset, or a `Date`. */
  end_ts: z.optional(dateTime),
  /** Asset filter, as the service takes it. */
  asset: z.optional(nonEmpty),
  /** Network filter, as the service takes it. */
  network: z.optional(nonEmpty),
  sort_by: z.optional(sortBy),
  sort_dir: z.optional(sortDir),
  /** Start after this cursor (a page's `next_cursor`). */
  cursor: z.optional(nonEmpty),
  /** Items per page, 1 to 200. */
  limit: z.optional(limit),
  /** One status or several: requires_action, processing, succeeded, failed, expired. */
  status: z.optional(legacyStatuses),
});
/** Query of the deprecated `legacyPayments.list`, in snake_case. */
export type LegacyPaymentListParams = z.input<typeof LegacyPaymentListParamsSchema>;
