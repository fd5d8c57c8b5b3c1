/**
 * Signing one option in a checkout, loaded with the first `pay()` (as `buyer.pay`'s flow is):
 * every action resolved and checked as `buyer.pay` checks it, then signed by the wallet.
 */
import type { PayFailure } from '../core/errors/pay-error';
import type { PaymentOption } from '../schemas/buyer';
import type { CheckoutError, CheckoutWallet } from './controller-types';
import {
  type Fail,
  firstLine,
  payableTerms,
  signatureResult,
  signingRequests,
  walletCalls,
} from './pay-steps';
import type { CheckoutTransport } from './transport';
import { addressOf } from './wallet-chains';
import { isUserRejection } from './wallet-errors';

/** A refusal before the next signature: a `PayError` reason, or `user_rejected`. */
class Refusal extends Error {
  readonly reason: PayFailure | 'user_rejected';

  constructor(reason: PayFailure | 'user_rejected', message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The confirm's results, or why nothing (more) was signed; a failed call rejects as it came. */
export async function signOption(
  option: PaymentOption,
  transport: CheckoutTransport,
  wallet: CheckoutWallet,
  signal: AbortSignal,
): Promise<{ results: { type: 'walletRpc'; data: unknown[] }[] } | { refused: CheckoutError }> {
  const fail: Fail = (reason, message) => new Refusal(reason, message);
  try {
    const terms = payableTerms(option, fail);
    const calls = await walletCalls(
      option,
      (data) => transport.fetchActions(option.id, data, signal),
      fail,
    );
    const requests = signingRequests(calls, terms, addressOf(option.account), fail);
    const results: { type: 'walletRpc'; data: unknown[] }[] = [];
    for (const { typed } of requests) {
      signal.throwIfAborted();
      let signature: unknown;
      try {
        signature = await wallet.signTypedData(option.account, typed);
      } catch (error) {
        if (isUserRejection(error)) {
          throw new Refusal('user_rejected', 'the buyer rejected the signature in the wallet');
        }
        throw fail(
          'signing_failed',
          `the wallet could not sign the ${typed.primaryType} typed data: ${firstLine(error)}`,
        );
      }
      results.push(signatureResult(signature, fail));
    }
    return { results };
  } catch (error) {
    if (error instanceof Refusal)
      return { refused: { code: error.reason, message: error.message } };
    throw error;
  }
}
