// What the checkout tests share: payments in the mock, wallets that count what they sign, an
// injected EIP-1193 provider over a viem account, and a record of every state a checkout passed.
import type { MerchantGateway } from 'merchant-gateway';
import {
  type Checkout,
  type CheckoutSnapshot,
  type CheckoutWallet,
  type Eip1193Provider,
  walletFromAccount,
} from 'merchant-gateway/buyer';
import type { LocalAccount } from 'viem';

export const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** A merchant that settles USDC on Base, and a payment of USD 12.50 to it open for an hour. */
export async function openPayment(gateway: MerchantGateway, referenceId: string) {
  const merchant = await gateway.merchants.create({
    merchantName: 'Checkout Coffee',
    merchantEmail: 'checkout@coffee.example',
  });
  await gateway.settlements.createCrypto(merchant.id, [
    { asset: USDC_BASE, destination: 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb' },
  ]);
  return gateway.payments.create({
    merchantId: merchant.id,
    amount: { unit: 'iso4217/USD', value: '1250' },
    referenceId,
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
  });
}

/** A wallet that signs with `account` on Base and keeps every typed data it was asked to sign. */
export function spyWallet(
  account: LocalAccount,
  before?: (count: number) => void | Promise<void>,
): CheckoutWallet & { signed: unknown[] } {
  const inner = walletFromAccount(account, { chains: ['eip155:8453'] });
  const signed: unknown[] = [];
  return {
    signed,
    accounts: () => inner.accounts(),
    async signTypedData(caip10, typedData) {
      signed.push(typedData);
      await before?.(signed.length);
      return inner.signTypedData(caip10, typedData);
    },
  };
}

/** What an injected wallet was asked, in order. */
export interface ProviderLog {
  methods: string[];
  chainId: number;
}

/**
 * An injected wallet (EIP-1193) backed by a viem account, on `chainId` at first: it switches
 * chains when asked, and rejects the first `rejections` signature requests as a user would (4001).
 */
export function injectedProvider(
  account: LocalAccount,
  { chainId = 1, rejections = 0 }: { chainId?: number; rejections?: number } = {},
): Eip1193Provider & ProviderLog {
  let left = rejections;
  const log: ProviderLog = { methods: [], chainId };
  return Object.assign(log, {
    async request({ method, params }: { method: string; params?: readonly unknown[] | object }) {
      log.methods.push(method);
      const list = (params ?? []) as unknown[];
      switch (method) {
        case 'eth_requestAccounts':
          return [account.address];
        case 'eth_chainId':
          return `0x${log.chainId.toString(16)}`;
        case 'wallet_switchEthereumChain':
          log.chainId = Number((list[0] as { chainId: string }).chainId);
          return null;
        case 'eth_signTypedData_v4': {
          if (left > 0) {
            left -= 1;
            throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
          }
          const typed = JSON.parse(list[1] as string);
          delete typed.types.EIP712Domain;
          if (Number(typed.domain.chainId) !== log.chainId) throw new Error('chain mismatch');
          return account.signTypedData(typed);
        }
        default:
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      }
    },
  });
}

/** Every state `checkout` passes through from now on, in order, without repeats. */
export function statesOf(checkout: Checkout): CheckoutSnapshot['state'][] {
  const states: CheckoutSnapshot['state'][] = [checkout.getSnapshot().state];
  checkout.subscribe(() => {
    const { state } = checkout.getSnapshot();
    if (states.at(-1) !== state) states.push(state);
  });
  return states;
}

/** Resolves once `checkout` is in `state` (checked on each change). */
export function reaches(checkout: Checkout, state: CheckoutSnapshot['state']): Promise<void> {
  return new Promise((resolve) => {
    if (checkout.getSnapshot().state === state) return resolve();
    const stop = checkout.subscribe(() => {
      if (checkout.getSnapshot().state !== state) return;
      stop();
      resolve();
    });
  });
}
