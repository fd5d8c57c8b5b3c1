// The controller's table: every action a state does not take is refused with a
// CheckoutStateError and changes nothing (same snapshot object, no listener call, no request);
// the store's useSyncExternalStore contract; compliance data; a confirm whose answer is lost.
import { RequestValidationError } from 'merchant-gateway';
import {
  type Checkout,
  type CheckoutAction,
  CheckoutStateError,
  createCheckout,
} from 'merchant-gateway/buyer';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { option, processing } from '../../support/buyer-fixtures';
import { spyWallet } from './controller-support';
import { ownRoute } from './own-route';

const ACTIONS: Record<Exclude<CheckoutAction, 'start'>, (c: Checkout) => Promise<void>> = {
  connect: (c) => c.connect(),
  select: (c) => c.select('opt_usdc_base'),
  submitInformation: (c) => c.submitInformation({ fullName: 'Ada' }),
  pay: (c) => c.pay(),
  back: (c) => c.back(),
  refreshOptions: (c) => c.refreshOptions(),
  cancel: (c) => c.cancel(),
};

const FORM = {
  url: 'https://forms.example/kyc',
  fields: [{ id: 'fullName', name: 'Full name', required: true, type: 'text' }],
};

async function checkoutOnOwnRoute(extra: { collect?: boolean } = {}) {
  const account = privateKeyToAccount(generatePrivateKey());
  const service = await ownRoute({
    options: [option(account.address)],
    ...(extra.collect ? { optionsExtra: { collectData: FORM } } : {}),
  });
  const wallet = spyWallet(account);
  const checkout = createCheckout({ paymentId: 'pay_states', route: service.route, wallet });
  return { checkout, service, wallet };
}

/** Reaches `state` through the actions a buyer takes. */
const PATHS: Record<string, (c: Checkout) => Promise<void>> = {
  loading: async () => {},
  ready_for_wallet: (c) => c.start(),
  options_ready: async (c) => {
    await c.start();
    await c.connect();
  },
  option_selected: async (c) => {
    await PATHS.options_ready?.(c);
    await c.select('opt_usdc_base');
  },
  information_capture: async (c) => {
    await PATHS.options_ready?.(c);
    await c.select('opt_usdc_base');
  },
  succeeded: async (c) => {
    await PATHS.option_selected?.(c);
    await c.pay();
  },
};

const TAKES: Record<string, string[]> = {
  loading: [],
  ready_for_wallet: ['connect', 'cancel'],
  options_ready: ['select', 'refreshOptions', 'back', 'cancel'],
  option_selected: ['select', 'pay', 'refreshOptions', 'back', 'cancel'],
  information_capture: ['submitInformation', 'back', 'cancel'],
  succeeded: [],
};

describe('actions that do not apply', { timeout: 60_000 }, () => {
  test.each(Object.keys(PATHS))(
    'in %s, every other action is refused and changes nothing',
    async (state) => {
      const { checkout, service } = await checkoutOnOwnRoute({
        collect: state === 'information_capture',
      });
      await PATHS[state]?.(checkout);
      const before = checkout.getSnapshot();
      expect(before.state).toBe(state);
      const requests = service.seen.length;
      let calls = 0;
      checkout.subscribe(() => {
        calls += 1;
      });
      const refused = Object.keys(ACTIONS).filter((name) => !TAKES[state]?.includes(name));
      for (const name of refused) {
        const error = await ACTIONS[name as keyof typeof ACTIONS](checkout).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, name).toBeInstanceOf(CheckoutStateError);
        expect(error).toMatchObject({ action: name, state });
        expect((error as Error).message).toContain(`checkout.${name}()`);
      }
      expect(checkout.getSnapshot()).toBe(before);
      expect(calls).toBe(0);
      expect(service.seen.length).toBe(requests);
    },
  );

  test('an action while another runs is refused; after destroy() every action is', async () => {
    const { checkout } = await checkoutOnOwnRoute();
    await checkout.start();
    const connecting = checkout.connect();
    await expect(checkout.cancel()).rejects.toThrow(/connect\(\) is still running/);
    await connecting;
    checkout.destroy();
    const after = checkout.getSnapshot();
    await expect(checkout.select('opt_usdc_base')).rejects.toThrow(/destroyed/);
    expect(checkout.getSnapshot()).toBe(after);
  });

  test('select() of an option not offered names the field and changes nothing', async () => {
    const { checkout } = await checkoutOnOwnRoute();
    await PATHS.options_ready?.(checkout);
    const before = checkout.getSnapshot();
    await expect(checkout.select('opt_nope')).rejects.toThrow(RequestValidationError);
    expect(checkout.getSnapshot()).toBe(before);
  });
});

describe('the store (useSyncExternalStore contract)', { timeout: 60_000 }, () => {
  test('the same snapshot object until something changes, a new one after; unsubscribe stops calls', async () => {
    const { checkout } = await checkoutOnOwnRoute();
    const first = checkout.getSnapshot();
    expect(checkout.getSnapshot()).toBe(first);
    const seen: unknown[] = [];
    const stop = checkout.subscribe(() => seen.push(checkout.getSnapshot()));
    let other = 0;
    checkout.subscribe(() => {
      other += 1;
    });
    await checkout.start();
    expect(checkout.getSnapshot()).not.toBe(first);
    expect(seen.at(-1)).toBe(checkout.getSnapshot());
    expect(Object.isFrozen(checkout.getSnapshot())).toBe(true);
    const count = seen.length;
    stop();
    await checkout.connect();
    expect(seen).toHaveLength(count);
    expect(other).toBeGreaterThan(count);
    expect(Object.keys(checkout.getSnapshot()).sort()).toEqual([
      'accounts',
      'collectData',
      'error',
      'options',
      'payment',
      'quoteExpired',
      'selectedOption',
      'state',
      'status',
    ]);
  });
});

describe('compliance data and lost answers', { timeout: 60_000 }, () => {
  test('collectData asks for the form; its values go with the confirm as collectedData', async () => {
    const { checkout, service } = await checkoutOnOwnRoute({ collect: true });
    await PATHS.information_capture?.(checkout);
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'information_capture',
      collectData: FORM,
    });
    const before = checkout.getSnapshot();
    await expect(checkout.submitInformation({})).rejects.toThrow(/values\.fullName: is required/);
    expect(checkout.getSnapshot()).toBe(before);
    await checkout.submitInformation({ fullName: 'Ada Lovelace' });
    await checkout.pay();
    expect(checkout.getSnapshot().state).toBe('succeeded');
    expect(service.seen.find((s) => s.path === '/confirm')?.body).toMatchObject({
      collectedData: { fields: [{ id: 'fullName', value: 'Ada Lovelace' }] },
    });
  });

  test('a confirm answered 502 upstream_error is not sent again: the status says it went through', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const service = await ownRoute({
      options: [option(account.address)],
      confirm: () => [502, { error: { code: 'upstream_error', message: 'outcome unknown' } }],
    });
    const checkout = createCheckout({
      paymentId: 'pay_lost',
      route: service.route,
      wallet: spyWallet(account),
    });
    await PATHS.option_selected?.(checkout);
    await checkout.pay();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'succeeded', error: null });
    expect(service.seen.filter((s) => s.path === '/confirm')).toHaveLength(1);
    expect(service.seen.at(-1)?.path).toBe('/status');
  });

  test('a lost confirm on a payment still open returns to the option with the error, one confirm sent', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const service = await ownRoute({
      options: [option(account.address)],
      confirm: () => [502, { error: { code: 'upstream_error', message: 'outcome unknown' } }],
      status: { ...processing, status: 'requires_action' },
    });
    const checkout = createCheckout({
      paymentId: 'pay_lost',
      route: service.route,
      wallet: spyWallet(account),
    });
    await PATHS.option_selected?.(checkout);
    await checkout.pay();
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'option_selected',
      error: { code: 'upstream_error' },
    });
    expect(service.seen.filter((s) => s.path === '/confirm')).toHaveLength(1);
  });

  test('cancel() on a route without allowCancel keeps the state and says not_found', async () => {
    const { checkout } = await checkoutOnOwnRoute();
    await checkout.start();
    await checkout.cancel();
    expect(checkout.getSnapshot()).toMatchObject({
      state: 'ready_for_wallet',
      error: { code: 'not_found' },
    });
  });
});
