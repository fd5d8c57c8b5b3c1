// A browser wallet for Chromium tests: a `window.ethereum` injected before any page script, whose
// `request` is answered in Node by a viem account, as an extension would (it switches chains when
// asked, refuses typed data for another chain than its own, and can reject a signature: 4001).
import type { BrowserContext } from 'playwright-core';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

export interface InjectedWallet {
  readonly account: PrivateKeyAccount;
  /** The chain the wallet is on now (it starts on `startChainId`). */
  chainId: number;
  /** Every method the page called, in order, with the chain it targets when it switches. */
  readonly calls: string[];
  /** The next `n` signature requests are rejected as a user would (EIP-1193 code 4001). */
  rejectNextSignatures(n: number): void;
}

interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string };
}

/** Injects the wallet into every page of `context`; `startChainId` is where it starts (e.g. Ethereum). */
export async function injectWallet(
  context: BrowserContext,
  startChainId: number,
): Promise<InjectedWallet> {
  let rejections = 0;
  const wallet: InjectedWallet = {
    account: privateKeyToAccount(generatePrivateKey()),
    chainId: startChainId,
    calls: [],
    rejectNextSignatures(n) {
      rejections = n;
    },
  };
  const answer = async (method: string, params: unknown[]): Promise<RpcAnswer> => {
    wallet.calls.push(method);
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [wallet.account.address] };
      case 'eth_chainId':
        return { result: `0x${wallet.chainId.toString(16)}` };
      case 'wallet_switchEthereumChain': {
        const [{ chainId }] = params as [{ chainId: string }];
        wallet.chainId = Number.parseInt(chainId, 16);
        wallet.calls.push(`switched to ${wallet.chainId}`);
        return { result: null };
      }
      case 'eth_signTypedData_v4': {
        if (rejections > 0) {
          rejections -= 1;
          return { error: { code: 4001, message: 'User rejected the request.' } };
        }
        const [address, json] = params as [string, string];
        const typedData = JSON.parse(json) as Parameters<PrivateKeyAccount['signTypedData']>[0] & {
          domain: { chainId?: number | string };
        };
        if (address.toLowerCase() !== wallet.account.address.toLowerCase()) {
          return { error: { code: 4100, message: `Unknown account ${address}` } };
        }
        // Extensions refuse typed data for a chain other than the active one.
        if (Number(typedData.domain.chainId) !== wallet.chainId) {
          return {
            error: {
              code: -32602,
              message: `chainId ${typedData.domain.chainId} is not the active chain ${wallet.chainId}`,
            },
          };
        }
        return { result: await wallet.account.signTypedData(typedData) };
      }
      default:
        return { error: { code: 4200, message: `Unsupported method ${method}` } };
    }
  };
  await context.exposeFunction('__injectedWalletRequest', answer);
  await context.addInitScript(() => {
    type Bridge = (method: string, params: unknown[]) => Promise<RpcAnswer>;
    const bridge = (globalThis as unknown as { __injectedWalletRequest: Bridge })
      .__injectedWalletRequest;
    const ethereum = {
      isInjectedTestWallet: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const { result, error } = await bridge(method, params ?? []);
        if (error) throw Object.assign(new Error(error.message), { code: error.code });
        return result;
      },
      on() {},
      removeListener() {},
    };
    Object.defineProperty(globalThis, 'ethereum', { value: ethereum, configurable: true });
  });
  return wallet;
}
