import type { Logger, PaymentCreateParams } from 'merchant-gateway';
import { describe, expect, it, vi } from 'vitest';
import { answer, expectRefused, noRetryGateway, useFakeService } from '../../support/fake-service';
import { paymentCreated } from '../../support/samples';

useFakeService();

const SECONDS = 1_771_407_312;
const valid = {
  merchantId: 'mer_1',
  amount: { unit: 'iso4217/USD', value: '1250' },
  referenceId: 'order-1042',
} satisfies PaymentCreateParams;
const CHECKOUT = {
  successUrl: 'https://shop.example/paid?o=1',
  errorUrl: 'https://shop.example/cart',
};
const withValue = (value: unknown) => ({ ...valid, amount: { ...valid.amount, value } });
const withUnit = (unit: string) => ({ ...valid, amount: { ...valid.amount, unit } });

describe('payments.create result', () => {
  it("carries the merchant it was created for: the call's, else the client's", async () => {
    answer(paymentCreated, 201);
    const created = await noRetryGateway().payments.create(valid);
    expect(created).toMatchObject({ ...paymentCreated, merchantId: 'mer_1' });
    const { merchantId: _, ...withoutMerchant } = valid;
    const fromClient = await noRetryGateway({ merchantId: 'mer_default' }).payments.create(
      withoutMerchant,
    );
    expect(fromClient.merchantId).toBe('mer_default');
  });
});

describe('payments.create request rules', () => {
  it('sends the params as they were when it was called, whatever changes them afterwards', async () => {
    const seen = answer(paymentCreated, 201);
    const params = { ...valid, amount: { ...valid.amount } };
    const created = noRetryGateway().payments.create(params);
    params.referenceId = 'changed-after-the-call';
    params.amount.value = '99';
    await created;
    expect(seen[0]?.body).toStrictEqual({
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'order-1042',
    });
  });

  it.each<{ rule: string; value: PaymentCreateParams['amount']['value']; sent: string }>([
    { rule: 'a digit string', value: '1250', sent: '1250' },
    { rule: 'zero as a string', value: '0', sent: '0' },
    { rule: 'a number', value: 1250, sent: '1250' },
    { rule: 'the number zero', value: 0, sent: '0' },
    { rule: 'the largest safe integer', value: Number.MAX_SAFE_INTEGER, sent: '9007199254740991' },
    {
      rule: 'a bigint past 2^53',
      value: 12_345_678_901_234_567_890n,
      sent: '12345678901234567890',
    },
  ])('sends amount.value given as $rule as the digit string $sent', async ({ value, sent }) => {
    const seen = answer(paymentCreated, 201);
    await noRetryGateway().payments.create(withValue(value) as PaymentCreateParams);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.path).toBe('/v1/payments');
    expect(seen[0]?.body).toStrictEqual({
      amount: { unit: 'iso4217/USD', value: sent },
      referenceId: 'order-1042',
    });
  });

  it.each<{ rule: string; expiresAt: PaymentCreateParams['expiresAt']; sent: unknown }>([
    { rule: 'seconds', expiresAt: SECONDS, sent: SECONDS },
    { rule: 'zero seconds', expiresAt: 0, sent: 0 },
    { rule: 'the largest seconds value', expiresAt: 99_999_999_999, sent: 99_999_999_999 },
    { rule: 'a Date, in whole seconds', expiresAt: new Date(SECONDS * 1000 + 999), sent: SECONDS },
    { rule: 'null (the service default)', expiresAt: null, sent: null },
  ])('sends expiresAt given as $rule', async ({ expiresAt, sent }) => {
    const seen = answer(paymentCreated, 201);
    await noRetryGateway().payments.create({ ...valid, expiresAt });
    expect(seen[0]?.body).toHaveProperty('expiresAt', sent);
  });

  it('leaves expiresAt off the wire when it is not given', async () => {
    const seen = answer(paymentCreated, 201);
    await noRetryGateway().payments.create(valid);
    expect(seen[0]?.body).not.toHaveProperty('expiresAt');
  });

  it.each<{ rule: string; params: unknown; field: string }>([
    { rule: 'a bare currency code', params: withUnit('USD'), field: 'amount.unit' },
    { rule: 'a lower-case currency', params: withUnit('iso4217/usd'), field: 'amount.unit' },
    { rule: 'a 2-letter currency', params: withUnit('iso4217/US'), field: 'amount.unit' },
    { rule: 'a 4-letter currency', params: withUnit('iso4217/USDC'), field: 'amount.unit' },
    { rule: 'a crypto unit', params: withUnit('caip19/eip155:1/slip44:60'), field: 'amount.unit' },
    { rule: 'a negative number', params: withValue(-1), field: 'amount.value' },
    { rule: 'a fractional number', params: withValue(1.5), field: 'amount.value' },
    { rule: 'NaN', params: withValue(Number.NaN), field: 'amount.value' },
    { rule: 'Infinity', params: withValue(Number.POSITIVE_INFINITY), field: 'amount.value' },
    { rule: 'an unsafe integer', params: withValue(2 ** 53), field: 'amount.value' },
    { rule: 'a negative bigint', params: withValue(-1n), field: 'amount.value' },
    { rule: 'the string "1.5"', params: withValue('1.5'), field: 'amount.value' },
    { rule: 'the string "-1"', params: withValue('-1'), field: 'amount.value' },
    { rule: 'an empty string', params: withValue(''), field: 'amount.value' },
    { rule: 'an exponent string', params: withValue('1e3'), field: 'amount.value' },
    { rule: 'null', params: withValue(null), field: 'amount.value' },
    {
      rule: 'a misspelt amount field',
      params: { ...valid, amount: { ...valid.amount, currency: 'USD' } },
      field: 'amount.currency',
    },
    {
      rule: 'a missing amount',
      params: { merchantId: 'mer_1', referenceId: 'r' },
      field: 'amount',
    },
    { rule: 'an empty referenceId', params: { ...valid, referenceId: '' }, field: 'referenceId' },
    {
      rule: 'a missing referenceId',
      params: { merchantId: 'mer_1', amount: valid.amount },
      field: 'referenceId',
    },
    { rule: 'milliseconds', params: { ...valid, expiresAt: SECONDS * 1000 }, field: 'expiresAt' },
    {
      rule: 'the first too-large seconds value',
      params: { ...valid, expiresAt: 100_000_000_000 },
      field: 'expiresAt',
    },
    { rule: 'negative seconds', params: { ...valid, expiresAt: -1 }, field: 'expiresAt' },
    { rule: 'fractional seconds', params: { ...valid, expiresAt: 1.5 }, field: 'expiresAt' },
    {
      rule: 'seconds as a string',
      params: { ...valid, expiresAt: String(SECONDS) },
      field: 'expiresAt',
    },
    {
      rule: 'an invalid Date',
      params: { ...valid, expiresAt: new Date('soon') },
      field: 'expiresAt',
    },
    {
      rule: 'a Date before 1970',
      params: { ...valid, expiresAt: new Date(-1000) },
      field: 'expiresAt',
    },
    { rule: 'a misspelt field', params: { ...valid, reference: 'order-1042' }, field: 'reference' },
    {
      rule: 'checkout without errorUrl',
      params: { ...valid, checkout: { successUrl: 'https://shop.example/paid' } },
      field: 'checkout.errorUrl',
    },
    {
      rule: 'an http successUrl off loopback',
      params: { ...valid, checkout: { ...CHECKOUT, successUrl: 'http://shop.example/paid' } },
      field: 'checkout.successUrl',
    },
    {
      rule: 'a relative errorUrl',
      params: { ...valid, checkout: { ...CHECKOUT, errorUrl: '/cart' } },
      field: 'checkout.errorUrl',
    },
    {
      rule: 'a javascript: successUrl',
      params: { ...valid, checkout: { ...CHECKOUT, successUrl: 'javascript:alert(1)' } },
      field: 'checkout.successUrl',
    },
    {
      rule: 'a misspelt checkout field',
      params: { ...valid, checkout: { ...CHECKOUT, cancelUrl: 'https://shop.example/x' } },
      field: 'checkout.cancelUrl',
    },
    { rule: 'a checkout of null', params: { ...valid, checkout: null }, field: 'checkout' },
  ])('refuses $rule before sending, naming $field', async ({ params, field }) => {
    const seen = answer(paymentCreated, 201);
    await expectRefused(noRetryGateway().payments.create(params as never), seen, field);
  });

  it('sends the preview checkout redirects when given, and only then', async () => {
    const seen = answer(paymentCreated, 201);
    const gateway = noRetryGateway({ apiVersion: '2026-02-19.preview' });
    await gateway.payments.create({ ...valid, checkout: CHECKOUT });
    expect(seen[0]?.body).toStrictEqual({
      amount: valid.amount,
      referenceId: valid.referenceId,
      checkout: CHECKOUT,
    });
    expect(seen[0]?.headers.get('wcp-version')).toBe('2026-02-19.preview');
    const local = { successUrl: 'http://127.0.0.1:3000/paid', errorUrl: 'http://[::1]:3000/cart' };
    await gateway.payments.create({ ...valid, checkout: local });
    expect(seen[1]?.body).toHaveProperty('checkout', local);
    await gateway.payments.create(valid);
    expect(seen[2]?.body).not.toHaveProperty('checkout');
  });
});

describe('payments.create Merchant-Id', () => {
  const { merchantId: _, ...withoutMerchant } = valid;

  it('sends the call merchantId as the Merchant-Id header, not in the body', async () => {
    const seen = answer(paymentCreated, 201);
    await noRetryGateway().payments.create(valid);
    expect(seen[0]?.headers.get('merchant-id')).toBe('mer_1');
    expect(seen[0]?.body).not.toHaveProperty('merchantId');
  });

  it("falls back to the client's merchantId", async () => {
    const seen = answer(paymentCreated, 201);
    await noRetryGateway({ merchantId: 'mer_client' }).payments.create(withoutMerchant);
    expect(seen[0]?.headers.get('merchant-id')).toBe('mer_client');
  });

  it("prefers the call's merchantId over the client's", async () => {
    const seen = answer(paymentCreated, 201);
    await noRetryGateway({ merchantId: 'mer_client' }).payments.create({
      ...valid,
      merchantId: 'mer_call',
    });
    expect(seen[0]?.headers.get('merchant-id')).toBe('mer_call');
  });

  it.each<{ rule: string; call: unknown; client?: string }>([
    { rule: 'neither the call nor the client names a merchant', call: withoutMerchant },
    {
      rule: 'the call gives an empty merchantId',
      call: { ...valid, merchantId: '' },
      client: 'mer_client',
    },
    {
      rule: 'the call merchantId holds CR/LF',
      call: { ...valid, merchantId: 'mer_1\r\nX-Evil: 1' },
    },
    { rule: 'the call merchantId is not ASCII', call: { ...valid, merchantId: 'mér_1' } },
    { rule: "the client's merchantId holds a space", call: withoutMerchant, client: 'mer 1' },
  ])('refuses the call when $rule, naming merchantId', async ({ call, client }) => {
    const seen = answer(paymentCreated, 201);
    const gw = client === undefined ? noRetryGateway() : noRetryGateway({ merchantId: client });
    await expectRefused(gw.payments.create(call as never), seen, 'merchantId');
  });
});

describe('payments.create referenceId hint', () => {
  const logged = () => {
    const warn = vi.fn<Logger['warn']>();
    const logger: Logger = { debug() {}, info() {}, warn, error() {} };
    return { warn, client: noRetryGateway({ logger, logLevel: 'warn' }) };
  };

  it.each([
    ['too short to search', 'ab'],
    ['too long to search whole', `order-${'9'.repeat(40)}`],
    ['outside the searchable alphabet', 'commande#2001'],
  ])('sends a referenceId %s as given, and warns once per client', async (_, referenceId) => {
    const seen = answer(paymentCreated, 201);
    const { warn, client } = logged();
    await client.payments.create({ ...valid, referenceId });
    await client.payments.create({ ...valid, referenceId });
    expect(seen.map((r) => (r.body as { referenceId: string }).referenceId)).toEqual([
      referenceId,
      referenceId,
    ]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[1]).toMatch(
      /^\[merchant-gateway\] payments\.create: a referenceId of \d+ characters outside 3 to 35 .* cannot search for it whole/,
    );
    expect(warn.mock.calls[0]?.[1]).not.toContain(referenceId);
  });

  it('says nothing of a referenceId the list can find', async () => {
    answer(paymentCreated, 201);
    const { warn, client } = logged();
    await client.payments.create({ ...valid, referenceId: 'order 2001/A:1.2,3+4-5' });
    expect(warn).not.toHaveBeenCalled();
  });
});
