import { RequestValidationError } from '../core/errors/base';
import type { CheckoutWallet } from './controller-types';
import { ADDRESS, addressOf, type CheckoutWalletOptions, walletChains } from './wallet-chains';

/** An injected browser wallet (`window.ethereum`), as EIP-1193 defines it. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>;
}

/**
 * A checkout wallet over an injected browser wallet (EIP-1193): `eth_requestAccounts` to
 * connect (the first account is offered on `chains`, default `buyer.pay`'s EVM chains),
 * `eth_chainId` then `wallet_switchEthereumChain` when an option's chain is not the wallet's,
 * and `eth_signTypedData_v4`. The wallet's rejection (code 4001) reaches the checkout as it is:
 * the snapshot's `error.code` is then `user_rejected`.
 *
 * @example
 * ```ts
 * const wallet = walletFromEip1193(window.ethereum);
 * ```
 * @throws {RequestValidationError} for a provider without `request`, or a chain that is not EVM.
 */
export function walletFromEip1193(
  provider: Eip1193Provider,
  options?: CheckoutWalletOptions,
): CheckoutWallet {
  const operation = 'walletFromEip1193';
  if (typeof provider?.request !== 'function') {
    throw new RequestValidationError(operation, [
      { field: 'provider.request', message: 'must be an EIP-1193 provider (window.ethereum)' },
    ]);
  }
  const chains = walletChains(operation, options);
  return {
    accounts: async () => {
      const [address] = (await provider.request({ method: 'eth_requestAccounts' })) as unknown[];
      if (typeof address !== 'string' || !ADDRESS.test(address)) {
        throw new Error(`${operation}: the wallet gave no account (eth_requestAccounts)`);
      }
      return chains.map((chain) => `${chain}:${address}`);
    },
    signTypedData: async (account, typedData) => {
      const wanted = BigInt(account.split(':')[1] ?? '0');
      const current = await provider.request({ method: 'eth_chainId' });
      // A wallet that answers its chain oddly is switched: the switch is harmless when already there.
      if (
        typeof current !== 'string' ||
        !/^0x[0-9a-fA-F]+$/.test(current) ||
        BigInt(current) !== wanted
      ) {
        await provider.request({
          method: 'wallet_switchEthereumChain',
          params: [{ chainId: `0x${wanted.toString(16)}` }],
        });
      }
      return (await provider.request({
        method: 'eth_signTypedData_v4',
        params: [addressOf(account), JSON.stringify(typedData)],
      })) as string;
    },
  };
}
