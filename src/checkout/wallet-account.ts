import { RequestValidationError } from '../core/errors/base';
import type { CheckoutWallet } from './controller-types';
import { type BuyerAccount, toSigningData } from './typed-data';
import { ADDRESS, addressOf, type CheckoutWalletOptions, walletChains } from './wallet-chains';

/**
 * A checkout wallet over a viem account (`privateKeyToAccount(key)`, a wallet client's account,
 * a KMS signer: anything with `address` and viem's `signTypedData`), for Node, tests and
 * server-side wallets. Its address is offered on `chains` (default: `buyer.pay`'s EVM chains);
 * it signs only for that address, with `EIP712Domain` dropped as viem wants it.
 *
 * @example
 * ```ts
 * import { privateKeyToAccount } from 'viem/accounts';
 * const wallet = walletFromAccount(privateKeyToAccount(key), { chains: ['eip155:8453'] });
 * ```
 * @throws {RequestValidationError} for an account without a 0x address or `signTypedData`, or a
 * chain that is not an EVM chain.
 */
export function walletFromAccount(
  account: BuyerAccount,
  options?: CheckoutWalletOptions,
): CheckoutWallet {
  const operation = 'walletFromAccount';
  if (typeof account?.address !== 'string' || !ADDRESS.test(account.address)) {
    throw new RequestValidationError(operation, [
      { field: 'account.address', message: 'must be a 0x-prefixed 20-byte hex address' },
    ]);
  }
  if (typeof account.signTypedData !== 'function') {
    throw new RequestValidationError(operation, [
      {
        field: 'account.signTypedData',
        message: 'must be a function that signs EIP-712 typed data',
      },
    ]);
  }
  const chains = walletChains(operation, options);
  return {
    accounts: async () => chains.map((chain) => `${chain}:${account.address}`),
    signTypedData: async (caip10, typedData) => {
      if (addressOf(caip10).toLowerCase() !== account.address.toLowerCase()) {
        throw new Error(`${operation}: cannot sign for ${caip10}, only for ${account.address}`);
      }
      return account.signTypedData(toSigningData(typedData));
    },
  };
}
