// `mock.advancePayments` and `POST /__mock/payments/advance` move only the payments asked for
// (a merchant's, or a list of ids) and answer what moved in a few bytes (issue 37.9): before,
// every call moved the seeded merchant's payments too and answered ~100 KB of payments.
import { createMockGateway } from 'merchant-gateway/testing';
import { beforeEach, describe, expect, test } from 'vitest';
import { useListeningPartner } from '../../support';

const mock = createMockGateway();
const served = useListeningPartner(mock);
beforeEach(() => mock.reset());

/** A merchant of the test's own with `count` open payments. */
async function merchantWithPayments(count: number) {
  const merchant = await served.gateway.merchants.create({
    merchantName: 'Advance Tea',
    merchantEmail: 'tea@advance.example',
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await served.gateway.payments.create({
      merchantId: merchant.id,
      amount: { unit: 'iso4217/USD', value: '300' },
      referenceId: `advance-${i}`,
    });
    ids.push(created.paymentId);
  }
  return { merchantId: merchant.id, ids };
}

const sampleStatuses = () =>
  mock.payments(mock.sample.merchantId).map((p) => `${p.id}:${p.status}`);

async function advance(body: unknown) {
  const response = await fetch(`${served.url}/__mock/payments/advance`, {
    method: 'POST',
    headers: { 'Api-Key': mock.credentials.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, bytes: text.length, body: JSON.parse(text) };
}

describe('POST /__mock/payments/advance', () => {
  test("with a merchantId moves that merchant's payments only, and answers in a few bytes", async () => {
    const { merchantId, ids } = await merchantWithPayments(3);
    const before = sampleStatuses();

    const answer = await advance({ merchantId });

    expect(answer.status).toBe(200);
    expect(answer.body).toStrictEqual({ moved: 3, paymentIds: expect.any(Array) });
    expect([...answer.body.paymentIds].sort()).toStrictEqual([...ids].sort());
    expect(answer.bytes).toBeLessThan(500);
    expect(sampleStatuses()).toStrictEqual(before);
    for (const id of ids) expect(mock.getPayment(id)?.status).toBe('processing');
  });

  test('with paymentIds moves those payments only, along the path given', async () => {
    const { ids } = await merchantWithPayments(3);
    const [first, second, third] = ids as [string, string, string];

    const answer = await advance({
      paymentIds: [first, third],
      path: ['requires_action', 'failed'],
    });

    expect(answer.body).toStrictEqual({ moved: 2, paymentIds: [first, third].sort() });
    expect(mock.getPayment(first)?.status).toBe('failed');
    expect(mock.getPayment(second)?.status).toBe('requires_action');
    expect(mock.getPayment(third)?.status).toBe('failed');
  });

  test.each([
    [{ merchantId: 'mer_nope' }, 404, 'merchant_not_found'],
    [{ paymentIds: ['pay_nope'] }, 404, 'payment_not_found'],
    [{ merchantId: '' }, 400, 'params_validation'],
    [{ paymentIds: 'pay_1' }, 400, 'params_validation'],
    [{ paymentIds: [1] }, 400, 'params_validation'],
  ])('refuses %j with %i %s, moving nothing', async (body, status, code) => {
    const before = sampleStatuses();
    const answer = await advance(body);
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
    expect(sampleStatuses()).toStrictEqual(before);
  });

  test('with no scope moves every open payment, as before, still answering ids only', async () => {
    const { ids } = await merchantWithPayments(1);
    const answer = await advance({});
    expect(answer.body.moved).toBeGreaterThan(1);
    expect(answer.body.paymentIds).toContain(ids[0]);
    expect(answer.body.paymentIds).toHaveLength(answer.body.moved);
    expect(Object.keys(answer.body)).toStrictEqual(['moved', 'paymentIds']);
  });
});

describe('mock.advancePayments', () => {
  test('takes the same scope as the control route: a merchant, payment ids, a path', async () => {
    const { merchantId, ids } = await merchantWithPayments(2);
    const before = sampleStatuses();

    expect(mock.advancePayments({ merchantId })).toBe(2);
    expect(
      mock.advancePayments({ paymentIds: [ids[0] as string], path: ['processing', 'failed'] }),
    ).toBe(1);

    expect(mock.getPayment(ids[0] as string)?.status).toBe('failed');
    expect(mock.getPayment(ids[1] as string)?.status).toBe('processing');
    expect(sampleStatuses()).toStrictEqual(before);
    expect(() => mock.advancePayments({ merchantId: 'mer_nope' })).toThrow(/mer_nope/);
    expect(() => mock.advancePayments({ paymentIds: ['pay_nope'] })).toThrow(/pay_nope/);
  });
});
