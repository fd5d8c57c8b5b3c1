import { ResponseValidationError } from 'merchant-gateway';
import { describe, expect, it } from 'vitest';
import {
  answer,
  answerInTurn,
  noRetryGateway,
  rejectionOf,
  useFakeService,
} from '../../support/fake-service';
import { createdMerchant, merchantWithSettlements } from '../../support/samples';

useFakeService();

const create = () =>
  noRetryGateway().merchants.create({ merchantName: 'Acme Coffee', merchantEmail: 'pay@acme.io' });

describe('merchants.create response', () => {
  it('unwraps the { merchant } envelope of the 201, with no iconUrl', async () => {
    answer({ merchant: createdMerchant }, 201, { 'x-request-id': 'req_1' });
    const { data, response, requestId } = await create().withResponse();
    expect(response.status).toBe(201);
    expect(requestId).toBe('req_1');
    expect(data).toStrictEqual(createdMerchant);
    expect(data).not.toHaveProperty('iconUrl');
  });

  it('keeps fields the SDK does not know on the returned merchant', async () => {
    const merchant = { ...createdMerchant, partnerId: 'par_9', limits: { daily: '100000' } };
    answer({ merchant, links: { self: '/v1/merchants/mer_1' } }, 201);
    await expect(create()).resolves.toStrictEqual(merchant);
  });

  it.each([
    {
      rule: 'a status the SDK does not know',
      merchant: { ...createdMerchant, status: 'pending_review' },
    },
    { rule: 'email: null', merchant: { ...createdMerchant, email: null } },
    { rule: 'iconUrl: null', merchant: { ...createdMerchant, iconUrl: null } },
  ])('accepts $rule', async ({ merchant }) => {
    answer({ merchant }, 201);
    await expect(create()).resolves.toStrictEqual(merchant);
  });

  it.each([
    {
      rule: 'a numeric id',
      body: { merchant: { ...createdMerchant, id: 42 } },
      field: 'merchant.id',
    },
    {
      rule: 'a missing name',
      body: { merchant: { ...createdMerchant, name: undefined } },
      field: 'merchant.name',
    },
    {
      rule: 'status: null',
      body: { merchant: { ...createdMerchant, status: null } },
      field: 'merchant.status',
    },
    {
      rule: 'iconUrl: false',
      body: { merchant: { ...createdMerchant, iconUrl: false } },
      field: 'merchant.iconUrl',
    },
    { rule: 'no envelope', body: createdMerchant, field: 'merchant' },
  ])(
    'rejects a 201 with $rule as a ResponseValidationError naming $field',
    async ({ body, field }) => {
      answer(body, 201, { 'x-request-id': 'req_2' });
      const error = await rejectionOf(create());
      expect(error).toBeInstanceOf(ResponseValidationError);
      const { issues, status, requestId } = error as ResponseValidationError;
      expect(issues.map((issue) => issue.field)).toContain(field);
      expect(status).toBe(201);
      expect(requestId).toBe('req_2');
      expect((error as ResponseValidationError).body).toStrictEqual(
        JSON.parse(JSON.stringify(body)),
      );
    },
  );

  it('rejects a 2xx HTML page as a ResponseValidationError carrying the text', async () => {
    answerInTurn([
      { status: 201, raw: '<html>ok</html>', headers: { 'content-type': 'text/html' } },
    ]);
    const error = await rejectionOf(create());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toBe('<html>ok</html>');
  });
});

describe('merchants.update response', () => {
  it('unwraps the merchant and accepts iconUrl: null after the logo was removed', async () => {
    const merchant = { ...createdMerchant, iconUrl: null };
    answer({ merchant });
    await expect(
      noRetryGateway().merchants.update('mer_1', { iconUrl: null }),
    ).resolves.toStrictEqual(merchant);
  });
});

describe('merchants.get response', () => {
  it('unwraps the merchant with its crypto and fiat settlements', async () => {
    answer({ merchant: merchantWithSettlements });
    await expect(noRetryGateway().merchants.get('mer_1')).resolves.toStrictEqual(
      merchantWithSettlements,
    );
  });

  it('keeps unknown fields and statuses in settlements', async () => {
    const merchant = {
      ...merchantWithSettlements,
      settlements: {
        crypto: [{ ...merchantWithSettlements.settlements.crypto[0], label: 'treasury' }],
        fiat: [{ id: 'fs_2', status: 'pending_verification', bankType: 'ach', last4: '6789' }],
        card: [],
      },
    };
    answer({ merchant });
    await expect(noRetryGateway().merchants.get('mer_1')).resolves.toStrictEqual(merchant);
  });

  it.each([
    {
      rule: 'no settlements',
      merchant: { ...createdMerchant, iconUrl: null },
      field: 'merchant.settlements',
    },
    {
      rule: 'a fiat settlement without bankType',
      merchant: {
        ...merchantWithSettlements,
        settlements: { crypto: [], fiat: [{ id: 'fs_1', status: 'active' }] },
      },
      field: 'merchant.settlements.fiat.0.bankType',
    },
    {
      rule: 'crypto settlements as an object',
      merchant: { ...merchantWithSettlements, settlements: { crypto: {}, fiat: [] } },
      field: 'merchant.settlements.crypto',
    },
  ])('rejects a body with $rule, naming $field', async ({ merchant, field }) => {
    answer({ merchant });
    const error = await rejectionOf(noRetryGateway().merchants.get('mer_1'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.field)).toContain(field);
    expect((error as ResponseValidationError).status).toBe(200);
  });
});
