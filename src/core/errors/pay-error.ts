import { MerchantGatewayError } from './base';

/**
 * Why `buyer.pay` stopped before confirming:
 * - `no_option`: the service offered no option for the account (on the chain, or with the id, asked for);
 * - `payment_not_open`: the payment no longer takes a buyer's action (`status` says which:
 *   `succeeded`, `failed`, `expired`, `cancelled`, or `processing` once a confirm was accepted);
 * - `unsupported_action`: an action `pay` cannot perform (a wallet RPC method other than
 *   `eth_signTypedData_v4`, or an action type it does not know): run that flow step by step;
 * - `too_many_actions`: the option carries more actions than `pay` performs (8);
 * - `account_mismatch`: an action asks another address to sign;
 * - `action_mismatch`: an action's typed data names another chain, token contract, amount or
 *   owner than the option (`field`, `expected` and `actual` say which);
 * - `invalid_action`: an action's params or typed data are not what its method takes, or the
 *   account's signature is not a hex string;
 * - `signing_failed`: the account threw while signing (a wallet's refusal, viem's own checks):
 *   its error is the `cause`.
 */
export type PayFailure =
  | 'no_option'
  | 'payment_not_open'
  | 'unsupported_action'
  | 'too_many_actions'
  | 'account_mismatch'
  | 'action_mismatch'
  | 'invalid_action'
  | 'signing_failed';

/** What a `PayError` carries besides its message. */
export interface PayErrorInit {
  reason: PayFailure;
  paymentId: string;
  optionId?: string;
  method?: string;
  status?: string;
  field?: string;
  expected?: string;
  actual?: string;
  cause?: unknown;
}

/**
 * `buyer.pay` could not pay with the account. Always thrown before the confirm: the payment is
 * unchanged, and nothing was signed after the step named here.
 */
export class PayError extends MerchantGatewayError {
  /** @internal */
  static override readonly '~brand': string = 'PayError';
  override readonly name: string = 'PayError';
  /** What stopped the payment (see `PayFailure`). */
  readonly reason: PayFailure;
  /** The payment being paid. */
  readonly paymentId: string;
  /** The option chosen, once one was. */
  readonly optionId?: string;
  /** The action's wallet RPC method (or unknown action type) that could not be performed. */
  readonly method?: string;
  /** The payment's status, for `payment_not_open`. */
  readonly status?: string;
  /** For `action_mismatch`: the field of the action (`domain.chainId`, `message.value`, …). */
  readonly field?: string;
  /** For `action_mismatch`: what the option says the field must be. */
  readonly expected?: string;
  /** For `action_mismatch`: what the action has instead. */
  readonly actual?: string;

  constructor(message: string, init: PayErrorInit) {
    super(`buyer.pay: ${message}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.reason = init.reason;
    this.paymentId = init.paymentId;
    for (const key of ['optionId', 'method', 'status', 'field', 'expected', 'actual'] as const) {
      if (init[key] !== undefined) this[key] = init[key];
    }
  }
}
