/** How a wallet's failure reads in the snapshot. */
import type { CheckoutError } from './controller-types';

/** EIP-1193's "user rejected the request" (code 4001), on the error or one of its causes. */
export function isUserRejection(error: unknown): boolean {
  for (let at = error, depth = 0; depth < 5 && typeof at === 'object' && at !== null; depth++) {
    if ((at as { code?: unknown }).code === 4001) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/** A wallet's failure for the snapshot: the buyer's refusal, or what the wallet said. */
export function walletError(error: unknown, code: string): CheckoutError {
  if (isUserRejection(error)) {
    return { code: 'user_rejected', message: 'the buyer rejected the request in the wallet' };
  }
  return { code, message: error instanceof Error ? error.message : String(error) };
}
