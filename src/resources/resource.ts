import { RequestValidationError } from '../core/errors';
import type { HoldLimit } from '../core/follow-policy';
import type { Transport } from '../core/transport';
import { parseRequest } from '../core/validate';
import { MerchantIdSchema } from '../schemas/payments';

/** What every resource shares: the transport, the client's default merchant, what follows learn. */
export interface ResourceContext {
  transport: Transport;
  merchantId: string | undefined;
  /** How long held status reads may ask to be held, lowered when an intermediary cuts one. */
  holdLimit: HoldLimit;
}

/**
 * The merchant a payment call is for: the call's own, else the client's, checked here (1 to 255
 * visible ASCII characters) so every method that sends `Merchant-Id` applies the same rule.
 */
export function merchantIdFor(
  context: ResourceContext,
  operation: string,
  merchantId: string | undefined,
): string {
  const id = merchantId ?? context.merchantId;
  if (typeof id !== 'string' || id === '') {
    throw new RequestValidationError(operation, [
      {
        field: 'merchantId',
        message: 'is required: pass merchantId in the call or set it on the client',
      },
    ]);
  }
  return parseRequest(operation, MerchantIdSchema, id, 'merchantId');
}
