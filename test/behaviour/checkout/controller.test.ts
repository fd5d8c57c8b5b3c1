// createCheckout in Node with a BuyerClient on the mock over real HTTP and a real viem account:
// the whole flow from `loading` to `succeeded`, each terminal state, and re-quoting.
import {
  BuyerClient,
  CheckoutStateError,
  createCheckout,
  walletFromAccount,
  walletFromEip1193,
} from 'merchant-gateway/buyer';
import { createMockGateway } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { useListeningPartner } from '../../support';
import { injectedProvider, openPayment, reaches, spyWallet, statesOf } from './controller-support';

const mock = createMockGateway({ pollInMs: 100 });
const served = useListeningPartner(mock);
const client = () =>
  new BuyerClient({
    baseUrl: served.url,
    appId: mock.credentials.appId,
    clientId: mock.credentials.clientId,
  });
const confirms = (paymentId: string) =>
  mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`${paymentId}/confirm`))
    .length;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createCheckout with a BuyerClient', { timeout: 60_000 }, () => {
  test('goes from loading to succeeded: wallet, options, selection, signature, confirm, status', async () => {
    const payment = await openPayment(served.gateway, 'checkout-1');
    const account = privateKeyToAccount(generatePrivateKey());
    const wallet = spyWallet(account);
    const checkout = createCheckout({ paymentId: payment.paymentId, client: client(), wallet });
    const states = statesOf(checkout);

    await checkout.start();
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'ready_for_wallet',
      status: 'requires_action',
    });
    await checkout.connect();
    const { options, accounts } = checkout.getSnapshot();
    expect(accounts).toEqual([`eip155:8453:${account.address}`]);
    expect(options).toHaveLength(1);
    await checkout.select(options[0]?.id ?? '');
    await checkout.pay();

    expect(states).toEqual([
      'loading',
      'ready_for_wallet',
      'connecting_wallet',
      'loading_options',
      'options_ready',
      'option_selected',
      'awaiting_wallet',
      'confirming',
      'succeeded',
    ]);
    expect(checkout.getSnapshot()).toMatchObject({ status: 'succeeded', error: null });
    expect(wallet.signed).toHaveLength(1);
    expect(confirms(payment.paymentId)).toBe(1);
    const view = await served.gateway.buyer.get(payment.paymentId);
    expect(view.buyer?.accountCaip10.toLowerCase()).toBe(accounts[0]?.toLowerCase());
    // The snapshot is plain data: it survives a JSON round trip unchanged.
    const snapshot = checkout.getSnapshot();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  test.each([
    ['failed', 'failed'],
    ['expired', 'expired'],
    ['cancelled', 'cancelled'],
  ] as const)('a payment already %s lands in state %s at start()', async (status, state) => {
    const payment = await openPayment(served.gateway, `checkout-final-${status}`);
    mock.setPaymentStatus(payment.paymentId, status);
    const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
    const checkout = createCheckout({ paymentId: payment.paymentId, client: client(), wallet });
    await checkout.start();
    expect(checkout.getSnapshot()).toMatchObject({ state, status });
    await expect(checkout.connect()).rejects.toBeInstanceOf(CheckoutStateError);
  });

  test('an unknown payment id is invalid_payment', async () => {
    const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
    const checkout = createCheckout({ paymentId: 'pay_nosuchpayment', client: client(), wallet });
    await checkout.start();
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'invalid_payment',
      error: { code: 'payment_not_found' },
    });
  });

  test('a payment already processing at start() is confirming, then followed to its end', async () => {
    const payment = await openPayment(served.gateway, 'checkout-processing');
    mock.setPaymentStatus(payment.paymentId, 'processing');
    const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
    const checkout = createCheckout({ paymentId: payment.paymentId, client: client(), wallet });
    const started = checkout.start();
    await reaches(checkout, 'confirming');
    mock.setPaymentStatus(payment.paymentId, 'succeeded');
    await started;
    expect(checkout.getSnapshot()).toMatchObject({ state: 'succeeded', status: 'succeeded' });
    expect(wallet.signed).toHaveLength(0);
  });

  test('cancel() cancels an open payment as its buyer', async () => {
    const payment = await openPayment(served.gateway, 'checkout-cancel');
    const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
    const checkout = createCheckout({ paymentId: payment.paymentId, client: client(), wallet });
    await checkout.start();
    await checkout.cancel();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'cancelled', status: 'cancelled' });
    expect((await served.gateway.buyer.get(payment.paymentId)).status).toBe('cancelled');
  });
});

describe('quotes', { timeout: 60_000 }, () => {
  /** Moves every clock reading (the controller's and the mock's) `ms` later. */
  function laterBy(ms: number) {
    const now = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => now() + ms);
  }

  test('a quote past its expiresAt before the signature is re-quoted and nothing is signed', async () => {
    const payment = await openPayment(served.gateway, 'checkout-quote');
    const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
    const checkout = createCheckout({ paymentId: payment.paymentId, client: client(), wallet });
    await checkout.start();
    await checkout.connect();
    const first = checkout.getSnapshot().options[0];
    await checkout.select(first?.id ?? '');
    laterBy(6 * 60_000); // past the mock's five-minute quote
    await checkout.pay();

    const requoted = checkout.getSnapshot();
    expect(wallet.signed).toHaveLength(0);
    expect(requoted.state).toBe('option_selected');
    expect(requoted.quoteExpired).toBe(true);
    expect(requoted.selectedOption?.expiresAt).toBeGreaterThan((first?.expiresAt ?? 0) + 60);
    const refresh = mock.requests.filter((r) => r.path.endsWith('/options')).at(-1);
    expect(refresh?.body).toMatchObject({ refresh: [first?.id] });

    await checkout.pay();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'succeeded', quoteExpired: false });
    expect(wallet.signed).toHaveLength(1);
  });

  test('quote_expired from the confirm re-quotes, and the buyer pays the new quote', async () => {
    const payment = await openPayment(served.gateway, 'checkout-quote-confirm');
    // The quote runs out while the wallet is signing: the confirm comes too late.
    const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()), (count) => {
      if (count === 1) laterBy(6 * 60_000);
    });
    const checkout = createCheckout({ paymentId: payment.paymentId, client: client(), wallet });
    await checkout.start();
    await checkout.connect();
    await checkout.select(checkout.getSnapshot().options[0]?.id ?? '');
    await checkout.pay();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'option_selected', quoteExpired: true });
    expect(confirms(payment.paymentId)).toBe(1);

    await checkout.pay();
    expect(checkout.getSnapshot().state).toBe('succeeded');
    expect(confirms(payment.paymentId)).toBe(2);
  });
});

describe('wallets', { timeout: 60_000 }, () => {
  test('an injected wallet on another chain is switched to the option’s, and a rejection returns to the option', async () => {
    const payment = await openPayment(served.gateway, 'checkout-eip1193');
    const account = privateKeyToAccount(generatePrivateKey());
    const provider = injectedProvider(account, { chainId: 1, rejections: 1 });
    const wallet = walletFromEip1193(provider);
    const checkout = createCheckout({ paymentId: payment.paymentId, client: client(), wallet });
    await checkout.start();
    await checkout.connect();
    // Offered on every default EVM chain; the mock's merchant takes USDC on Base only.
    expect(checkout.getSnapshot().accounts).toHaveLength(7);
    await checkout.select(checkout.getSnapshot().options[0]?.id ?? '');
    await checkout.pay();
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'option_selected',
      error: { code: 'user_rejected' },
    });
    expect(confirms(payment.paymentId)).toBe(0);

    await checkout.pay();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'succeeded', error: null });
    expect(provider.chainId).toBe(8453);
    expect(provider.methods).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'eth_signTypedData_v4',
      'eth_chainId',
      'eth_signTypedData_v4',
    ]);
  });

  test('walletFromAccount signs only for its own address', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const wallet = walletFromAccount(account);
    expect(await wallet.accounts()).toHaveLength(7);
    await expect(
      wallet.signTypedData(`eip155:8453:0x${'11'.repeat(20)}`, {
        domain: {},
        types: {},
        primaryType: 'X',
        message: {},
      }),
    ).rejects.toThrow(/cannot sign for/);
  });
});
