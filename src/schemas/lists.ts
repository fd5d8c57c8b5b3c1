import * as z from 'zod/mini';
import { isIsoDateTime, toWireDateTime } from '../rules/dates';
import { DATE_RANGE_MS } from '../rules/ids';
import {
  isListLimit,
  isNetworkFilter,
  LIST_LIMIT,
  LIST_SORT_BY,
  LIST_SORT_DIR,
  REFERENCE_FILTER_PATTERN,
} from '../rules/lists';
import {
  LEGACY_LIST_PAYMENT_STATUSES as LEGACY_STATUSES,
  LIST_PAYMENT_STATUSES as LIST_STATUSES,
  type ListPaymentStatus,
} from '../rules/payments';
import {
  booleanField,
  matching,
  maybe,
  maybeNumber,
  maybeString,
  numberField,
  oneOf,
  openEnum,
  responseObject,
  satisfying,
  stringField,
} from './common';
import { AmountDisplaySchema, AmountSchema, PaymentBuyerSchema } from './payments';

/** The statuses of both replacement lists, and of the deprecated one: the one source in src/rules. */
export {
  LEGACY_LIST_PAYMENT_STATUSES,
  LIST_PAYMENT_STATUSES,
  PAYMENT_STATUSES,
} from '../rules/payments';
export type { ListPaymentStatus };

// ---------------------------------------------------------------- responses

// Each response shape is built unnamed, given a named interface (so hovers say
// `MerchantPayment`), and exported as a schema typed by that interface.

const listAmount = responseObject({
  /** `iso4217/<currency>` for fiat, `caip19/<CAIP-19 asset id>` for a token. */
  unit: stringField,
  /** A string of digits in minor units (the smallest unit of the currency or token). */
  value: stringField,
  /** Null or absent when the service cannot describe the asset. */
  display: maybe(AmountDisplaySchema),
});
/**
 * An amount in a list item, fiat or token: `value` is a digit string in minor units of `unit`;
 * `display` may be null or absent.
 */
export interface ListAmount extends z.output<typeof listAmount> {}
/** An amount in a list item, fiat or token, in minor units; its display may be missing. */
export const ListAmountSchema: z.ZodMiniType<ListAmount> = listAmount;

const merchantPaymentMerchant = responseObject({
  id: stringField,
  name: maybeString,
  iconUrl: maybeString,
});
/** The merchant a listed payment belongs to. */
export interface MerchantPaymentMerchant extends z.output<typeof merchantPaymentMerchant> {}
/** The merchant a listed payment belongs to. */
export const MerchantPaymentMerchantSchema: z.ZodMiniType<MerchantPaymentMerchant> =
  merchantPaymentMerchant;

const paymentTransaction = responseObject({
  /** Chain id, e.g. `8453` or `eip155:8453`. */
  networkId: stringField,
  hash: maybeString,
  nonce: maybeNumber,
});
/** The on-chain transaction of a listed payment. */
export interface PaymentTransaction extends z.output<typeof paymentTransaction> {}
/** The on-chain transaction of a listed payment. */
export const PaymentTransactionSchema: z.ZodMiniType<PaymentTransaction> = paymentTransaction;

const paymentFees = responseObject({
  /** The whole fee, in minor units of its `unit`. */
  total: ListAmountSchema,
  /** The fixed part of the fee, in minor units of its `unit`. */
  fixed: maybe(ListAmountSchema),
  /** The percentage part as a decimal string of percent, not a ratio: `"0.4"` is 0.4 %. */
  percentage: maybeString,
});
/** The fees of a listed payment: `total`, and its `fixed` and `percentage` parts when known. */
export interface PaymentFees extends z.output<typeof paymentFees> {}
/** The fees of a listed payment. */
export const PaymentFeesSchema: z.ZodMiniType<PaymentFees> = paymentFees;

const paymentSettlement = responseObject({
  settled: booleanField,
  /** Net of fees, in minor units of its `unit`; present once `settled` is true. */
  amount: maybe(ListAmountSchema),
  txHash: maybeString,
});
/** Whether a listed payment is settled to the merchant, and with what amount and transaction. */
export interface PaymentSettlement extends z.output<typeof paymentSettlement> {}
/** The settlement of a listed payment. */
export const PaymentSettlementSchema: z.ZodMiniType<PaymentSettlement> = paymentSettlement;

const merchantPayment = responseObject({
  paymentId: stringField,
  merchant: MerchantPaymentMerchantSchema,
  referenceId: stringField,
  status: openEnum<ListPaymentStatus>(),
  /** True once the status can no longer change. */
  isTerminal: booleanField,
  /** ISO 8601. */
  createdAt: stringField,
  /** ISO 8601. */
  lastUpdatedAt: stringField,
  /** The amount asked for: `{ unit: 'iso4217/USD', value: '1250' }` (minor units). */
  fiatAmount: maybe(AmountSchema),
  /** The token amount paid or quoted, in the token's smallest unit; `display` may be null. */
  tokenAmount: maybe(ListAmountSchema),
  buyer: maybe(PaymentBuyerSchema),
  transaction: maybe(PaymentTransactionSchema),
  fees: maybe(PaymentFeesSchema),
  settlement: maybe(PaymentSettlementSchema),
  /** ISO 8601. */
  settledAt: maybeString,
});
/** One payment of `payments.list`. Fields beyond the required ones appear as the payment progresses. */
export interface MerchantPayment extends z.output<typeof merchantPayment> {}
/** One payment of `payments.list`. */
export const MerchantPaymentSchema: z.ZodMiniType<MerchantPayment> = merchantPayment;

const revenue = responseObject({
  /** In MAJOR units, as a number: `12.5` is USD 12.50 (unlike every other amount). */
  amount: numberField,
  /** The currency code, e.g. `USD`. */
  currency: stringField,
});
/** Revenue in one currency, in major units (`12.5` for USD 12.50), as list stats give it. */
export interface Revenue extends z.output<typeof revenue> {}
/** Revenue in one currency, in major units. */
export const RevenueSchema: z.ZodMiniType<Revenue> = revenue;

const merchantPaymentsStats = responseObject({
  /** Revenue per currency, in major units (e.g. `12.5` for USD 12.50). */
  totalRevenue: z.array(RevenueSchema),
  totalTransactions: numberField,
  totalCustomers: numberField,
});
/** Stats of the whole filtered set of `payments.list`, not only the page. */
export interface MerchantPaymentsStats extends z.output<typeof merchantPaymentsStats> {}
/** Stats of the whole filtered set of `payments.list`. */
export const MerchantPaymentsStatsSchema: z.ZodMiniType<MerchantPaymentsStats> =
  merchantPaymentsStats;

const merchantPaymentsPage = responseObject({
  data: z.array(MerchantPaymentSchema),
  /** Null (or absent) on the last page. */
  nextCursor: maybeString,
  stats: MerchantPaymentsStatsSchema,
});
/** A page of `payments.list`: `data`, `nextCursor` and `stats`. */
export interface MerchantPaymentsPage extends z.output<typeof merchantPaymentsPage> {}
/** A page of `payments.list`: its items, the cursor of the next page, and stats of the whole filtered set. */
export const MerchantPaymentsPageSchema: z.ZodMiniType<MerchantPaymentsPage> = merchantPaymentsPage;

const nullableString = z.nullable(stringField);

const legacyPayment = responseObject({
  payment_id: stringField,
  merchant_id: stringField,
  reference_id: stringField,
  status: openEnum<ListPaymentStatus>(),
  is_terminal: booleanField,
  wallet_name: stringField,
  token_symbol: nullableString,
  token_decimals: z.nullable(numberField),
  token_logo: nullableString,
  chain_logo: nullableString,
  wallet_logo: nullableString,
  chain_id: maybeString,
  buyer_caip10: maybeString,
  token_caip19: maybeString,
  tx_hash: maybeString,
  nonce: maybeNumber,
  /** In the token's smallest unit. */
  token_amount: maybeString,
  /** In the currency's minor units, as a number; null when it does not fit a 32-bit integer. */
  fiat_amount: maybeNumber,
  fiat_currency: maybeString,
  created_at: maybeString,
  last_updated_at: maybeString,
  settled_at: maybeString,
  settlement_status: maybeString,
  settlement_tx_hash: maybeString,
});
/** One payment of the deprecated `legacyPayments.list` (snake_case). */
export interface LegacyPayment extends z.output<typeof legacyPayment> {}
/** One payment of the deprecated `legacyPayments.list`, with the service's snake_case names. */
export const LegacyPaymentSchema: z.ZodMiniType<LegacyPayment> = legacyPayment;

const legacyPaymentsStats = responseObject({
  total_customers: numberField,
  total_transactions: numberField,
  /** In major units. */
  total_revenue: RevenueSchema,
});
/** Stats of the deprecated list (snake_case). */
export interface LegacyPaymentsStats extends z.output<typeof legacyPaymentsStats> {}
/** Stats of the deprecated list. */
export const LegacyPaymentsStatsSchema: z.ZodMiniType<LegacyPaymentsStats> = legacyPaymentsStats;

const legacyPaymentsPage = responseObject({
  data: z.array(LegacyPaymentSchema),
  /** Null or absent on the last page. */
  next_cursor: maybeString,
  stats: LegacyPaymentsStatsSchema,
});
/** A page of the deprecated `legacyPayments.list`: `data`, `next_cursor` and `stats`. */
export interface LegacyPaymentsPage extends z.output<typeof legacyPaymentsPage> {}
/** A page of the deprecated list. */
export const LegacyPaymentsPageSchema: z.ZodMiniType<LegacyPaymentsPage> = legacyPaymentsPage;

// ----------------------------------------------------------------- requests

/**
 * A date-time filter: an ISO 8601 string (sent as it is) or a `Date` (sent in UTC, to the second).
 * Converted by an overwrite check, not a pipe into a transform: the same result without zod's
 * pipe and transform machinery in every bundle (about 400 B gzip); its type says what it makes.
 */
const dateTime = z
  .union(
    [
      satisfying(
        isIsoDateTime,
        'must be an ISO 8601 date-time with a real calendar date and a Z or offset, e.g. 2026-01-31T00:00:00Z',
      ),
      z
        .date()
        .check(
          z.refine(
            (d) => d.getTime() >= DATE_RANGE_MS.min && d.getTime() <= DATE_RANGE_MS.max,
            'must be a Date from year 0000 to 9999',
          ),
        ),
    ],
    { error: 'must be an ISO 8601 date-time string or a valid Date' },
  )
  .check(
    z.overwrite((value) => (typeof value === 'string' ? value : toWireDateTime(value)) as never),
  ) as unknown as z.ZodMiniType<string, string | Date>;

/** One value or several, always sent as a repeated query parameter (an empty array is refused). */
export function oneOrMany<T extends z.ZodMiniType<string>>(item: T, message: string) {
  const either = z.union([item, z.array(item).check(z.minLength(1, message))], { error: message });
  // An overwrite check, not a pipe into a transform (see dateTime).
  return either.check(
    z.overwrite((value) => (Array.isArray(value) ? value : [value]) as never),
  ) as unknown as z.ZodMiniType<string[], z.input<typeof either>>;
}

export const nonEmpty = z
  .string({ error: 'must be a string' })
  .check(z.minLength(1, 'must not be empty'));

const STATUSES_RULE = `must be one of ${LIST_STATUSES.join(', ')}, or a non-empty array of them`;
const statuses = oneOrMany(oneOf(LIST_STATUSES, STATUSES_RULE), STATUSES_RULE);
// The deprecated list knows five statuses: it never gained `cancelled`.
const LEGACY_RULE = `must be one of ${LEGACY_STATUSES.join(', ')}, or a non-empty array of them`;
const legacyStatuses = oneOrMany(oneOf(LEGACY_STATUSES, LEGACY_RULE), LEGACY_RULE);
const sortBy = oneOf(LIST_SORT_BY, 'must be "date" or "amount"');
const sortDir = oneOf(LIST_SORT_DIR, 'must be "asc" or "desc"');
const LIMIT_RULE = `must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`;
const limit = z.number({ error: LIMIT_RULE }).check(z.refine(isListLimit, LIMIT_RULE));

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
      isNetworkFilter,
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
