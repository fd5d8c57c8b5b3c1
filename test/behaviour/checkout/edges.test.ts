// The checkout's edges, on a route of the test's own: bad input named before anything is sent,
// failures that leave the buyer where they can go on, answers that end the payment, renewals,
// back, and a checkout destroyed or aborted mid-flow.
import { RequestValidationError } from 'merchant-gateway';
import {
  type CheckoutWallet,
  createCheckout,
  walletFromAccount,
  walletFromEip1193,
} from 'merchant-gateway/buyer';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { option, processing, succeeded } from '../../support/buyer-fixtures';
import { spyWallet } from './controller-support';
import { type OwnRouteAnswers, ownRoute } from './own-route';

const account = privateKeyToAccount(generatePrivateKey());
const offered = (id = 'opt_usdc_base') => option(account.address, { id });
const refusal = (code: string) => ({ error: { code, message: `the service said ${code}` } });

async function on(answers: Partial<OwnRouteAnswers>, wallet: CheckoutWallet = spyWallet(account)) {
  const service = await ownRoute({ options: [offered()], ...answers });
  const checkout = createCheckout({ paymentId: 'pay_edges', route: service.route, wallet });
  return { checkout, service, wallet };
}

describe('input named before anything is sent', () => {
  const wallet = walletFromAccount(account);
  test.each([
    ['paymentId', { paymentId: '..', route: '/api/wcp', wallet }],
    ['route', { paymentId: 'pay_1', wallet }],
    ['route', { paymentId: 'pay_1', route: '/api/wcp', client: {}, wallet }],
    ['route', { paymentId: 'pay_1', route: '', wallet }],
    ['client', { paymentId: 'pay_1', client: { get() {} }, wallet }],
    ['wallet.accounts', { paymentId: 'pay_1', route: '/api/wcp', wallet: {} }],
    ['signal', { paymentId: 'pay_1', route: '/api/wcp', wallet, signal: 'stop' }],
  ])('createCheckout names %s', (field, options) => {
    const call = () => createCheckout(options as never);
    expect(call).toThrow(RequestValidationError);
    expect(call).toThrow(new RegExp(`${field.replace('.', '\\.')}: `));
  });

  test('the wallets name a bad account, provider or chain', () => {
    expect(() => walletFromAccount({ address: '0x12', signTypedData: async () => '0x' })).toThrow(
      /account\.address/,
    );
    expect(() => walletFromAccount({ address: account.address } as never)).toThrow(
      /account\.signTypedData/,
    );
    expect(() => walletFromEip1193({} as never)).toThrow(/provider\.request/);
    expect(() => walletFromAccount(account, { chains: ['solana:mainnet'] })).toThrow(/chains\.0/);
    expect(() => walletFromAccount(account, { chains: [] })).toThrow(/chains: must be a non-empty/);
    expect(() => createCheckout(null as never)).toThrow(/expected \{ paymentId/);
  });
});

describe('failures leave the buyer where they can go on', { timeout: 60_000 }, () => {
  test('a failed read of the payment stays in loading with the error; start() again reads it', async () => {
    const { checkout } = await on({
      override: (step, _, seen) => (step === '/' && seen.length === 1 ? 'drop' : undefined),
    });
    await checkout.start();
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'loading',
      error: { code: 'connection_error' },
    });
    await checkout.start();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'ready_for_wallet', error: null });
  });

  test('an answer that is not the wire shape is invalid_response', async () => {
    const { checkout } = await on({
      override: (step) => (step === '/' ? [200, { nope: 1 }] : undefined),
    });
    await checkout.start();
    expect(checkout.getSnapshot().error?.code).toBe('invalid_response');
  });

  test('a wallet that refuses to connect, or gives no account, leaves ready_for_wallet', async () => {
    const refusing: CheckoutWallet = {
      accounts: () => Promise.reject(Object.assign(new Error('no'), { code: 4001 })),
      signTypedData: () => Promise.reject(new Error('unused')),
    };
    const first = await on({}, refusing);
    await first.checkout.start();
    await first.checkout.connect();
    expect(first.checkout.getSnapshot()).toMatchObject({
      state: 'ready_for_wallet',
      error: { code: 'user_rejected' },
    });
    const empty = await on({}, { ...refusing, accounts: async () => [] });
    await empty.checkout.start();
    await empty.checkout.connect();
    expect(empty.checkout.getSnapshot()).toMatchObject({
      state: 'ready_for_wallet',
      error: { code: 'wallet_error' },
      accounts: [],
    });
  });

  test('options that fail return to the wallet step with the error, accounts forgotten', async () => {
    const { checkout } = await on({
      override: (step) => (step === '/options' ? [500, refusal('internal_error')] : undefined),
    });
    await checkout.start();
    await checkout.connect();
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'ready_for_wallet',
      accounts: [],
      error: { code: 'internal_error' },
    });
  });

  test('a wallet that fails to sign, or answers no signature, leaves the option with the reason', async () => {
    for (const [sign, code] of [
      [() => Promise.reject(new Error('device locked')), 'signing_failed'],
      [async () => 'not a signature', 'invalid_action'],
    ] as const) {
      const wallet = { ...walletFromAccount(account, { chains: [8453] }), signTypedData: sign };
      const { checkout, service } = await on({}, wallet);
      await checkout.start();
      await checkout.connect();
      await checkout.select('opt_usdc_base');
      await checkout.pay();
      expect(checkout.getSnapshot()).toMatchObject({ state: 'option_selected', error: { code } });
      expect(service.seen.map((s) => s.path)).not.toContain('/confirm');
    }
  });

  test('a confirm refused (invalid_params) leaves the option; invalid_state reads the status', async () => {
    const refused = await on({
      override: (step) => (step === '/confirm' ? [400, refusal('invalid_params')] : undefined),
    });
    await refused.checkout.start();
    await refused.checkout.connect();
    await refused.checkout.select('opt_usdc_base');
    await refused.checkout.pay();
    expect(refused.checkout.getSnapshot()).toMatchObject({
      state: 'option_selected',
      error: { code: 'invalid_params' },
    });

    const closed = await on({
      override: (step) => (step === '/confirm' ? [400, refusal('invalid_state')] : undefined),
    });
    await closed.checkout.start();
    await closed.checkout.connect();
    await closed.checkout.select('opt_usdc_base');
    await closed.checkout.pay();
    expect(closed.checkout.getSnapshot()).toMatchObject({
      state: 'succeeded',
      status: 'succeeded',
    });
  });

  test('a status read that fails is retried: the follow outlives it', async () => {
    const { checkout, service } = await on({
      confirm: () => [200, processing],
      override: (step, _, seen) =>
        step === '/status' && seen.filter((s) => s.path === '/status').length === 1
          ? [503, refusal('upstream_error')]
          : undefined,
    });
    await checkout.start();
    await checkout.connect();
    await checkout.select('opt_usdc_base');
    await checkout.pay();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'succeeded', error: null });
    expect(service.seen.filter((s) => s.path === '/status')).toHaveLength(2);
  });
});

describe('answers that end or move the payment', { timeout: 60_000 }, () => {
  test.each([
    ['sanctioned_user', 'sanctioned_user'],
    ['payment_expired', 'expired'],
    ['payment_not_found', 'invalid_payment'],
  ])('%s from the options ends in %s', async (code, state) => {
    const { checkout } = await on({
      override: (step) => (step === '/options' ? [400, refusal(code)] : undefined),
    });
    await checkout.start();
    await checkout.connect();
    expect(checkout.getSnapshot()).toMatchObject({ state, error: { code } });
  });

  test('options whose payment view says final, or processing, go there', async () => {
    const final = await on({ optionsExtra: { info: { ...viewOf('failed') } } });
    await final.checkout.start();
    await final.checkout.connect();
    expect(final.checkout.getSnapshot()).toMatchObject({ state: 'failed', status: 'failed' });

    const paying = await on({ optionsExtra: { info: { ...viewOf('processing') } } });
    await paying.checkout.start();
    await paying.checkout.connect();
    expect(paying.checkout.getSnapshot()).toMatchObject({ state: 'succeeded' });
  });

  test('a final status the SDK does not know is failed', async () => {
    const { checkout } = await on({
      override: (step) =>
        step === '/'
          ? [200, viewOf('settling')]
          : step === '/status'
            ? [200, { ...succeeded, status: 'reversed' }]
            : undefined,
    });
    await checkout.start();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'failed', status: 'reversed' });
  });
});

describe('renewals and back', { timeout: 60_000 }, () => {
  test('refreshOptions renews every option offered, or the selected one, without quoteExpired', async () => {
    const { checkout, service } = await on({});
    await checkout.start();
    await checkout.connect();
    await checkout.refreshOptions();
    expect(service.seen.at(-1)?.body).toMatchObject({ refresh: ['opt_usdc_base'] });
    expect(checkout.getSnapshot().state).toBe('options_ready');
    await checkout.select('opt_usdc_base');
    await checkout.refreshOptions();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'option_selected', quoteExpired: false });
  });

  test('an expired quote whose option is gone shows the options with no_option', async () => {
    let quotes = 0;
    const { checkout } = await on({
      override: (step) => {
        if (step === '/confirm') return [400, refusal('quote_expired')];
        if (step !== '/options') return undefined;
        quotes += 1;
        return [200, { options: [offered(`opt_${quotes}`)], info: null, collectData: null }];
      },
    });
    await checkout.start();
    await checkout.connect();
    await checkout.select('opt_1');
    // The renewed quote has another id but the same account and token: it is kept selected.
    await checkout.pay();
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'option_selected',
      quoteExpired: true,
      selectedOption: { id: 'opt_2' },
    });
    quotes = 10;
    const gone = await on(
      {
        override: (step) =>
          step === '/confirm'
            ? [400, refusal('quote_expired')]
            : step === '/options' && quotes++ > 10
              ? [200, { options: [option(account.address, { id: 'opt_eth', chain: 'eip155:1' })] }]
              : undefined,
      },
      walletFromAccount(account),
    );
    await gone.checkout.start();
    await gone.checkout.connect();
    await gone.checkout.select('opt_usdc_base');
    await gone.checkout.pay();
    expect(gone.checkout.getSnapshot()).toMatchObject({
      state: 'options_ready',
      quoteExpired: true,
      selectedOption: null,
      error: { code: 'no_option' },
    });
  });

  test('back() goes from the option to the options, and from the options to the wallet', async () => {
    const { checkout } = await on({});
    await checkout.start();
    await checkout.connect();
    await checkout.select('opt_usdc_base');
    await checkout.back();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'options_ready', selectedOption: null });
    await checkout.back();
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'ready_for_wallet',
      accounts: [],
      options: [],
    });
  });

  test('submitInformation names a value that is not text', async () => {
    const { checkout } = await on({
      optionsExtra: { collectData: { url: 'https://forms.example/kyc' } },
    });
    await checkout.start();
    await checkout.connect();
    await checkout.select('opt_usdc_base');
    await expect(checkout.submitInformation({ age: 42 } as never)).rejects.toThrow(
      /values\.age: must be a string/,
    );
    await expect(checkout.submitInformation([] as never)).rejects.toThrow(
      /values: must be an object/,
    );
  });
});

describe('destroyed or aborted mid-flow', { timeout: 60_000 }, () => {
  test('destroy() while the status is followed ends the flow quietly; nothing more is heard', async () => {
    const { checkout } = await on({ confirm: () => [200, processing], status: processing });
    await checkout.start();
    await checkout.connect();
    await checkout.select('opt_usdc_base');
    let heard = 0;
    checkout.subscribe(() => {
      heard += 1;
      if (checkout.getSnapshot().state === 'confirming') checkout.destroy();
    });
    await checkout.pay();
    expect(checkout.getSnapshot().state).toBe('confirming');
    // awaiting_wallet, then confirming; not the confirm's processing nor anything after.
    expect(heard).toBe(2);
    expect(checkout.getSnapshot().status).toBe('requires_action');
  });

  test('the signal given to createCheckout destroys it, before or after', async () => {
    const service = await ownRoute({ options: [offered()] });
    const wallet = spyWallet(account);
    const aborted = createCheckout({
      paymentId: 'pay_edges',
      route: service.route,
      wallet,
      signal: AbortSignal.abort(),
    });
    await expect(aborted.start()).rejects.toThrow(/destroyed/);
    const controller = new AbortController();
    const later = createCheckout({
      paymentId: 'pay_edges',
      route: service.route,
      wallet,
      signal: controller.signal,
    });
    await later.start();
    controller.abort();
    await expect(later.connect()).rejects.toThrow(/destroyed/);
  });
});

function viewOf(status: string) {
  return {
    status,
    expiresAt: 1_900_000_000,
    amount: option(account.address).amount,
    buyer: null,
    merchant: { name: 'Acme', iconUrl: null },
  };
}
