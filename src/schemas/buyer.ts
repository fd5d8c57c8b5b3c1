import * as z from 'zod/mini';
import { BUYER_ACCOUNTS_PER_CALL, OPTION_ID_LENGTH } from '../rules/buyer-inputs';
import { MAX_POLL_MS } from '../rules/ids';
import { isCaip10AccountId } from '../rules/settlements';
import {
  booleanField,
  exact,
  maybe,
  maybeNumber,
  numberField,
  oneOf,
  openEnum,
  requiredString,
  responseObject,
  satisfying,
  stringField,
  text,
} from './common';
import { AmountSchema, type PaymentStatus, PaymentViewSchema } from './payment-view';

// The Gateway API's shapes: what a wallet or a PSP's checkout backend sends and reads to pay a
// payment. Built like the other schema modules: each response shape unnamed, given a named
// interface, and exported as a schema typed by that interface.

const walletRpcRequest = responseObject({
  /** CAIP-2 chain the call is for, e.g. `eip155:8453`. */
  chain_id: stringField,
  /** The wallet RPC method, e.g. `eth_signTypedData_v4`. */
  method: stringField,
  /** The method's params: for `eth_signTypedData_v4`, `[address, JSON of the EIP-712 typed data]`. */
  params: z.array(z.unknown()),
});
/** A wallet RPC call to make: `chain_id`, `method` and `params`, in the wallet RPC's own names. */
export interface WalletRpcRequest extends z.output<typeof walletRpcRequest> {}
/** A wallet RPC call to make: `chain_id`, `method` and `params`, in the wallet RPC's own names. */
export const WalletRpcRequestSchema: z.ZodMiniType<WalletRpcRequest> = walletRpcRequest;

const walletRpcAction = responseObject({
  type: oneOf(['walletRpc']),
  data: WalletRpcRequestSchema,
});
/** An action the wallet performs: one RPC call, whose result goes into `confirm`'s `results`. */
export interface WalletRpcAction extends z.output<typeof walletRpcAction> {}
/** An action the wallet performs: one RPC call, whose result goes into `confirm`'s `results`. */
export const WalletRpcActionSchema: z.ZodMiniType<WalletRpcAction> = walletRpcAction;

const buildPayload = responseObject({
  /** Opaque: sent back as is to `buyer.fetchActions`. */
  data: stringField,
});
/** What a `build` action carries: the payload `buyer.fetchActions` turns into wallet RPC actions. */
export interface BuildPayload extends z.output<typeof buildPayload> {}
/** What a `build` action carries: the payload `buyer.fetchActions` turns into wallet RPC actions. */
export const BuildPayloadSchema: z.ZodMiniType<BuildPayload> = buildPayload;

const buildAction = responseObject({
  type: oneOf(['build']),
  data: BuildPayloadSchema,
});
/** An action the service builds on request: `buyer.fetchActions(id, { optionId, data: action.data.data })`. */
export interface BuildAction extends z.output<typeof buildAction> {}
/** An action the service builds on request: `buyer.fetchActions(id, { optionId, data: action.data.data })`. */
export const BuildActionSchema: z.ZodMiniType<BuildAction> = buildAction;

const otherAction = responseObject({ type: stringField, data: z.optional(z.unknown()) });
/**
 * An action of a type this SDK does not know yet (the service may add some): kept as it came,
 * so a caller can still handle it. `buyer.pay` refuses to confirm an option that has one.
 */
export interface UnknownBuyerAction extends Omit<z.output<typeof otherAction>, 'type'> {
  type: string & {};
}

/**
 * One step of paying with an option: a wallet RPC call (`walletRpc`), a payload to build into
 * such calls (`build`), or a type to come. Narrow it with `isWalletRpcAction` / `isBuildAction`
 * (a check of `type` alone leaves the unknown kind in the union).
 */
export type BuyerAction = WalletRpcAction | BuildAction | UnknownBuyerAction;
/**
 * One step of paying with an option. A known type is checked against its own shape (each
 * problem named by its path, e.g. `data.params`); an unknown type is kept as it came.
 */
export const BuyerActionSchema: z.ZodMiniType<BuyerAction> = otherAction.check(
  z.check((payload) => {
    const { type } = payload.value;
    const known = type === 'walletRpc' ? walletRpcAction : type === 'build' ? buildAction : null;
    if (known === null) return;
    const result = z.safeParse(known, payload.value);
    if (result.success) return;
    for (const issue of result.error.issues) {
      payload.issues.push({ ...issue, input: issue.input } as z.core.$ZodRawIssue);
    }
  }),
) as z.ZodMiniType<BuyerAction>;

/** Whether `action` is a wallet RPC call (narrows a `BuyerAction`). */
export function isWalletRpcAction(action: BuyerAction): action is WalletRpcAction {
  return action.type === 'walletRpc';
}

/** Whether `action` is a payload for `buyer.fetchActions` (narrows a `BuyerAction`). */
export function isBuildAction(action: BuyerAction): action is BuildAction {
  return action.type === 'build';
}

/** The types of field a data-collection form asks for; others may come. */
export type CollectDataFieldType = 'text' | 'date' | 'checkbox' | (string & {});

const collectDataField = responseObject({
  /** Sent back as `collectedData.fields[].id`. */
  id: stringField,
  /** Human-readable label. */
  name: stringField,
  required: booleanField,
  type: openEnum<'text' | 'date' | 'checkbox'>(),
});
/** One field of a data-collection form (deprecated by the service in favour of `url`). */
export interface CollectDataField extends z.output<typeof collectDataField> {}
/** One field of a data-collection form (deprecated by the service in favour of `url`). */
export const CollectDataFieldSchema: z.ZodMiniType<CollectDataField> = collectDataField;

const collectData = responseObject({
  /** Where the buyer fills in the form (a web view). */
  url: stringField,
  /** JSON Schema of the form's data. */
  schema: z.optional(z.unknown()),
  /**
   * The form's fields: the service marks them deprecated in favour of `url` and `schema`, so
   * their absence is accepted.
   */
  fields: z.optional(z.array(CollectDataFieldSchema)),
});
/** Data the buyer must give before confirming (identity checks): a form at `url`. */
export interface CollectData extends z.output<typeof collectData> {}
/** Data the buyer must give before confirming (identity checks): a form at `url`. */
export const CollectDataSchema: z.ZodMiniType<CollectData> = collectData;

const paymentOption = responseObject({
  /** Names the option in `fetchActions` and `confirm`; up to 65,536 characters. */
  id: stringField,
  /** The buyer's CAIP-10 account the option pays from. */
  account: stringField,
  /** What the buyer pays: `unit` is `caip19/<asset>`, `value` in the token's smallest unit. */
  amount: AmountSchema,
  /** Estimated seconds until the payment completes. */
  etaS: numberField,
  /** The steps to pay with this option, in order; `confirm` takes one result per wallet RPC call. */
  actions: z.array(BuyerActionSchema),
  /**
   * Seconds since the epoch after which the quote is stale (confirm then answers
   * `quote_expired`: read the options again). Null or absent for options without a rate.
   */
  expiresAt: maybeNumber,
  /** Data this option's account must give before confirming, when it must. */
  collectData: maybe(CollectDataSchema),
});
/** One way to pay a payment: an account, a token amount and the actions to perform. */
export interface PaymentOption extends z.output<typeof paymentOption> {}
/** One way to pay a payment: an account, a token amount and the actions to perform. */
export const PaymentOptionSchema: z.ZodMiniType<PaymentOption> = paymentOption;

// `options` null or absent is read as `[]` by an overwrite check of the object rather than a pipe
// into a transform: the same result, and a wallet's bundle carries no pipe or transform machinery
// (about 300 B gzip). Its type says what the check makes of it.
const optionList = maybe(z.array(PaymentOptionSchema)) as unknown as z.ZodMiniType<
  PaymentOption[],
  PaymentOption[] | null | undefined
>;

const paymentOptions = responseObject({
  /**
   * Every option for the accounts asked about; empty when none fits (the service may send
   * `null` or leave the field out: both are read as `[]`).
   */
  options: optionList,
  /** The payment's buyer-facing view, when asked for with `includePaymentInfo: true`. */
  info: maybe(PaymentViewSchema),
  /** Data to collect from the buyer for every option, when the service needs it. */
  collectData: maybe(CollectDataSchema),
}).check(
  z.overwrite((body) => {
    body.options ??= [];
    return body;
  }),
);
/** What `buyer.options` returns: `options` is always an array (`[]` when none fits). */
export interface PaymentOptions extends z.output<typeof paymentOptions> {}
/** What `POST /v1/gateway/payment/{id}/options` answers; `options` null or absent parses as `[]`. */
export const PaymentOptionsSchema: z.ZodMiniType<PaymentOptions> = paymentOptions;

const fetchActionsResult = responseObject({ actions: z.array(BuyerActionSchema) });
/** What `POST /v1/gateway/payment/{id}/fetch` answers; `buyer.fetchActions` returns its `actions`. */
export interface FetchActionsResult extends z.output<typeof fetchActionsResult> {}
/** What `POST /v1/gateway/payment/{id}/fetch` answers; `buyer.fetchActions` returns its `actions`. */
export const FetchActionsResultSchema: z.ZodMiniType<FetchActionsResult> = fetchActionsResult;

const gatewayCancellation = responseObject({
  paymentId: stringField,
  status: openEnum<PaymentStatus>(),
  /** Free text, e.g. `cancelled_by_user`. */
  cancelledReason: stringField,
  /** When the payment was cancelled (RFC 3339). */
  cancelledAt: stringField,
});
/** What `buyer.cancel` returns: the cancelled payment's id, status, reason and time. */
export interface GatewayCancellation extends z.output<typeof gatewayCancellation> {}
/** What `POST /v1/gateway/payment/{id}/cancel` answers. */
export const GatewayCancellationSchema: z.ZodMiniType<GatewayCancellation> = gatewayCancellation;

// Requests. Each rule comes from src/rules/, where the mock reads it too.

const ACCOUNT_RULE = `must be a CAIP-10 account id (<namespace>:<reference>:<address>, e.g. eip155:8453:0xab16…), 1 to 256 characters`;
const ACCOUNTS_RULE = `must be ${BUYER_ACCOUNTS_PER_CALL.min} to ${BUYER_ACCOUNTS_PER_CALL.max} CAIP-10 account ids`;

/** An option id as a request carries it: 1 to 65,536 characters. */
const OptionIdSchema = text(OPTION_ID_LENGTH.min, OPTION_ID_LENGTH.max);

/** Input of `buyer.options`. */
export const PaymentOptionsParamsSchema = exact({
  /** The buyer's accounts, CAIP-10 (`eip155:8453:0xab16…`): 1 to 50. One option per fitting account. */
  accounts: z
    .array(satisfying(isCaip10AccountId, ACCOUNT_RULE), { error: ACCOUNTS_RULE })
    .check(
      z.minLength(BUYER_ACCOUNTS_PER_CALL.min, ACCOUNTS_RULE),
      z.maxLength(BUYER_ACCOUNTS_PER_CALL.max, ACCOUNTS_RULE),
    ),
  /** Ids of options whose quotes to renew. */
  refresh: z.optional(
    z.nullable(z.array(OptionIdSchema, { error: 'must be an array of option ids' })),
  ),
  /** Also answer the payment's buyer-facing view as `info` (sent as the query `includePaymentInfo`). */
  includePaymentInfo: z.optional(booleanField),
});
/** Input of `buyer.options`: `accounts` (CAIP-10, 1 to 50), `refresh?`, `includePaymentInfo?`. */
export type PaymentOptionsParams = z.input<typeof PaymentOptionsParamsSchema>;

/** Input of `buyer.fetchActions`. */
export const FetchActionsParamsSchema = exact({
  /** The option the `build` action belongs to. */
  optionId: OptionIdSchema,
  /** The `build` action's `data.data`, as it came. */
  data: requiredString(),
});
/** Input of `buyer.fetchActions`: the option's id and the `build` action's `data.data`. */
export type FetchActionsParams = z.input<typeof FetchActionsParamsSchema>;

/** One result of a wallet RPC action, in the order of the option's actions. */
const WalletRpcResultSchema = exact({
  type: oneOf(['walletRpc'], 'must be "walletRpc"'),
  /** What the RPC call returned, e.g. `[signature]` for `eth_signTypedData_v4`. */
  data: z.array(z.unknown(), { error: 'must be an array (e.g. [signature])' }),
});

/** Input of `buyer.confirm`. */
export const ConfirmPaymentParamsSchema = exact({
  /** The option being paid with. */
  optionId: OptionIdSchema,
  /** One result per wallet RPC action of the option (after `fetchActions`), in their order. */
  results: z.array(WalletRpcResultSchema, { error: 'must be an array of wallet RPC results' }),
  /** The data the option's `collectData` asked for, when it asked. */
  collectedData: z.optional(
    z.nullable(
      exact({ fields: z.array(exact({ id: requiredString(), value: requiredString() })) }),
    ),
  ),
});
/** Input of `buyer.confirm`: `optionId`, `results` in the actions' order, `collectedData?`. */
export type ConfirmPaymentParams = z.input<typeof ConfirmPaymentParamsSchema>;

const MAX_POLL_RULE = `must be a whole number of milliseconds from 0 to ${MAX_POLL_MS}`;

/** Options of `buyer.status` and `buyer.confirm`. */
export const BuyerPollParamsSchema = exact({
  /**
   * Longest time, in milliseconds, the service may hold the answer, giving it early when the
   * status changes. A whole number from 0 to 60,000; absent or 0 asks for an immediate answer.
   */
  maxPollMs: z.optional(
    z
      .number({ error: MAX_POLL_RULE })
      .check(z.refine((n) => Number.isSafeInteger(n) && n >= 0 && n <= MAX_POLL_MS, MAX_POLL_RULE)),
  ),
});
/** Options of `buyer.status` and `buyer.confirm`: `maxPollMs`, to hold the answer (long polling). */
export type BuyerPollParams = z.input<typeof BuyerPollParamsSchema>;
