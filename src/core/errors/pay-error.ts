import { MerchantGatewayError } from './base';

/**
 * Why `buyer.pay` stopped before confirming:
 * - `no_option`: the service offered no option for the account (on the chain, or with the id, asked for);
 * - `unsupported_action`: an action `pay` cannot perform (a wallet RPC method other than
 *   `eth_signTypedData_v4`, or an action type it does not know): run that flow step by step;
 * - `account_mismatch`: an action asks another address to sign;
 * - `invalid_action`: an action's params or typed data are not what its method takes, or the
 *   account's signature is not a hex string.
 */
export type PayFailure = 'no_option' | 'unsupported_action' | 'account_mismatch' | 'invalid_action';

/**
 * `buyer.pay` could not pay with the account. Always thrown before the confirm: the payment is
 * unchanged, and nothing was signed after the step named here.
 */
export class PayError extends MerchantGatewayError {
  override readonly name: string = 'PayError';
  /** What stopped the payment (see `PayFailure`). */
  readonly reason: PayFailure;
  /** The payment being paid. */
  readonly paymentId: string;
  /** The option chosen, once one was. */
  readonly optionId?: string;
  /** The action's wallet RPC method (or unknown action type) that could not be performed. */
  readonly method?: string;

  constructor(
    message: string,
    init: { reason: PayFailure; paymentId: string; optionId?: string; method?: string },
  ) {
    super(`buyer.pay: ${message}`);
    this.reason = init.reason;
    this.paymentId = init.paymentId;
    if (init.optionId !== undefined) this.optionId = init.optionId;
    if (init.method !== undefined) this.method = init.method;
  }
}
