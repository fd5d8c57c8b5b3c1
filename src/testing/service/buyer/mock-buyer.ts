/**
 * A buyer paying in-process, through the same quotes and confirm a wallet's HTTP calls reach: what
 * `mock.pay()` and the checkout page's Pay do, with an account of the caller's or the mock's own.
 */
import { ICONS_BASE, type Wallet } from '../../state/catalog';
import type { Store } from '../../state/store';
import type { MockBuyerAccount, MockPayResult } from '../../types';
import { ServiceError } from '../http/responses';
import { findPayment } from '../resources/payments';
import { generateAccount } from './buyer-crypto';
import { payableChains, quoteOptions, typedDataOf } from './buyer-quotes';
import { checkOpen, confirmationJson, confirmQuote } from './gateway-buyer';

/** The wallet a mock's own payment is recorded as. */
export const MOCK_WALLET: Wallet = {
  name: 'Mock checkout',
  iconUrl: `${ICONS_BASE}/wallets/mock-checkout.png`,
};

/** One buyer account per mock, its private key generated on first use and kept in memory only. */
const accounts = new WeakMap<Store, Promise<MockBuyerAccount>>();

export function mockAccount(store: Store): Promise<MockBuyerAccount> {
  let account = accounts.get(store);
  if (!account) {
    account = generateAccount();
    accounts.set(store, account);
  }
  return account;
}

/**
 * Pays an open payment as `account` would from a wallet: options for its address on each chain
 * the payment can be paid on (only `chainId` when given), the first option, its typed data signed
 * by the account, then the confirm. Throws the service's refusal as a `ServiceError`.
 */
export async function payAs(
  store: Store,
  paymentId: string,
  account: MockBuyerAccount,
  wallet: Wallet,
  chainId?: string,
): Promise<MockPayResult> {
  const payment = findPayment(store, paymentId);
  checkOpen(payment, Date.now());
  const payable = payableChains(store, payment);
  if (payable.length === 0) throw noCryptoSettlement(paymentId);
  const chains = payable.filter((c) => chainId === undefined || c === chainId);
  const [quote] = quoteOptions(
    store,
    payment,
    chains.map((chain) => `${chain}:${account.address}`),
    Date.now(),
  );
  if (!quote) {
    throw new ServiceError(
      400,
      'invalid_params',
      `Payment ${paymentId} has no option for ${account.address}${chainId ? ` on ${chainId}` : ''}`,
    );
  }
  const signature = await account.signTypedData(typedDataOf(quote));
  await confirmQuote(store, payment, quote.id, [{ type: 'walletRpc', data: [signature] }], wallet);
  return confirmationJson(store, payment) as MockPayResult;
}

/**
 * A merchant with no crypto settlement in a token the mock quotes gets no option, so nothing can
 * pay it: 400 `invalid_params` (an `ErrorCode` value; the request, not the payment, is at fault).
 */
function noCryptoSettlement(paymentId: string): ServiceError {
  return new ServiceError(
    400,
    'invalid_params',
    `Payment ${paymentId} cannot be paid: its merchant accepts no crypto yet (no crypto settlement in a token the mock quotes: USDC or USDT on Ethereum, Base, OP Mainnet or Arbitrum; register one with settlements.createCrypto)`,
  );
}
