/**
 * The steps of paying one option, shared by `buyer.pay` and the checkout controller: the option's
 * terms, its actions resolved to wallet RPC calls, each call checked against the option, and a
 * signature checked before it goes into a confirm. Every refusal goes through the caller's `fail`.
 */
import type { PayErrorInit, PayFailure } from '../core/errors/pay-error';
import { SIGN_TYPED_DATA_METHOD } from '../rules/buyer-inputs';
import { MAX_PAY_ACTIONS, type OptionTerms, optionTerms, signingMismatch } from '../rules/signing';
import type { BuyerAction, PaymentOption, WalletRpcAction } from '../schemas/buyer';
import {
  parseTypedData,
  type ServiceTypedData,
  type TypedDataToSign,
  toSigningData,
} from './typed-data';

/** Makes the error a step throws: a `PayError` for `buyer.pay`, the controller's own refusal. */
export type Fail = (
  reason: PayFailure,
  message: string,
  method?: string,
  more?: Omit<PayErrorInit, 'reason' | 'paymentId'>,
) => Error;

const STEP_BY_STEP =
  'run this payment step by step with buyer.options, buyer.fetchActions and buyer.confirm';
const HEX = /^0x[0-9a-fA-F]+$/;

/** Why a payment in `status` takes no signature, or undefined when it is still open. */
export function notOpenMessage(paymentId: string, status: string): string | undefined {
  if (status === 'processing') {
    return `payment ${paymentId} is processing: a confirm was accepted already, so there is nothing left to sign`;
  }
  return ['succeeded', 'failed', 'expired', 'cancelled'].includes(status)
    ? `payment ${paymentId} is already final (${status}): there is nothing left to pay`
    : undefined;
}

/** The option's chain, token and amount, or a refusal: only ERC-20 authorizations are signed. */
export function payableTerms(option: PaymentOption, fail: Fail): OptionTerms {
  const terms = optionTerms(option);
  if ('field' in terms) {
    throw fail(
      'action_mismatch',
      `the option's ${terms.field} is ${terms.actual}, not ${terms.expected}: pay signs ERC-20 authorizations only`,
      undefined,
      terms,
    );
  }
  return terms;
}

/**
 * The option's actions as wallet RPC calls: each `build` action resolved through `fetchActions`,
 * the action cap held, and every method one that is performed, all before anything is signed.
 */
export async function walletCalls(
  option: PaymentOption,
  fetchActions: (data: string) => PromiseLike<BuyerAction[]>,
  fail: Fail,
): Promise<WalletRpcAction[]> {
  const tooMany = (count: number, what: string) =>
    fail(
      'too_many_actions',
      `the option has ${count} ${what}, more than the ${MAX_PAY_ACTIONS} pay performs: ${STEP_BY_STEP}`,
    );
  if (option.actions.length > MAX_PAY_ACTIONS) throw tooMany(option.actions.length, 'actions');
  const calls: WalletRpcAction[] = [];
  const take = (action: BuyerAction, built: boolean) => {
    if (action.type === 'walletRpc') calls.push(action as WalletRpcAction);
    else {
      throw fail(
        'unsupported_action',
        `cannot perform an action of type "${action.type}"${built ? ' (answered by fetch)' : ''}: ${STEP_BY_STEP}`,
        action.type,
      );
    }
  };
  for (const action of option.actions) {
    if (action.type !== 'build') {
      take(action, false);
      continue;
    }
    for (const built of await fetchActions((action.data as { data: string }).data)) {
      take(built, true);
      if (calls.length > MAX_PAY_ACTIONS) throw tooMany(calls.length, 'wallet RPC actions or more');
    }
  }
  for (const { data } of calls) {
    if (data.method !== SIGN_TYPED_DATA_METHOD) {
      throw fail(
        'unsupported_action',
        `cannot perform the wallet RPC method ${JSON.stringify(data.method)} (only ${SIGN_TYPED_DATA_METHOD}): ${STEP_BY_STEP}`,
        data.method,
      );
    }
  }
  return calls;
}

/** One signature to ask for: the typed data as the service gave it, and as viem takes it. */
export interface SigningRequest {
  typed: ServiceTypedData;
  typedData: TypedDataToSign;
}

/**
 * Each call's typed data, checked against the option before the first signature: the signer is
 * `owner`, and the chain, token contract, amount and holder are the option's.
 */
export function signingRequests(
  calls: readonly WalletRpcAction[],
  terms: OptionTerms,
  owner: string,
  fail: Fail,
): SigningRequest[] {
  return calls.map(({ data }) => {
    const [signer, raw] = data.params;
    if (typeof signer !== 'string' || signer.toLowerCase() !== owner.toLowerCase()) {
      throw fail(
        'account_mismatch',
        `an ${SIGN_TYPED_DATA_METHOD} action asks ${typeof signer === 'string' ? signer : 'no address'} to sign, not the account ${owner}`,
        data.method,
      );
    }
    const typed = parseTypedData(raw);
    if (typed === undefined) {
      throw fail(
        'invalid_action',
        `an ${SIGN_TYPED_DATA_METHOD} action's second param is not EIP-712 typed data ({ domain, types, primaryType, message })`,
        data.method,
      );
    }
    const typedData = toSigningData(typed);
    const mismatch = signingMismatch(terms, owner, {
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
    return { typed, typedData };
  });
}

/** A wallet's answer as a confirm's result, or a refusal when it is not a hex signature. */
export function signatureResult(
  signature: unknown,
  fail: Fail,
): { type: 'walletRpc'; data: unknown[] } {
  if (typeof signature !== 'string' || !HEX.test(signature)) {
    throw fail(
      'invalid_action',
      'the account did not return a 0x-prefixed hex signature',
      SIGN_TYPED_DATA_METHOD,
    );
  }
  return { type: 'walletRpc', data: [signature] };
}

/** A thrown value's first line, for a message that quotes it. */
export function firstLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}
