// A hostile service behind the route: options that say one thing and typed data that asks for
// another (chain, token, amount, account). The checkout signs nothing and confirms nothing, and
// says why; the buyer stays on the option.
import { createCheckout } from 'merchant-gateway/buyer';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { option, receiveWithAuthorizationData, signAction } from '../../support/buyer-fixtures';
import { spyWallet } from './controller-support';
import { ownRoute } from './own-route';

const OTHER = '0x1111111111111111111111111111111111111111';

/** Typed data for `from` with one part changed by `alter`. */
function altered(
  from: string,
  alter: (typed: ReturnType<typeof receiveWithAuthorizationData>) => void,
) {
  const typed = receiveWithAuthorizationData(from);
  alter(typed);
  return JSON.stringify(typed);
}

describe('a hostile service behind the route', { timeout: 60_000 }, () => {
  test.each([
    [
      'another chain',
      'action_mismatch',
      (a: string) =>
        signAction(
          a,
          undefined,
          'eip155:8453',
          altered(a, (t) => {
            t.domain.chainId = '0x1';
          }),
        ),
    ],
    [
      'another token',
      'action_mismatch',
      (a: string) =>
        signAction(
          a,
          undefined,
          'eip155:8453',
          altered(a, (t) => {
            t.domain.verifyingContract = OTHER;
          }),
        ),
    ],
    [
      'another amount',
      'action_mismatch',
      (a: string) =>
        signAction(
          a,
          undefined,
          'eip155:8453',
          altered(a, (t) => {
            t.message.value = '0x5f5e100';
          }),
        ),
    ],
    [
      'another payer in the message',
      'action_mismatch',
      (a: string) =>
        signAction(
          a,
          undefined,
          'eip155:8453',
          altered(a, (t) => {
            t.message.from = OTHER;
          }),
        ),
    ],
    [
      'another signing account',
      'account_mismatch',
      (a: string) =>
        signAction(
          OTHER,
          undefined,
          'eip155:8453',
          altered(a, () => {}),
        ),
    ],
    [
      'an RPC method other than typed data',
      'unsupported_action',
      (a: string) => signAction(a, 'eth_sendTransaction'),
    ],
  ])('typed data for %s is refused before any signature (%s)', async (_, code, action) => {
    const account = privateKeyToAccount(generatePrivateKey());
    const service = await ownRoute({
      options: [option(account.address, { actions: [action(account.address)] })],
    });
    const wallet = spyWallet(account);
    const checkout = createCheckout({ paymentId: 'pay_hostile', route: service.route, wallet });
    await checkout.start();
    await checkout.connect();
    await checkout.select('opt_usdc_base');
    await checkout.pay();

    expect(wallet.signed).toHaveLength(0);
    expect(checkout.getSnapshot()).toMatchObject({ state: 'option_selected', error: { code } });
    expect(service.seen.map((s) => s.path)).not.toContain('/confirm');
  });

  test('a build action the service resolves to typed data for another amount is refused too', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const service = await ownRoute({
      options: [
        option(account.address, { actions: [{ type: 'build', data: { data: 'permit-1' } }] }),
      ],
      fetched: [
        signAction(
          account.address,
          undefined,
          'eip155:8453',
          altered(account.address, (t) => {
            t.message.value = '0x1';
          }),
        ),
      ],
    });
    const wallet = spyWallet(account);
    const checkout = createCheckout({ paymentId: 'pay_hostile', route: service.route, wallet });
    await checkout.start();
    await checkout.connect();
    await checkout.select('opt_usdc_base');
    await checkout.pay();
    expect(wallet.signed).toHaveLength(0);
    expect(checkout.getSnapshot().error?.code).toBe('action_mismatch');
    expect(service.seen.map((s) => s.path)).toEqual(['/', '/options', '/fetch']);
  });

  test('options for accounts the wallet does not hold are not offered', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const service = await ownRoute({ options: [option(OTHER)] });
    const wallet = spyWallet(account);
    const checkout = createCheckout({ paymentId: 'pay_hostile', route: service.route, wallet });
    await checkout.start();
    await checkout.connect();
    expect(checkout.getSnapshot()).toMatchObject({ state: 'no_options', options: [] });
  });

  test('the same options honestly made are signed and confirmed once (the control)', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const service = await ownRoute({ options: [option(account.address)] });
    const wallet = spyWallet(account);
    const checkout = createCheckout({ paymentId: 'pay_hostile', route: service.route, wallet });
    await checkout.start();
    await checkout.connect();
    await checkout.select('opt_usdc_base');
    await checkout.pay();
    expect(wallet.signed).toHaveLength(1);
    expect(checkout.getSnapshot().state).toBe('succeeded');
    expect(service.seen.filter((s) => s.path === '/confirm')).toHaveLength(1);
  });
});
