// The official wallet SDK (@walletconnect/pay, its WASM engine) as a wallet developer drives it,
// with viem accounts signing what it asks: shared by the tests that pay with it.
import { type Action, type PaymentOption, WalletConnectPay } from '@walletconnect/pay';
import type { LocalAccount } from 'viem';

export type WalletAuth = { apiKey: string } | { appId: string; clientId: string };
export type Wallet = InstanceType<typeof WalletConnectPay>;

/** The wallet SDK pointed at the mock, silent. */
export function officialWallet(baseUrl: string, auth: WalletAuth): Wallet {
  return new WalletConnectPay({ ...auth, baseUrl, logger: 'silent' });
}

/** Signs one `eth_signTypedData_v4` action: its params are `[address, typed data JSON]` as JSON. */
export function signAction(account: LocalAccount, action: Action): Promise<`0x${string}`> {
  if (action.walletRpc.method !== 'eth_signTypedData_v4') {
    throw new Error(`cannot run ${action.walletRpc.method}`);
  }
  const [, typedData] = JSON.parse(action.walletRpc.params) as [string, string];
  return account.signTypedData(JSON.parse(typedData));
}

export interface WalletPayment {
  option: PaymentOption;
  signatures: `0x${string}`[];
}

/**
 * Options for the account on `chainId`, the option there, its actions (the wallet SDK calls
 * `fetch` for a `build` one) signed by `signer` (the account itself unless a forger is given).
 */
export async function prepare(
  wallet: Wallet,
  paymentId: string,
  account: LocalAccount,
  chainId: string,
  signer: LocalAccount = account,
): Promise<WalletPayment> {
  const { options } = await wallet.getPaymentOptions({
    paymentLink: paymentId,
    accounts: [`${chainId}:${account.address}`],
    includePaymentInfo: true,
  });
  const option = options.find((o) => o.account.startsWith(`${chainId}:`));
  if (!option) throw new Error(`no option on ${chainId}: ${JSON.stringify(options)}`);
  const actions = await wallet.getRequiredPaymentActions({ paymentId, optionId: option.id });
  const signatures = await Promise.all(actions.map((action) => signAction(signer, action)));
  return { option, signatures };
}

/** The whole payment as a wallet makes it: options, actions, signatures, confirm. */
export async function pay(
  wallet: Wallet,
  paymentId: string,
  account: LocalAccount,
  chainId = 'eip155:8453',
) {
  const { option, signatures } = await prepare(wallet, paymentId, account, chainId);
  return wallet.confirmPayment({ paymentId, optionId: option.id, signatures });
}
