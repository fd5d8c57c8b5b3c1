import type { MerchantGateway } from 'merchant-gateway';
import { describe, expect, it } from 'vitest';
import { answer, expectRefused, noRetryGateway, useFakeService } from '../../support';
import {
  createdMerchant,
  merchantWithSettlements,
  PAYOUT_ACCOUNT,
  paymentView,
  USDC_BASE,
} from '../../support/samples';

useFakeService();

interface Method {
  name: string;
  call: (gw: MerchantGateway, id: string) => Promise<unknown>;
  /** The path the service must see, with `{id}` for the encoded id. */
  path: string;
  field: string;
  body: unknown;
}

const methods: Method[] = [
  {
    name: 'merchants.get',
    call: (gw, id) => gw.merchants.get(id),
    path: '/v1/merchants/{id}',
    field: 'merchantId',
    body: { merchant: merchantWithSettlements },
  },
  {
    name: 'merchants.update',
    call: (gw, id) => gw.merchants.update(id, { merchantName: 'Acme' }),
    path: '/v1/merchants/{id}',
    field: 'merchantId',
    body: { merchant: { ...createdMerchant, iconUrl: null } },
  },
  {
    name: 'settlements.createCrypto',
    call: (gw, id) =>
      gw.settlements.createCrypto(id, [{ asset: USDC_BASE, destination: PAYOUT_ACCOUNT }]),
    path: '/v1/merchants/{id}/settlements/crypto',
    field: 'merchantId',
    body: { settlements: [] },
  },
  {
    name: 'payments.get',
    call: (gw, id) => gw.payments.get(id),
    path: '/v1/gateway/payment/{id}',
    field: 'paymentId',
    body: paymentView,
  },
];

describe.each(methods)('$name path ids', ({ call, path, field, body }) => {
  it.each([
    { id: '../merchants', encoded: '..%2Fmerchants' },
    { id: 'a/b', encoded: 'a%2Fb' },
    { id: '%2e%2e', encoded: '%252e%252e' },
    { id: '...', encoded: '...' },
    { id: 'a b?c#d', encoded: 'a%20b%3Fc%23d' },
    { id: 'café', encoded: 'caf%C3%A9' },
  ])('percent-encodes $id so the request stays on its path', async ({ id, encoded }) => {
    const seen = answer(body, 200);
    await call(noRetryGateway(), id);
    expect(seen.map((request) => request.path)).toStrictEqual([path.replace('{id}', encoded)]);
  });

  it.each([
    { rule: 'an empty id', id: '' },
    { rule: '"."', id: '.' },
    { rule: '".."', id: '..' },
    { rule: 'a NUL character', id: 'mer\u00001' },
    { rule: 'a line feed', id: 'mer_1\n' },
    { rule: 'a tab', id: 'mer\t1' },
    { rule: 'DEL', id: 'mer\u007f' },
    { rule: 'a lone surrogate', id: 'mer\uD800' },
  ])('refuses $rule as the id before sending', async ({ id }) => {
    const seen = answer(body, 200);
    await expectRefused(call(noRetryGateway(), id), seen, field);
  });
});
