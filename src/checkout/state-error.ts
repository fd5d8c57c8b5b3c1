import { MerchantGatewayError } from '../core/errors/base';
import type { CheckoutAction, CheckoutState } from './controller-types';

/**
 * An action the checkout does not take where it stands (`pay()` before an option is selected,
 * anything after `destroy()`): nothing was sent and the snapshot is unchanged.
 *
 * @example
 * ```ts
 * checkout.pay().catch((error) => {
 *   if (error instanceof CheckoutStateError) console.log(error.action, error.state);
 * });
 * ```
 */
export class CheckoutStateError extends MerchantGatewayError {
  /** @internal */
  static override readonly '~brand': string = 'CheckoutStateError';
  override readonly name: string = 'CheckoutStateError';
  /** The action refused. */
  readonly action: CheckoutAction;
  /** The state the checkout was in. */
  readonly state: CheckoutState;

  constructor(action: CheckoutAction, state: CheckoutState, why: string) {
    super(`checkout.${action}() does not apply in state ${state}: ${why}`);
    this.action = action;
    this.state = state;
  }
}
