import type { Transport } from '../core/http/transport';
import { resolveMerchantId } from '../core/validate';
import type { HoldLimit } from '../follow/hold-limit';

/** What every client's resources share: the transport and the client's default merchant. */
export interface BaseContext {
  transport: Transport;
  merchantId: string | undefined;
}

/**
 * What the main client's resources share: the base, and what follows learn (the buyer entry has
 * no follows, so its bundle carries no HoldLimit).
 */
export interface ResourceContext extends BaseContext {
  /** How long held status reads may ask to be held, lowered when an intermediary cuts one. */
  holdLimit: HoldLimit;
}

/**
 * The merchant a payment call is for: the call's own, else the client's, checked (1 to 255
 * visible ASCII characters) by the one resolver every method that sends `Merchant-Id` uses.
 */
export function merchantIdFor(
  context: BaseContext,
  operation: string,
  merchantId: string | undefined,
): string {
  return resolveMerchantId(operation, merchantId, context.merchantId);
}
