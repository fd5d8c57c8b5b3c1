// mock.pay(): a buyer paying in-process through the same options and confirm a wallet's HTTP
// calls reach, with the mock's own account or a viem account.
import { createMockGateway, MockPayError } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeEach, describe, expect, it } from 'vitest';

const mock = createMockGateway({ pollInMs: 30 });
const headers = {
  'Api-Key': mock.credentials.apiKey,
  'Merchant-Id': mock.sample.merchantId,
  'Content-Type': 'application/json',
};

beforeEach(() => mock.reset());

async function createPayment(merchantId = mock.sample.merchantId): Promise<string> {
  const res = await mock.fetch('https://gateway.test/v1/payments', {
    method: 'POST',
    headers: { ...headers, 'Merchant-Id': merchantId },
    body: JSON.stringify({ amount: { unit: 'iso4217/USD', value: '990' }, referenceId: 'm-1' }),
  });
  return ((await res.json()) as { paymentId: string }).paymentId;
}

describe('mock.pay', () => {
  it('pays with the mock’s own account: processing now, succeeded one pollInMs later', async () => {
    const id = await createPayment();
    const answer = await mock.pay(id);
    expect(answer).toEqual({ status: 'processing', isFinal: false, pollInMs: 30 });
    await expect.poll(() => mock.getPayment(id)?.status, { timeout: 2000 }).toBe('succeeded');
    expect(mock.getPayment(id)?.buyer?.walletName).toBe('Mock checkout');
    expect(mock.requests).toEqual([expect.objectContaining({ path: '/v1/payments' })]);
  });

  it('pays with a viem account, which the payment then names as its buyer', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const id = await createPayment();
    await mock.pay(id, { account, chainId: 'eip155:8453' });
    expect(mock.getPayment(id)?.buyer?.accountCaip10).toBe(`eip155:8453:${account.address}`);
  });

  it('rejects with the service’s refusal as a MockPayError', async () => {
    const id = await createPayment();
    await mock.pay(id);
    const again = await mock.pay(id).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(MockPayError);
    expect(again).toMatchObject({ status: 400, code: 'invalid_state' });
    await expect(mock.pay('pay_unknown')).rejects.toMatchObject({ code: 'payment_not_found' });
    const other = await createPayment();
    await expect(mock.pay(other, { chainId: 'eip155:10' })).rejects.toMatchObject({
      code: 'invalid_params',
      message: expect.stringContaining('no option'),
    });
    mock.setPaymentStatus(other, 'expired');
    await expect(mock.pay(other)).rejects.toMatchObject({ code: 'payment_expired' });
  });

  it('pays the sample merchant’s seeded USDT on Ethereum when asked for that chain', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const id = await createPayment();
    await mock.pay(id, { account, chainId: 'eip155:1' });
    expect(mock.getPayment(id)).toMatchObject({
      buyer: { accountCaip10: `eip155:1:${account.address}` },
      token: { symbol: 'USDT', network: 'eip155:1', value: '9900000' },
    });
  });

  it('rejects a merchant with no crypto settlement as 400 invalid_params, saying why', async () => {
    const bare = mock.sample.otherMerchantIds[0] as string;
    const id = await createPayment(bare);
    const error = await mock.pay(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockPayError);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_params',
      message: expect.stringContaining('accepts no crypto yet'),
    });
    expect(mock.getPayment(id)).toMatchObject({ status: 'requires_action', buyer: null });
  });

  it('refuses a signature the account did not make, leaving the payment open', async () => {
    const id = await createPayment();
    const real = privateKeyToAccount(generatePrivateKey());
    const liar = {
      address: real.address,
      signTypedData: () => Promise.resolve(`0x${'11'.repeat(65)}` as const),
    };
    await expect(mock.pay(id, { account: liar })).rejects.toMatchObject({ code: 'invalid_params' });
    expect(mock.getPayment(id)?.status).toBe('requires_action');
  });

  it('passes on an error of the account’s own signer untouched, leaving the payment open', async () => {
    const id = await createPayment();
    const broken = {
      address: privateKeyToAccount(generatePrivateKey()).address,
      signTypedData: () => Promise.reject(new Error('hardware wallet unplugged')),
    };
    await expect(mock.pay(id, { account: broken })).rejects.toThrow('hardware wallet unplugged');
    expect(mock.getPayment(id)?.status).toBe('requires_action');
  });

  it('a reset while a confirm is being checked leaves the new state alone', async () => {
    const id = await createPayment();
    const account = privateKeyToAccount(generatePrivateKey());
    const paying = mock.pay(id, {
      account: {
        address: account.address,
        signTypedData: async (typedData) => {
          const signature = await account.signTypedData(typedData as never);
          mock.reset(); // the record being paid is replaced before the confirm checks it
          return signature;
        },
      },
    });
    await expect(paying).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('reset while confirming'),
    });
    expect(mock.getPayment(id)).toBeUndefined();
  });

  it.each([0, -1, 1.5, 300_001])('refuses quoteWindowMs %s with a RangeError', (quoteWindowMs) => {
    expect(() => createMockGateway({ quoteWindowMs })).toThrow(RangeError);
  });
});
