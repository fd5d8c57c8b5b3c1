import { resolveMerchantId } from '../core/merchant-id';
import type { Transport } from '../core/transport';
import type { HoldLimit } from '../follow/hold-limit';

/** What every resource shares: the transport, the client's default merchant, what follows learn. */
export interface ResourceContext {
  transport: Transport;
  merchantId: string | undefined;
  /** How long held status reads may ask to be held, lowered when an intermediary cuts one. */
  holdLimit: HoldLimit;
}

/**
 * The merchant a payment call is for: the call's own, else the client's, checked (1 to 255
 * visible ASCII characters) by the one resolver every method that sends `Merchant-Id` uses.
 */
export function merchantIdFor(
  context: ResourceContext,
  operation: string,
  merchantId: string | undefined,
): string {
  return resolveMerchantId(operation, merchantId, context.merchantId);
}
