// Every event the mock sends, of every type it emits, as a receiver gets it: each carries the
// stages its type implies (issue 41.5), and its body is the service's JSON in a form
// `JSON.stringify` never gives, so a receiver that verifies a re-serialized body fails against the
// mock as it would against the service, while one that verifies the raw body passes (issue 41.7).
import { createMockGateway, type MockGateway } from 'merchant-gateway/testing';
import { Webhooks } from 'merchant-gateway/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { partnerOverFetch } from '../../support';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** The stages each type implies (the facts' table): processing may also come on failed and expired. */
const IMPLIED: Record<string, readonly string[]> = {
  'payment.created': [],
  'payment.processing': ['processing'],
  'payment.succeeded': ['processing', 'success'],
  'payment.settled': ['processing', 'success', 'settled'],
  'payment.failed': ['failed'],
  'payment.expired': ['expired'],
  'payment.cancelled': ['cancelled'],
};
const STAGES = ['processing', 'success', 'failed', 'cancelled', 'expired', 'settled'];

interface Sent {
  body: string;
  headers: Record<string, string>;
}

const mocks: MockGateway[] = [];
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.close();
});

/**
 * A mock whose deliveries are caught as sent, and payments driven through every path that sends
 * an event: created and paid to settled, declined, cancelled, expired unpaid, and a seeded
 * payment the buyer had committed to (processing) that fails or expires.
 */
async function everyEvent(): Promise<Sent[]> {
  const sent: Sent[] = [];
  const mock = createMockGateway({
    webhooks: [{ url: 'https://shop.example/hooks', secret: SECRET }],
    settleAfterMs: 0,
    webhookFetch: async (_url, init) => {
      sent.push({ body: String(init.body), headers: init.headers as Record<string, string> });
      return new Response(null, { status: 204 });
    },
  });
  mocks.push(mock);
  const gateway = partnerOverFetch(mock);
  const create = async (referenceId: string) =>
    (await gateway.payments.create({ amount: { unit: 'iso4217/USD', value: '1000' }, referenceId }))
      .paymentId;
  const paid = await create('paid');
  mock.setPaymentStatus(paid, 'processing');
  mock.setPaymentStatus(paid, 'succeeded');
  const straight = await create('straight');
  mock.setPaymentStatus(straight, 'succeeded');
  const declined = await create('declined');
  mock.setPaymentStatus(declined, 'failed');
  await gateway.payments.cancel(await create('cancelled'));
  mock.setPaymentStatus(await create('expired'), 'expired');
  const committed = mock.payments().filter((p) => p.status === 'processing');
  expect(committed.length).toBeGreaterThanOrEqual(2);
  mock.setPaymentStatus(committed[0]?.id as string, 'failed');
  mock.setPaymentStatus(committed[1]?.id as string, 'expired');
  expect(await mock.webhooks.idle()).toBe(true);
  const types = new Set(sent.map((s) => JSON.parse(s.body).type));
  expect([...types].sort()).toEqual(Object.keys(IMPLIED).sort());
  return sent;
}

describe('the events the mock sends', () => {
  it('carry every stage their type implies, and processing once the buyer had committed', async () => {
    const sent = await everyEvent();
    for (const { body } of sent) {
      const { type, data } = JSON.parse(body);
      for (const stage of STAGES) expect(data).toHaveProperty(stage);
      const missing = (IMPLIED[type] ?? []).filter((stage) => data[stage] === null);
      expect({ type, missing }).toEqual({ type, missing: [] });
    }
    // A payment that was processing when it failed or expired shows when the buyer committed.
    const afterCommit = sent
      .map((s) => JSON.parse(s.body))
      .filter((e) => e.data.reference_id !== 'declined' && e.data.reference_id !== 'expired')
      .filter((e) => e.type === 'payment.failed' || e.type === 'payment.expired');
    expect(afterCommit).toHaveLength(2);
    for (const event of afterCommit) {
      expect(event.data.processing?.processing_at).toEqual(expect.any(String));
      expect(Date.parse(event.data.processing.processing_at)).toBeLessThanOrEqual(
        Date.parse(event.created_at),
      );
    }
  }, 60_000);

  it('verify from the raw body only: a re-serialized body fails, as against the service', async () => {
    const sent = await everyEvent();
    const sdk = new Webhooks({ secret: SECRET });
    const library = new Webhook(SECRET);
    for (const { body, headers } of sent) {
      const reserialized = JSON.stringify(JSON.parse(body));
      expect(body).not.toBe(reserialized);
      expect(body).toContain('": ');
      expect(body).toContain(', "');
      // The same value either way: only the bytes differ.
      expect(JSON.parse(body)).toEqual(JSON.parse(reserialized));
      await expect(sdk.unwrap(body, headers)).resolves.toMatchObject({ id: JSON.parse(body).id });
      expect(() => library.verify(body, headers)).not.toThrow();
      await expect(sdk.unwrap(reserialized, headers)).rejects.toMatchObject({
        reason: 'invalid_signature',
      });
      expect(() => library.verify(reserialized, headers)).toThrow();
    }
  }, 60_000);
});
