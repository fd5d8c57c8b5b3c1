import {
  type ApiPromise,
  type BuyerAccount,
  type BuyerAction,
  type BuyerPayParams,
  type GatewayCancellation,
  isBuildAction,
  isWalletRpcAction,
  type PaymentOption,
  type PaymentOptions,
  PaymentOptionsSchema,
  type PaymentStatusResult,
  type PaymentView,
} from 'merchant-gateway';
import * as buyerEntry from 'merchant-gateway/buyer';
import { BuyerClient } from 'merchant-gateway/buyer';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import { typesGateway } from '../support/types-client';

const gateway = typesGateway;
const { buyer } = gateway;

describe('gateway.buyer method signatures', () => {
  it('returns the contract types', () => {
    expectTypeOf(buyer.get).returns.toEqualTypeOf<ApiPromise<PaymentView>>();
    expectTypeOf(buyer.status).returns.toEqualTypeOf<ApiPromise<PaymentStatusResult>>();
    expectTypeOf(buyer.options).returns.toEqualTypeOf<ApiPromise<PaymentOptions>>();
    expectTypeOf(buyer.fetchActions).returns.toEqualTypeOf<ApiPromise<BuyerAction[]>>();
    expectTypeOf(buyer.confirm).returns.toEqualTypeOf<ApiPromise<PaymentStatusResult>>();
    expectTypeOf(buyer.cancel).returns.toEqualTypeOf<ApiPromise<GatewayCancellation>>();
    expectTypeOf(buyer.pay).returns.toEqualTypeOf<Promise<PaymentStatusResult>>();
  });

  it('takes the contract params and refuses misspelt ones', () => {
    // Compiled, never run: each call would send a request.
    const calls = () => {
      buyer.options('pay_1', {
        accounts: ['eip155:8453:0x1111111111111111111111111111111111111111'],
        refresh: null,
        includePaymentInfo: true,
      });
      // @ts-expect-error accounts is required
      buyer.options('pay_1', { includePaymentInfo: true });
      // @ts-expect-error a misspelt field is not a field
      buyer.options('pay_1', { accounts: [], refersh: [] });
      buyer.confirm(
        'pay_1',
        { optionId: 'o', results: [{ type: 'walletRpc', data: ['0x1'] }] },
        { maxPollMs: 1000 },
      );
      // @ts-expect-error a result is a walletRpc result
      buyer.confirm('pay_1', { optionId: 'o', results: [{ type: 'build', data: [] }] });
      buyer.fetchActions('pay_1', { optionId: 'o', data: 'd' });
    };
    expectTypeOf(calls).toBeFunction();
  });

  it('takes a viem LocalAccount as the account of pay, and names the chain as CAIP-2 or a number', () => {
    const account = privateKeyToAccount(generatePrivateKey());
    expectTypeOf(account).toMatchTypeOf<BuyerAccount>();
    expectTypeOf(buyer.pay).toBeCallableWith('pay_1', { account, chainId: 'eip155:8453' });
    expectTypeOf(buyer.pay).toBeCallableWith('pay_1', { account, chainId: 8453, optionId: 'o' });
    expectTypeOf<keyof BuyerPayParams>().toEqualTypeOf<
      'account' | 'chainId' | 'optionId' | 'signal'
    >();
    // @ts-expect-error an account signs
    expectTypeOf(buyer.pay).toBeCallableWith('pay_1', { account: { address: '0x1' } });
  });
});

describe('closed buyer result types', () => {
  it('options is always an array, and a misspelt field does not compile', () => {
    expectTypeOf<PaymentOptions['options']>().toEqualTypeOf<PaymentOption[]>();
    expectTypeOf<PaymentOption['expiresAt']>().toEqualTypeOf<number | null | undefined>();
    // @ts-expect-error not a field of PaymentOption
    type Misspelt = PaymentOption['expiresAT'];
    // @ts-expect-error not a field of PaymentOptions
    type Singular = PaymentOptions['option'];
    expectTypeOf<[Misspelt, Singular]>().not.toBeNever();
    expectTypeOf<z.output<typeof PaymentOptionsSchema>>().toEqualTypeOf<PaymentOptions>();
  });

  it('an action is narrowed by its guard, and an unknown type is a string', () => {
    expectTypeOf<BuyerAction['type']>().toEqualTypeOf<'walletRpc' | 'build' | (string & {})>();
    const narrow = (action: BuyerAction) => {
      if (isWalletRpcAction(action)) {
        expectTypeOf(action.data.method).toEqualTypeOf<string>();
        expectTypeOf(action.data.params).toEqualTypeOf<unknown[]>();
        // @ts-expect-error the wire name is chain_id
        action.data.chainId;
      }
      if (isBuildAction(action)) expectTypeOf(action.data.data).toEqualTypeOf<string>();
    };
    expectTypeOf(narrow).toBeFunction();
  });
});

describe('merchant-gateway/buyer', () => {
  it('BuyerClient has the methods of gateway.buyer, with the same types', () => {
    const client = new BuyerClient({ baseUrl: 'https://gateway.test', appId: 'a', clientId: 'c' });
    expectTypeOf(client.get).toEqualTypeOf(buyer.get);
    expectTypeOf(client.options).toEqualTypeOf(buyer.options);
    expectTypeOf(client.confirm).toEqualTypeOf(buyer.confirm);
    expectTypeOf(client.pay).toEqualTypeOf(buyer.pay);
    // @ts-expect-error the buyer client has no partner calls
    client.payments;
    // @ts-expect-error nor the partner's options
    new BuyerClient({ baseUrl: 'https://gateway.test', apiKey: 'k', merchantId: 'm' });
  });

  it('exports the buyer types and schemas but not the partner client', () => {
    expectTypeOf(buyerEntry.PaymentOptionsSchema).toEqualTypeOf(PaymentOptionsSchema);
    expectTypeOf<buyerEntry.PaymentOptions>().toEqualTypeOf<PaymentOptions>();
    // @ts-expect-error the partner client lives in the main entry
    buyerEntry.MerchantGateway;
  });
});
