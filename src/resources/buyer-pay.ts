import {
  type Fail,
  firstLine,
  notOpenMessage,
  payableTerms,
  signatureResult,
  signingRequests,
  walletCalls,
} from '../checkout/pay-steps';
import type { BuyerAccount } from '../checkout/typed-data';
import { RequestValidationError, type ValidationIssue } from '../core/errors/base';
import { PayError, type PayFailure } from '../core/errors/pay-error';
import { pathIdProblem } from '../core/http/path';
import { signalProblem } from '../core/http/prepare';
import { ownProperties } from '../core/safety/own-properties';
import { OPTION_ID_LENGTH, SIGN_TYPED_DATA_METHOD } from '../rules/buyer-inputs';
import { chainOf } from '../rules/settlements';
import { DEFAULT_PAY_CHAINS } from '../rules/signing';
import { hasLengthWithin } from '../rules/text';
import type {
  BuyerAction,
  PaymentOption,
  PaymentOptions,
  PaymentOptionsParams,
} from '../schemas/buyer';
import type { PaymentStatusResult } from '../schemas/payment-status';

export type { BuyerAccount, TypedDataToSign } from '../checkout/typed-data';

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

const OPERATION = 'buyer.pay';
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EIP155_CHAIN = /^eip155:[0-9]{1,32}$/;
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
  const params = ownProperties(given) as Record<string, unknown>;
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

/** The address part of a CAIP-10 account, lower-cased for comparison (EVM addresses ignore case). */
function addressOf(caip10: string): string {
  return caip10.slice(caip10.lastIndexOf(':') + 1).toLowerCase();
}

function choose(
  options: PaymentOption[],
  address: string,
  wanted: Checked,
  fail: (reason: PayFailure, message: string) => Error,
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
  const call = { signal };
  let optionId: string | undefined;
  const fail: Fail = (reason, message, method, more = {}) =>
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
  const closed = status === undefined ? undefined : notOpenMessage(paymentId, status);
  if (status !== undefined && closed !== undefined) {
    throw fail('payment_not_open', closed, undefined, { status });
  }
  const option = choose(options, account.address.toLowerCase(), wanted, (reason, message) =>
    fail(reason, message),
  );
  optionId = option.id;
  const terms = payableTerms(option, fail);
  const calls = await walletCalls(
    option,
    (data) => buyer.fetchActions(paymentId, { optionId: option.id, data }, call),
    fail,
  );
  const requests = signingRequests(calls, terms, account.address, fail);

  const results: { type: 'walletRpc'; data: unknown[] }[] = [];
  for (const { typedData } of requests) {
    signal?.throwIfAborted();
    let signature: unknown;
    try {
      signature = await account.signTypedData(typedData);
    } catch (error) {
      signal?.throwIfAborted();
      throw fail(
        'signing_failed',
        `the account could not sign the ${typedData.primaryType} typed data: ${firstLine(error)}`,
        SIGN_TYPED_DATA_METHOD,
        { cause: error },
      );
    }
    results.push(signatureResult(signature, fail));
  }
  signal?.throwIfAborted();
  return buyer.confirm(paymentId, { optionId: option.id, results }, {}, call);
}
