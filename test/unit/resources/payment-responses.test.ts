import { ResponseValidationError } from 'merchant-gateway';
import { describe, expect, it } from 'vitest';
import { answer, noRetryGateway, rejectionOf, useFakeService } from '../../support/fake-service';
import { paymentCreated, paymentView } from '../../support/samples';

useFakeService();

const create = () =>
  noRetryGateway().payments.create({
    merchantId: 'mer_1',
    amount: { unit: 'iso4217/USD', value: '1250' },
    referenceId: 'order-1042',
  });
const { pollInMs: _, ...finalWithoutPoll } = {
  ...paymentCreated,
  status: 'succeeded',
  isFinal: true,
};
const { display } = paymentView.amount;

/** A 201 body that breaks the contract on `field` alone, and the issue it must raise. */
const broken = (rule: string, field: string, value: unknown) => ({
  rule,
  body: { ...paymentCreated, [field]: value },
  field,
});

describe('payments.create response', () => {
  it('returns the 201 body as it is', async () => {
    answer(paymentCreated, 201);
    const { data, response } = await create().withResponse();
    expect(response.status).toBe(201);
    expect(data).toStrictEqual({ ...paymentCreated, merchantId: 'mer_1' });
  });

  it.each([
    { rule: 'another merchant', merchantId: 'mer_other' },
    { rule: 'a number', merchantId: 42 },
    { rule: 'null', merchantId: null },
  ])(
    'adds the merchant the call sent, even over a merchantId body field of $rule',
    async ({ merchantId }) => {
      answer({ ...paymentCreated, merchantId }, 201);
      await expect(create()).resolves.toStrictEqual({ ...paymentCreated, merchantId: 'mer_1' });
    },
  );

  it.each([
    {
      rule: 'a status the SDK does not know',
      body: { ...paymentCreated, status: 'requires_capture' },
    },
    { rule: 'pollInMs: null on a final payment', body: { ...finalWithoutPoll, pollInMs: null } },
    { rule: 'no pollInMs on a final payment', body: finalWithoutPoll },
    {
      rule: 'fields the SDK does not know',
      body: { ...paymentCreated, sessionId: 'ses_1', links: { qr: 'https://q' } },
    },
  ])('accepts $rule, keeping the body whole', async ({ body }) => {
    answer(body, 201);
    await expect(create()).resolves.toStrictEqual({ ...body, merchantId: 'mer_1' });
  });

  it('rejects a 201 without paymentId as a ResponseValidationError with its issues, status and body', async () => {
    const { paymentId: _, ...body } = paymentCreated;
    answer(body, 201);
    const error = await rejectionOf(create());
    expect(error).toBeInstanceOf(ResponseValidationError);
    const { issues, status, body: received } = error as ResponseValidationError;
    expect(issues.map((issue) => issue.field)).toStrictEqual(['paymentId']);
    expect(status).toBe(201);
    expect(received).toStrictEqual(body);
  });

  it.each([
    broken('isFinal as a string', 'isFinal', 'false'),
    broken('expiresAt as a string', 'expiresAt', '1771407312'),
    broken('pollInMs as a string', 'pollInMs', '1000'),
    broken('no gatewayUrl', 'gatewayUrl', undefined),
  ])('rejects $rule, naming $field', async ({ body, field }) => {
    answer(body, 201);
    const error = await rejectionOf(create());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.field)).toContain(field);
  });
});

describe('payments.get response', () => {
  it.each([
    { rule: 'the full view', body: paymentView },
    {
      rule: 'a status the SDK does not know',
      body: { ...paymentView, status: 'awaiting_confirmations' },
    },
    { rule: 'buyer: null', body: { ...paymentView, buyer: null } },
    { rule: 'no buyer', body: { ...paymentView, buyer: undefined } },
    {
      rule: 'null display icons and network name',
      body: {
        ...paymentView,
        amount: {
          ...paymentView.amount,
          display: { ...display, iconUrl: null, networkIconUrl: null, networkName: null },
        },
      },
    },
    {
      rule: 'merchant.iconUrl: null',
      body: { ...paymentView, merchant: { name: 'Acme Coffee', iconUrl: null } },
    },
    {
      rule: 'a buyer without provider icon or name',
      body: {
        ...paymentView,
        buyer: { accountCaip10: paymentView.buyer.accountCaip10, accountProviderIcon: null },
      },
    },
    {
      rule: 'isFinal and pollInMs from a newer service',
      body: { ...paymentView, isFinal: false, pollInMs: 1500 },
    },
    { rule: 'pollInMs: null', body: { ...paymentView, isFinal: true, pollInMs: null } },
    {
      rule: 'fields the SDK does not know, nested too',
      body: {
        ...paymentView,
        txHash: '0xabc',
        amount: { ...paymentView.amount, display: { ...display, chainId: 8453 } },
      },
    },
  ])('accepts $rule, keeping the body whole', async ({ body }) => {
    answer(body);
    await expect(noRetryGateway().payments.get('pay_1')).resolves.toStrictEqual(
      JSON.parse(JSON.stringify(body)),
    );
  });

  it.each([
    {
      rule: 'decimals: "6"',
      body: {
        ...paymentView,
        amount: { ...paymentView.amount, display: { ...display, decimals: '6' } },
      },
      field: 'amount.display.decimals',
    },
    {
      rule: 'no merchant name',
      body: { ...paymentView, merchant: { iconUrl: null } },
      field: 'merchant.name',
    },
    {
      rule: 'a buyer without accountCaip10',
      body: { ...paymentView, buyer: {} },
      field: 'buyer.accountCaip10',
    },
    {
      rule: 'an amount value as a number',
      body: { ...paymentView, amount: { ...paymentView.amount, value: 125 } },
      field: 'amount.value',
    },
    { rule: 'no status', body: { ...paymentView, status: undefined }, field: 'status' },
  ])('rejects $rule as a ResponseValidationError naming $field', async ({ body, field }) => {
    answer(body);
    const error = await rejectionOf(noRetryGateway().payments.get('pay_1'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.field)).toContain(field);
    expect((error as ResponseValidationError).status).toBe(200);
  });
});
