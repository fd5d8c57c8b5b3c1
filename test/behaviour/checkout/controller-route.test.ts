// createCheckout through a PSP's route: gateway.buyer.route() served by node:http in front of the
// mock over real HTTP, the page's side with no key, a real viem account signing.
import { createCheckout } from 'merchant-gateway/buyer';
import { createMockGateway } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { serve, useListeningPartner } from '../../support';
import { openPayment, spyWallet, statesOf } from './controller-support';

const mock = createMockGateway({ pollInMs: 100 });
const served = useListeningPartner(mock);

/** The PSP's server: the route (with `allowCancel` as given) on node:http, closed after the test. */
async function pspServer(allowCancel = false) {
  const route = served.gateway.buyer.route({ allowCancel });
  const server = await serve((req, res) => void route.node(req, res));
  return { route: `${server.url}/api/wcp`, close: server.close };
}

const confirms = (paymentId: string) =>
  mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`${paymentId}/confirm`))
    .length;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createCheckout through gateway.buyer.route', { timeout: 60_000 }, () => {
  test('goes from loading to succeeded, the page holding no key', async () => {
    const psp = await pspServer();
    try {
      const payment = await openPayment(served.gateway, 'route-checkout-1');
      const account = privateKeyToAccount(generatePrivateKey());
      const wallet = spyWallet(account);
      const checkout = createCheckout({ paymentId: payment.paymentId, route: psp.route, wallet });
      const states = statesOf(checkout);
      await checkout.start();
      await checkout.connect();
      await checkout.select(checkout.getSnapshot().options[0]?.id ?? '');
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
      const snapshot = checkout.getSnapshot();
      expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    } finally {
      await psp.close();
    }
  });

  test.each([
    ['failed', 'failed'],
    ['expired', 'expired'],
    ['cancelled', 'cancelled'],
  ] as const)('a payment already %s is %s at start()', async (status, state) => {
    const psp = await pspServer();
    try {
      const payment = await openPayment(served.gateway, `route-final-${status}`);
      mock.setPaymentStatus(payment.paymentId, status);
      const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
      const checkout = createCheckout({ paymentId: payment.paymentId, route: psp.route, wallet });
      await checkout.start();
      expect(checkout.getSnapshot()).toMatchObject({ state, status });
    } finally {
      await psp.close();
    }
  });

  test('an unknown payment id is invalid_payment', async () => {
    const psp = await pspServer();
    try {
      const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
      const checkout = createCheckout({ paymentId: 'pay_nosuchpayment', route: psp.route, wallet });
      await checkout.start();
      expect(checkout.getSnapshot()).toMatchObject({
        state: 'invalid_payment',
        error: { code: 'payment_not_found' },
      });
    } finally {
      await psp.close();
    }
  });

  test('cancel(): not_found with the state kept when the route does not allow it, cancelled when it does', async () => {
    const payment = await openPayment(served.gateway, 'route-cancel');
    const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
    for (const allowCancel of [false, true]) {
      const psp = await pspServer(allowCancel);
      try {
        const checkout = createCheckout({ paymentId: payment.paymentId, route: psp.route, wallet });
        await checkout.start();
        await checkout.cancel();
        expect(checkout.getSnapshot()).toMatchObject(
          allowCancel
            ? { state: 'cancelled', status: 'cancelled', error: null }
            : { state: 'ready_for_wallet', error: { code: 'not_found' } },
        );
      } finally {
        await psp.close();
      }
    }
  });

  test('a quote past its expiresAt before the signature is re-quoted through the route', async () => {
    const psp = await pspServer();
    try {
      const payment = await openPayment(served.gateway, 'route-quote');
      const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
      const checkout = createCheckout({ paymentId: payment.paymentId, route: psp.route, wallet });
      await checkout.start();
      await checkout.connect();
      await checkout.select(checkout.getSnapshot().options[0]?.id ?? '');
      const now = Date.now.bind(Date);
      vi.spyOn(Date, 'now').mockImplementation(() => now() + 6 * 60_000);
      await checkout.pay();
      expect(checkout.getSnapshot()).toMatchObject({
        state: 'option_selected',
        quoteExpired: true,
      });
      expect(wallet.signed).toHaveLength(0);
      await checkout.pay();
      expect(checkout.getSnapshot().state).toBe('succeeded');
    } finally {
      await psp.close();
    }
  });

  test('a confirm whose connection drops (502 upstream_error) is never repeated: the status shows the payment open, the buyer pays again', async () => {
    const psp = await pspServer();
    try {
      const payment = await openPayment(served.gateway, 'route-lost-confirm');
      const wallet = spyWallet(privateKeyToAccount(generatePrivateKey()));
      const checkout = createCheckout({ paymentId: payment.paymentId, route: psp.route, wallet });
      await checkout.start();
      await checkout.connect();
      await checkout.select(checkout.getSnapshot().options[0]?.id ?? '');
      mock.failNext({ networkError: true, match: { method: 'POST', path: '/confirm' } });
      await checkout.pay();
      expect(checkout.getSnapshot()).toMatchObject({
        state: 'option_selected',
        status: 'requires_action',
        error: { code: 'upstream_error' },
      });
      expect(confirms(payment.paymentId)).toBe(1);

      await checkout.pay();
      expect(checkout.getSnapshot().state).toBe('succeeded');
      expect(confirms(payment.paymentId)).toBe(2);
    } finally {
      await psp.close();
    }
  });
});
