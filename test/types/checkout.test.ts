import * as main from 'merchant-gateway';
import {
  BuyerClient,
  type Checkout,
  type CheckoutSnapshot,
  type CheckoutState,
  CheckoutStateError,
  type CheckoutWallet,
  type CreateCheckoutOptions,
  createCheckout,
  walletFromAccount,
  walletFromEip1193,
} from 'merchant-gateway/buyer';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expectTypeOf, it } from 'vitest';

const wallet = walletFromAccount(privateKeyToAccount(generatePrivateKey()));

describe('the checkout types', () => {
  it('has the contract’s sixteen states and nothing else', () => {
    expectTypeOf<CheckoutState>().toEqualTypeOf<
      | 'loading'
      | 'ready_for_wallet'
      | 'connecting_wallet'
      | 'loading_options'
      | 'options_ready'
      | 'no_options'
      | 'option_selected'
      | 'information_capture'
      | 'awaiting_wallet'
      | 'confirming'
      | 'succeeded'
      | 'failed'
      | 'expired'
      | 'cancelled'
      | 'invalid_payment'
      | 'sanctioned_user'
    >();
  });

  it('has a closed snapshot of exactly the contract’s fields', () => {
    expectTypeOf<keyof CheckoutSnapshot>().toEqualTypeOf<
      | 'state'
      | 'payment'
      | 'options'
      | 'selectedOption'
      | 'collectData'
      | 'accounts'
      | 'error'
      | 'quoteExpired'
      | 'status'
    >();
    expectTypeOf<CheckoutSnapshot['error']>().toEqualTypeOf<{
      code: string;
      message: string;
    } | null>();
    const read = (snapshot: CheckoutSnapshot) => {
      // @ts-expect-error a misspelt field is a compile error
      snapshot.selectedOptions;
      // @ts-expect-error the snapshot is read-only
      snapshot.state = 'succeeded';
      // @ts-expect-error the payment's fields are closed too
      snapshot.payment?.gatewayURL;
    };
    expectTypeOf(read).toBeFunction();
  });

  it('fits useSyncExternalStore: subscribe returns an unsubscribe, getSnapshot a snapshot', () => {
    expectTypeOf<Checkout['subscribe']>().toEqualTypeOf<(listener: () => void) => () => void>();
    expectTypeOf<Checkout['getSnapshot']>().toEqualTypeOf<() => CheckoutSnapshot>();
    expectTypeOf(createCheckout).returns.toEqualTypeOf<Checkout>();
  });

  it('takes exactly one of route and client', () => {
    const client = new BuyerClient({ baseUrl: 'https://gateway.test', appId: 'a', clientId: 'c' });
    expectTypeOf({
      paymentId: 'pay_1',
      route: '/api/wcp',
      wallet,
    }).toExtend<CreateCheckoutOptions>();
    expectTypeOf({ paymentId: 'pay_1', client, wallet }).toExtend<CreateCheckoutOptions>();
    expectTypeOf({
      paymentId: 'pay_1',
      route: '/api/wcp',
      client,
      wallet,
    }).not.toExtend<CreateCheckoutOptions>();
    expectTypeOf({ paymentId: 'pay_1', wallet }).not.toExtend<CreateCheckoutOptions>();
  });

  it('makes wallets of both kinds, and names the refused action and state', () => {
    expectTypeOf(walletFromAccount).returns.toEqualTypeOf<CheckoutWallet>();
    expectTypeOf(walletFromEip1193).returns.toEqualTypeOf<CheckoutWallet>();
    expectTypeOf<CheckoutStateError['state']>().toEqualTypeOf<CheckoutState>();
    expectTypeOf(
      new CheckoutStateError('pay', 'loading', 'why'),
    ).toExtend<main.MerchantGatewayError>();
  });

  it('is not in the main entry', () => {
    // @ts-expect-error the controller lives in merchant-gateway/buyer only
    main.createCheckout;
  });
});
