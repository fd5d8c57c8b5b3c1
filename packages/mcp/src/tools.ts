// The tool table: one row per tool, declared once. Names are the SDK's method paths with `_`
// for `.`; schemas come from the SDK's exported zod schemas; handlers only call the SDK. The
// safety policy is not here: server.ts applies it around every row whose kind is 'write'.
import {
  CryptoSettlementParamsSchema,
  CryptoSettlementSchema,
  MerchantCreateParamsSchema,
  type MerchantGateway,
  MerchantListParamsSchema,
  MerchantPaymentsPageSchema,
  MerchantSchema,
  MerchantsPageSchema,
  MerchantWithSettlementsSchema,
  PartnerPaymentListParamsSchema,
  PaymentActionParamsSchema,
  PaymentCancellationSchema,
  PaymentCreatedSchema,
  PaymentCreateParamsSchema,
  PaymentDetailsSchema,
  PaymentListParamsSchema,
  PaymentStatusParamsSchema,
  PaymentStatusResultSchema,
  PaymentViewSchema,
  RefundCreateParamsSchema,
  RefundSchema,
  SettlementListSchema,
} from 'merchant-gateway';
import * as z from 'zod/mini';
import type { WriteMethod } from './policy';
import { fromSdk, type Notes, type ToolSchema, withId } from './schema';

/** The longest a `payments_wait_for_final` call may wait: 10 minutes. */
export const MAX_WAIT_MS = 600_000;
/** How long `payments_wait_for_final` waits when `timeoutMs` is left out: 2 minutes. */
export const DEFAULT_WAIT_MS = 120_000;

/** What a handler gets besides its input. */
export interface CallContext {
  gateway: MerchantGateway;
  /** Sent as Idempotency-Key by keyed writes. */
  idempotencyKey: string;
  signal: AbortSignal;
  /** Reports progress when the client asked for it (a progressToken); a no-op otherwise. */
  progress: (progress: number, total: number | undefined, message: string) => void;
}

/** A call's outcome: the SDK's result, or its ApiPromise (whose request id the audit line keeps). */
type Outcome<O> = Promise<O> | { withResponse(): Promise<{ data: O; requestId?: string }> };

export interface ToolSpec<I = unknown, O = unknown> {
  name: string;
  title: string;
  description: string;
  /** `read` tools always exist; `write` tools only when allowed, and pass through the policy. */
  kind: 'read' | 'write';
  /** For writes: the SDK method `--allow` names. */
  method?: WriteMethod;
  input: ToolSchema<I>;
  output: ToolSchema<O>;
  /** For writes a human must confirm (elicitation): what they are asked. */
  confirm?: (input: I) => string;
  /**
   * The arguments as the tool was called, for the audit line, where `input` is reshaped by its
   * schema (`{ id, options }` of an id tool → `{ paymentId, merchantId }`). Default: `input`.
   */
  calledAs?: (input: I) => unknown;
  /** For `payments.create`: the amount the cap applies to. */
  amount?: (input: I) => unknown;
  /** Wraps a result that is not an object (MCP's structured content must be one). */
  wrap?: (result: unknown) => O;
  run: (input: I, call: CallContext) => Outcome<O>;
}

const define = <I, O>(spec: ToolSpec<I, O>): ToolSpec => spec as unknown as ToolSpec;

const STATUSES =
  'Statuses: requires_action (created, waiting for the buyer to pay), processing (paid, ' +
  'confirming on chain), succeeded (final: the money arrived), failed (final), expired (final: ' +
  'not paid in time), cancelled (final). isFinal: true means the status will never change again.';
const AMOUNTS =
  'Amounts are in minor units as strings of digits: {"unit":"iso4217/USD","value":"1999"} is USD 19.99 ' +
  '(JPY has no minor unit: "500" is JPY 500).';
const MERCHANT = 'The merchant id (m_…); defaults to the server’s --merchant-id.';

const paymentId = z.string().check(z.minLength(1, 'must not be empty'));
const merchantId = z.string().check(z.minLength(1, 'must not be empty'));

const listNotes: Notes = {
  merchantId: MERCHANT,
  startTs: 'Only payments created at or after this ISO 8601 date-time (with Z or an offset).',
  endTs: 'Only payments created before this ISO 8601 date-time.',
  status:
    'One status or a list of them. requires_action | processing | succeeded | failed | expired | cancelled.',
  tokenSymbol: 'One token symbol or a list, e.g. USDC.',
  network: 'Comma-separated CAIP-2 networks, e.g. eip155:8453.',
  limit: 'Payments per page, 1 to 200.',
  cursor: 'nextCursor of the previous page, to read the next one.',
  referenceId: 'Your own reference of the payment, exact match.',
};

const waitInput = z.object({
  paymentId,
  merchantId: z.optional(merchantId),
  timeoutMs: z.optional(
    z
      .int()
      .check(
        z.minimum(1_000, 'must be at least 1000'),
        z.maximum(MAX_WAIT_MS, 'must be at most 600000 (10 minutes)'),
      ),
  ),
});

export const TOOLS: readonly ToolSpec[] = [
  define({
    name: 'merchants_list',
    title: 'List merchants',
    kind: 'read',
    description:
      'Lists the partner’s merchants, one page: { merchants, totalCount, nextCursor }. Pass nextCursor as cursor for the next page.',
    input: fromSdk(MerchantListParamsSchema, {
      status: 'Only merchants in this status.',
      search: 'Matches merchant names and emails.',
      limit: 'Merchants per page, 1 to 200.',
      cursor: 'nextCursor of the previous page.',
    }),
    output: fromSdk(MerchantsPageSchema),
    run: (input, { gateway }) => gateway.merchants.list(input),
  }),
  define({
    name: 'merchants_get',
    title: 'Get a merchant',
    kind: 'read',
    description: 'Reads one merchant with its fiat and crypto settlements.',
    input: fromSdk(z.object({ merchantId }), { merchantId: 'The merchant id (m_…).' }),
    output: fromSdk(MerchantWithSettlementsSchema),
    run: (input, { gateway }) => gateway.merchants.get(input.merchantId),
  }),
  define({
    name: 'settlements_list',
    title: 'List a merchant’s settlements',
    kind: 'read',
    description: 'Lists where a merchant’s money goes: { fiat, crypto } settlement accounts.',
    input: fromSdk(z.object({ merchantId }), { merchantId: 'The merchant id (m_…).' }),
    output: fromSdk(SettlementListSchema),
    run: (input, { gateway }) => gateway.settlements.list(input.merchantId),
  }),
  define({
    name: 'payments_get',
    title: 'Get a payment as the buyer sees it',
    kind: 'read',
    description: `Reads a payment as the buyer sees it (amount, merchant, expiry, status). ${STATUSES}`,
    input: fromSdk(z.object({ paymentId }), { paymentId: 'The payment id (pay_…).' }),
    output: fromSdk(PaymentViewSchema),
    run: (input, { gateway }) => gateway.payments.get(input.paymentId),
  }),
  define({
    name: 'payments_details',
    title: 'Get a payment’s details',
    kind: 'read',
    description: `Reads a payment from the merchant’s side: reference, amounts, fees, transaction, settlement. ${AMOUNTS} ${STATUSES}`,
    input: withId('paymentId', paymentId, PaymentActionParamsSchema, {
      paymentId: 'The payment id (pay_…).',
      merchantId: MERCHANT,
    }),
    output: fromSdk(PaymentDetailsSchema),
    run: ({ id, options }, { gateway }) => gateway.payments.details(id, options),
  }),
  define({
    name: 'payments_status',
    title: 'Read a payment’s status',
    kind: 'read',
    description: `Reads a payment’s status once: { status, isFinal, pollInMs }. To wait for the outcome use payments_wait_for_final instead of calling this in a loop. ${STATUSES}`,
    input: withId('paymentId', paymentId, PaymentStatusParamsSchema, {
      paymentId: 'The payment id (pay_…).',
      merchantId: MERCHANT,
      maxPollMs:
        'Hold the read up to this many milliseconds (0 to 60000) until the status changes.',
    }),
    output: fromSdk(PaymentStatusResultSchema),
    run: ({ id, options }, { gateway }) => gateway.payments.status(id, options),
  }),
  define({
    name: 'payments_list',
    title: 'List a merchant’s payments',
    kind: 'read',
    description: `Lists one merchant’s payments, one page: { data, nextCursor, stats }, newest first unless sortBy/sortDir say otherwise. ${AMOUNTS} ${STATUSES}`,
    input: fromSdk(PaymentListParamsSchema, listNotes),
    output: fromSdk(MerchantPaymentsPageSchema),
    run: (input, { gateway }) => gateway.payments.list(input),
  }),
  define({
    name: 'partnerPayments_list',
    title: 'List payments across merchants',
    kind: 'read',
    description: `Lists payments across the partner’s merchants (all of them, or the merchantId list given), one page. ${AMOUNTS} ${STATUSES}`,
    input: fromSdk(PartnerPaymentListParamsSchema, {
      ...listNotes,
      merchantId: 'One merchant id or a list; left out: every merchant of the partner.',
    }),
    output: fromSdk(MerchantPaymentsPageSchema),
    run: (input, { gateway }) => gateway.partnerPayments.list(input),
  }),
  define({
    name: 'payments_wait_for_final',
    title: 'Wait for a payment’s final status',
    kind: 'read',
    description: `Waits until a payment reaches a final status (succeeded, failed, expired or cancelled) and returns it, sending progress notifications as the status changes. Waits at most timeoutMs (default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS}: 10 minutes), then fails with PollTimeoutError carrying the last status; call it again to keep waiting. ${STATUSES}`,
    input: fromSdk(waitInput, {
      paymentId: 'The payment id (pay_…).',
      merchantId: MERCHANT,
      timeoutMs: `Longest wait in milliseconds, 1000 to ${MAX_WAIT_MS}; default ${DEFAULT_WAIT_MS}.`,
    }),
    output: fromSdk(PaymentStatusResultSchema),
    run: async (input, { gateway, signal, progress }) => {
      const timeoutMs = input.timeoutMs ?? DEFAULT_WAIT_MS;
      const started = Date.now();
      return gateway.payments.waitForFinal(input.paymentId, {
        signal,
        timeoutMs,
        ...(input.merchantId !== undefined ? { merchantId: input.merchantId } : {}),
        onUpdate: (result) =>
          progress(
            Date.now() - started,
            timeoutMs,
            `status ${result.status}${result.isFinal ? ' (final)' : ''}`,
          ),
      });
    },
  }),
  define({
    name: 'merchants_create',
    title: 'Create a merchant',
    kind: 'write',
    method: 'merchants.create',
    description:
      'Creates a merchant (a shop the partner takes payments for). Keyed: repeating the same call returns the same merchant.',
    input: fromSdk(MerchantCreateParamsSchema, {
      merchantName: 'The shop’s name as buyers see it.',
      merchantEmail: 'The merchant’s contact email.',
      iconUrl: 'An https URL of the shop’s icon.',
    }),
    output: fromSdk(MerchantSchema),
    run: (input, { gateway, idempotencyKey }) =>
      gateway.merchants.create(input, { idempotencyKey }),
  }),
  define({
    name: 'settlements_createCrypto',
    title: 'Add crypto settlements to a merchant',
    kind: 'write',
    method: 'settlements.createCrypto',
    description:
      'Registers where a merchant is paid out in crypto: 1 to 50 { asset (CAIP-19), destination (CAIP-10 on the same chain) }. Returns { settlements }. Keyed.',
    input: fromSdk(
      z.object({
        merchantId,
        settlements: z.array(CryptoSettlementParamsSchema).check(z.minLength(1), z.maxLength(50)),
      }),
      {
        merchantId: 'The merchant id (m_…).',
        settlements:
          'e.g. [{"asset":"eip155:8453/erc20:0x8335…2913","destination":"eip155:8453:0xab16…fcdb"}]',
      },
    ),
    output: fromSdk(z.object({ settlements: z.array(CryptoSettlementSchema) })),
    run: async (input, { gateway, idempotencyKey }) => ({
      settlements: await gateway.settlements.createCrypto(input.merchantId, input.settlements, {
        idempotencyKey,
      }),
    }),
  }),
  define({
    name: 'payments_create',
    title: 'Create a payment',
    kind: 'write',
    method: 'payments.create',
    description: `Creates a payment for a buyer to pay at the returned gatewayUrl; its status starts as requires_action. ${AMOUNTS} Refused over the server’s --max-amount cap or in another currency. Keyed: repeating the same call returns the same payment.`,
    input: fromSdk(PaymentCreateParamsSchema, {
      merchantId: MERCHANT,
      amount: 'The amount to charge.',
      'amount.unit': 'iso4217/<CURRENCY>, e.g. iso4217/USD.',
      'amount.value': 'Minor units as a string of digits: "1999" is 19.99 in a 2-decimal currency.',
      referenceId: 'Your order reference, unique per order.',
      expiresAt:
        'Seconds since the epoch when the payment expires; null or absent: the service default (5 minutes).',
    }),
    output: fromSdk(PaymentCreatedSchema),
    amount: (input) => input.amount,
    run: (input, { gateway, idempotencyKey }) => gateway.payments.create(input, { idempotencyKey }),
  }),
  define({
    name: 'payments_cancel',
    title: 'Cancel a payment',
    kind: 'write',
    method: 'payments.cancel',
    description:
      'Cancels a payment that is not final yet (requires_action or processing); its status becomes cancelled (final). A final payment cannot be cancelled: refund a succeeded one instead. A human confirms each cancellation first. Keyed.',
    input: withId('paymentId', paymentId, PaymentActionParamsSchema, {
      paymentId: 'The payment id (pay_…).',
      merchantId: MERCHANT,
    }),
    output: fromSdk(PaymentCancellationSchema),
    calledAs: ({ id, options }) => ({ paymentId: id, ...options }),
    confirm: ({ id, options }) =>
      `Cancel payment ${id}${options.merchantId !== undefined ? ` of merchant ${options.merchantId}` : ''}? The buyer will no longer be able to pay it.`,
    run: ({ id, options }, { gateway, idempotencyKey }) =>
      gateway.payments.cancel(id, { ...options }, { idempotencyKey }),
  }),
  define({
    name: 'refunds_create',
    title: 'Refund a payment',
    kind: 'write',
    method: 'refunds.create',
    description:
      'Refunds a succeeded payment in full, once (a second refund fails with ConflictError already_refunded). A human confirms each refund first.',
    input: fromSdk(RefundCreateParamsSchema, {
      paymentId: 'The payment id (pay_…), status succeeded.',
      merchantId: MERCHANT,
    }),
    output: fromSdk(RefundSchema),
    confirm: (input) =>
      `Refund payment ${input.paymentId}${input.merchantId !== undefined ? ` of merchant ${input.merchantId}` : ''} in full? Money goes back to the buyer; this cannot be undone.`,
    run: (input, { gateway }) => gateway.refunds.create(input),
  }),
];
