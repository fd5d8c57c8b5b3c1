/** The chains a checkout wallet offers its address on, shared by both adapters. */
import { RequestValidationError } from '../core/errors/base';
import { DEFAULT_PAY_CHAINS } from '../rules/signing';

/** Options of `walletFromAccount` and `walletFromEip1193`. */
export interface CheckoutWalletOptions {
  /**
   * The EVM chains to offer the address on: CAIP-2 ids (`'eip155:8453'`) or chain ids (`8453`).
   * Default: every chain `buyer.pay` offers it on (Ethereum, Optimism, BNB Smart Chain, Polygon,
   * Base, Arbitrum One, Avalanche), whatever chain the wallet is on now.
   */
  chains?: readonly (string | number)[] | undefined;
}

const EIP155_CHAIN = /^eip155:[1-9][0-9]{0,31}$/;
export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** `chains` as CAIP-2 ids; a bad one is a RequestValidationError naming it. */
export function walletChains(
  operation: string,
  options: CheckoutWalletOptions | undefined,
): string[] {
  const given = options?.chains;
  if (given === undefined) return [...DEFAULT_PAY_CHAINS];
  const rule = "must be a CAIP-2 EVM chain ('eip155:8453') or a positive EVM chain id (8453)";
  if (!Array.isArray(given) || given.length === 0) {
    throw new RequestValidationError(operation, [
      { field: 'chains', message: `must be a non-empty array; each ${rule}` },
    ]);
  }
  return given.map((chain: unknown, index) => {
    if (typeof chain === 'number' && Number.isSafeInteger(chain) && chain > 0) {
      return `eip155:${chain}`;
    }
    if (typeof chain === 'string' && EIP155_CHAIN.test(chain)) return chain;
    throw new RequestValidationError(operation, [{ field: `chains.${index}`, message: rule }]);
  });
}

/** The address of a CAIP-10 account id (`eip155:8453:0xab…` → `0xab…`). */
export const addressOf = (account: string): string => account.slice(account.lastIndexOf(':') + 1);
