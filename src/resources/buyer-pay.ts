import { RequestValidationError, type ValidationIssue } from '../core/errors/base';
import { PayError, type PayErrorInit, type PayFailure } from '../core/errors/pay-error';
import { pathIdProblem } from '../core/http/path';
import { signalProblem } from '../core/http/prepare';
import { own } from '../core/safety/own';
import { OPTION_ID_LENGTH, SIGN_TYPED_DATA_METHOD } from '../rules/buyer-inputs';
import { FINAL_PAYMENT_STATUSES } from '../rules/payments';
import { chainOf } from '../rules/settlements';
import { MAX_PAY_ACTIONS, optionTerms, signingMismatch } from '../rules/signing';
import { hasLengthWithin } from '../rules/text';
import type {
  BuyerAction,
  PaymentOption,
  PaymentOptions,
  PaymentOptionsParams,
  WalletRpcAction,
} from '../schemas/buyer';
import type { PaymentStatusResult } from '../schemas/payment-status';

/** EIP-712 typed data as `buyer.pay` hands it to an account (`EIP712Domain` left out of `types`). */
export interface TypedDataToSign {
  /** The signing domain; `chainId` is a number even when the service wrote it in hex. */
  domain: {
    name?: string;
    version?: string;
    chainId?: number | bigint;
    verifyingContract?: `0x${string}`;
    salt?: `0x${string}`;
  };
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/**
 * What `buyer.pay` signs with: a viem `LocalAccount` (`privateKeyToAccount(key)`), or anything
 * with an `address` and viem's `signTypedData` signature (a wallet client's account, a KMS signer).
 */
export interface BuyerAccount {
  /** The account's 0x-prefixed, 20-byte EVM address (any case). */
  address: string;
  /** Signs EIP-712 typed data; resolves with the 0x-prefixed hex signature. */
  signTypedData(typedData: TypedDataToSign): Promise<string>;
}

/** Input of `buyer.pay`. */
export interface BuyerPayParams {
  /** Signs the payment's EIP-712 actions. */
  account: BuyerAccount;
  /**
   * The chain to pay on: a CAIP-2 id (`'eip155:8453'`) or an EVM chain id (`8453`). Without it
   * the account is offered on Ethereum, Optimism, BNB Smart Chain, Polygon, Base, Arbitrum One
   * and Avalanche, and the first option the service answers is taken.
   */
  chainId?: string | number | undefined;
  /** The option to pay with (from `buyer.options`), instead of the first for the account. */
  optionId?: string | undefined;
  /** Aborts at once, between steps and during a request; rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** The calls `pay` is made of: the buyer resource's own methods. */
interface BuyerSteps {
  options(
    paymentId: string,
    params: PaymentOptionsParams,
    options?: { signal?: AbortSignal | undefined },
  ): PromiseLike<PaymentOptions>;
  fetchActions(
    paymentId: string,
    params: { optionId: string; data: string },
    options?: { signal?: AbortSignal | undefined },
  ): PromiseLike<BuyerAction[]>;
  confirm(
    paymentId: string,
    params: { optionId: string; results: { type: 'walletRpc'; data: unknown[] }[] },
    poll?: { maxPollMs?: number },
    options?: { signal?: AbortSignal | undefined },
  ): PromiseLike<PaymentStatusResult>;
}

/**
 * The EVM chains `pay` offers an account on when no `chainId` is given: Ethereum, Optimism, BNB
 * Smart Chain, Polygon, Base, Arbitrum One and Avalanche C-Chain, in that order.
 */
const DEFAULT_PAY_CHAINS = [
  'eip155:1',
  'eip155:10',
  'eip155:56',
  'eip155:137',
  'eip155:8453',
  'eip155:42161',
  'eip155:43114',
] as const;

const OPERATION = 'buyer.pay';
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EIP155_CHAIN = /^eip155:[0-9]{1,32}$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const FIELDS = new Set(['account', 'chainId', 'optionId', 'signal']);

interface Checked {
  account: BuyerAccount;
  chain: string | undefined;
  optionId: string | undefined;
  signal: AbortSignal | undefined;
}

/** The call's input, checked before anything is sent; a problem is a RequestValidationError. */
function check(paymentId: unknown, given: unknown): Checked {
  const issues: ValidationIssue[] = [];
  const idProblem = pathIdProblem(paymentId);
  if (idProblem !== undefined) issues.push({ field: 'paymentId', message: idProblem });
  if (typeof given !== 'object' || given === null) {
    throw new RequestValidationError(OPERATION, [
      ...issues,
      { field: '', message: 'expected { account, chainId?, optionId?, signal? }' },
    ]);
  }
  const params = own(given) as Record<string, unknown>;
  for (const key of Object.keys(params)) {
    if (!FIELDS.has(key))
      issues.push({ field: key, message: 'is not a field of this call (a typo?)' });
  }
  const account = params.account as Partial<BuyerAccount> | undefined;
  if (typeof account !== 'object' || account === null) {
    issues.push({
      field: 'account',
      message:
        'is required: an account with address and signTypedData (e.g. viem privateKeyToAccount)',
    });
  } else {
    if (typeof account.address !== 'string' || !ADDRESS.test(account.address)) {
      issues.push({
        field: 'account.address',
        message: 'must be a 0x-prefixed 20-byte hex address',
      });
    }
    if (typeof account.signTypedData !== 'function') {
      issues.push({
        field: 'account.signTypedData',
        message: 'must be a function that signs EIP-712 typed data',
      });
    }
  }
  const { chainId, optionId, signal } = params;
  let chain: string | undefined;
  if (typeof chainId === 'number' && Number.isSafeInteger(chainId) && chainId > 0) {
    chain = `eip155:${chainId}`;
  } else if (typeof chainId === 'string' && EIP155_CHAIN.test(chainId)) {
    chain = chainId;
  } else if (chainId !== undefined) {
    issues.push({
      field: 'chainId',
      message: "must be a CAIP-2 EVM chain ('eip155:8453') or a positive EVM chain id (8453)",
    });
  }
  if (
    optionId !== undefined &&
    (typeof optionId !== 'string' || !hasLengthWithin(optionId, OPTION_ID_LENGTH))
  ) {
    issues.push({
      field: 'optionId',
      message: `must be ${OPTION_ID_LENGTH.min} to ${OPTION_ID_LENGTH.max} characters`,
    });
  }
  const badSignal = signalProblem(signal);
  if (badSignal !== undefined) issues.push({ field: 'signal', message: badSignal });
  if (issues.length > 0) throw new RequestValidationError(OPERATION, issues);
  return {
    account: account as BuyerAccount,
    chain,
    optionId: optionId as string | undefined,
    signal: signal as AbortSignal | undefined,
  };
}

/** Whether a payment in `status` takes no more buyer's action: final, or confirmed already. */
function isClosed(status: string): boolean {
  return status === 'processing' || (FINAL_PAYMENT_STATUSES as readonly string[]).includes(status);
}

/** The address part of a CAIP-10 account, lower-cased for comparison (EVM addresses ignore case). */
function addressOf(caip10: string): string {
  return caip10.slice(caip10.lastIndexOf(':') + 1).toLowerCase();
}

function choose(
  options: PaymentOption[],
  address: string,
  wanted: Checked,
  fail: (reason: PayFailure, message: string, extra?: { optionId?: string }) => PayError,
): PaymentOption {
  const mine = options.filter(
    (option) =>
      addressOf(option.account) === address &&
      (wanted.chain === undefined || chainOf(option.account) === wanted.chain),
  );
  const where = wanted.chain === undefined ? '' : ` on ${wanted.chain}`;
  if (wanted.optionId !== undefined) {
    const named = mine.find((option) => option.id === wanted.optionId);
    if (named === undefined) {
      throw fail('no_option', `the option asked for is not offered for account ${address}${where}`);
    }
    return named;
  }
  const first = mine[0];
  if (first === undefined) {
    throw fail(
      'no_option',
      `no payment option for account ${address}${where} (the service offered ${options.length} in all): the merchant takes no token on ${wanted.chain ?? 'these chains'} for it`,
    );
  }
  return first;
}

/** EIP-712 typed data from an action's params, as an account's `signTypedData` takes it. */
function typedDataOf(raw: unknown): TypedDataToSign | undefined {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { domain, types, primaryType, message } = value as Record<string, unknown>;
  if (typeof domain !== 'object' || domain === null) return undefined;
  if (typeof types !== 'object' || types === null || typeof primaryType !== 'string')
    return undefined;
  if (typeof message !== 'object' || message === null) return undefined;
  // viem (like ethers) derives EIP712Domain from the domain itself and refuses it in `types`;
  // it includes `chainId` only when it is a number, so a hex or decimal string becomes one.
  const { EIP712Domain: _, ...rest } = types as Record<
    string,
    readonly { name: string; type: string }[]
  >;
  const signingDomain = { ...(domain as Record<string, unknown>) };
  const { chainId } = signingDomain;
  if (typeof chainId === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(chainId)) {
    const n = Number(chainId);
    signingDomain.chainId = Number.isSafeInteger(n) ? n : BigInt(chainId);
  }
  return {
    domain: signingDomain as TypedDataToSign['domain'],
    types: rest,
    primaryType,
    message: message as Record<string, unknown>,
  };
}

/**
 * `buyer.pay`: options → fetch (for `build` actions) → sign → confirm. Every action is resolved
 * and checked before the first signature, and every signature made before the confirm.
 */
export async function payWithAccount(
  buyer: BuyerSteps,
  paymentId: string,
  params: BuyerPayParams,
): Promise<PaymentStatusResult> {
  const wanted = check(paymentId, params);
  const { account, signal } = wanted;
  const address = account.address.toLowerCase();
  const call = { signal };
  let optionId: string | undefined;
  const fail = (
    reason: PayFailure,
    message: string,
    method?: string,
    more: Omit<PayErrorInit, 'reason' | 'paymentId'> = {},
  ) =>
    new PayError(message, {
      reason,
      paymentId,
      ...(optionId === undefined ? {} : { optionId }),
      ...(method === undefined ? {} : { method }),
      ...more,
    });

  const chains = wanted.chain === undefined ? DEFAULT_PAY_CHAINS : [wanted.chain];
  const accounts = chains.map((chain) => `${chain}:${account.address}`);
  // The payment's view comes with the options, so a payment that is no longer open says so.
  const { options, info } = await buyer.options(
    paymentId,
    { accounts, includePaymentInfo: true },
    call,
  );
  const status = info?.status;
  if (status !== undefined && isClosed(status)) {
    throw fail(
      'payment_not_open',
      status === 'processing'
        ? `payment ${paymentId} is processing: a confirm was accepted already, so there is nothing left to sign`
        : `payment ${paymentId} is already final (${status}): there is nothing left to pay`,
      undefined,
      { status },
    );
  }
  const option = choose(options, address, wanted, (reason, message) => fail(reason, message));
  optionId = option.id;
  const terms = optionTerms(option);
  if ('field' in terms) {
    throw fail(
      'action_mismatch',
      `the option's ${terms.field} is ${terms.actual}, not ${terms.expected}: pay signs ERC-20 authorizations only`,
      undefined,
      terms,
    );
  }
  const tooMany = (count: number, what: string) =>
    fail(
      'too_many_actions',
      `the option has ${count} ${what}, more than the ${MAX_PAY_ACTIONS} pay performs: run this payment step by step with buyer.options, buyer.fetchActions and buyer.confirm`,
    );
  if (option.actions.length > MAX_PAY_ACTIONS) throw tooMany(option.actions.length, 'actions');

  // Every build resolved and every method checked before anything is signed.
  const calls: WalletRpcAction[] = [];
  const take = (action: BuyerAction, built: boolean) => {
    if (action.type === 'walletRpc') calls.push(action as WalletRpcAction);
    else {
      throw fail(
        'unsupported_action',
        `cannot perform an action of type "${action.type}"${built ? ' (answered by fetch)' : ''}: run this payment step by step with buyer.options, buyer.fetchActions and buyer.confirm`,
        action.type,
      );
    }
  };
  for (const action of option.actions) {
    if (action.type !== 'build') {
      take(action, false);
      continue;
    }
    const data = (action.data as { data: string }).data;
    for (const built of await buyer.fetchActions(paymentId, { optionId: option.id, data }, call)) {
      take(built, true);
      if (calls.length > MAX_PAY_ACTIONS) throw tooMany(calls.length, 'wallet RPC actions or more');
    }
  }
  for (const { data } of calls) {
    if (data.method !== SIGN_TYPED_DATA_METHOD) {
      throw fail(
        'unsupported_action',
        `cannot perform the wallet RPC method ${JSON.stringify(data.method)} (only ${SIGN_TYPED_DATA_METHOD}): run this payment step by step with buyer.options, buyer.fetchActions and buyer.confirm`,
        data.method,
      );
    }
  }
  const requests = calls.map(({ data }) => {
    const [signer, raw] = data.params;
    if (typeof signer !== 'string' || signer.toLowerCase() !== address) {
      throw fail(
        'account_mismatch',
        `an ${SIGN_TYPED_DATA_METHOD} action asks ${typeof signer === 'string' ? signer : 'no address'} to sign, not the account ${account.address}`,
        data.method,
      );
    }
    const typedData = typedDataOf(raw);
    if (typedData === undefined) {
      throw fail(
        'invalid_action',
        `an ${SIGN_TYPED_DATA_METHOD} action's second param is not EIP-712 typed data ({ domain, types, primaryType, message })`,
        data.method,
      );
    }
    const mismatch = signingMismatch(terms, account.address, {
      chainId: data.chain_id,
      domain: typedData.domain,
      message: typedData.message,
    });
    if (mismatch !== undefined) {
      throw fail(
        'action_mismatch',
        `an ${SIGN_TYPED_DATA_METHOD} action's ${mismatch.field} is ${mismatch.actual}, not the option's ${mismatch.expected}`,
        data.method,
        mismatch,
      );
    }
    return typedData;
  });

  const results: { type: 'walletRpc'; data: unknown[] }[] = [];
  for (const typedData of requests) {
    signal?.throwIfAborted();
    let signature: unknown;
    try {
      signature = await account.signTypedData(typedData);
    } catch (error) {
      signal?.throwIfAborted();
      throw fail(
        'signing_failed',
        `the account could not sign the ${typedData.primaryType} typed data: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        SIGN_TYPED_DATA_METHOD,
        { cause: error },
      );
    }
    if (typeof signature !== 'string' || !HEX.test(signature)) {
      throw fail(
        'invalid_action',
        'the account did not return a 0x-prefixed hex signature',
        SIGN_TYPED_DATA_METHOD,
      );
    }
    results.push({ type: 'walletRpc', data: [signature] });
  }
  signal?.throwIfAborted();
  return buyer.confirm(paymentId, { optionId: option.id, results }, {}, call);
}
