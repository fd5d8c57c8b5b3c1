// The webhook sender's edges: what createMockGateway and mock.webhooks.add refuse (naming the
// field, never the secret), what the log hands out (copies), endpoint types, removal, and chaos
// that follows the seed.
import { createMockGateway, type MockWebhookChaos } from 'merchant-gateway/testing';
import { describe, expect, it, vi } from 'vitest';

const sink = () => {
  const bodies: string[] = [];
  const webhookFetch = async (_url: string, init: RequestInit) => {
    bodies.push(String(init.body));
    return new Response(null, { status: 200 });
  };
  return { bodies, webhookFetch };
};

describe('the mock webhook sender', () => {
  it.each([
    [{ webhookRetryScale: 0 }, /webhookRetryScale must be a number > 0/],
    [{ webhookTimeoutMs: -1 }, /webhookTimeoutMs must be a number > 0/],
    [{ webhookLogSize: Number.NaN }, /webhookLogSize must be a number > 0/],
    [{ webhookChaos: { dropRate: 2 } }, /webhookChaos.dropRate must be a number from 0 to 1/],
    [{ webhookChaos: { reorderWindowMs: -5 } }, /webhookChaos.reorderWindowMs/],
    [{ settleAfterMs: 1.5 }, /settleAfterMs must be a whole number/],
  ])('refuses %j', (options, message) => {
    expect(() => createMockGateway(options)).toThrow(message);
  });

  it('refuses a bad endpoint, naming the field and never the secret', () => {
    const mock = createMockGateway();
    expect(() => mock.webhooks.add({ url: 'not a url' })).toThrow(/url must be an absolute/);
    expect(() => mock.webhooks.add({ url: 'ftp://x.example/' })).toThrow(/url must be/);
    const secret = 'whsec_$$$-not-base64';
    expect(() => mock.webhooks.add({ url: 'https://x.example/', secret })).toThrow(
      /secret must be whsec_/,
    );
    try {
      mock.webhooks.add({ url: 'https://x.example/', secret });
    } catch (error) {
      expect(String(error)).not.toContain('not-base64');
    }
    expect(() =>
      mock.webhooks.add({ url: 'https://x.example/', types: [''] as unknown as string[] }),
    ).toThrow(/types must be an array/);
    expect(mock.webhooks.list()).toEqual([]);
    expect(mock.webhooks.remove('we_unknown')).toBe(false);
  });

  it('sends an endpoint only the types it asked for, and hands out copies', async () => {
    const { bodies, webhookFetch } = sink();
    const mock = createMockGateway({ webhookFetch });
    const endpoint = mock.webhooks.add({
      url: 'https://shop.example/hooks',
      types: ['payment.succeeded'],
    });
    const id = mock.payments(mock.sample.merchantId).find((p) => p.status === 'requires_action')
      ?.id as string;
    mock.setPaymentStatus(id, 'processing');
    mock.setPaymentStatus(id, 'succeeded');
    expect(await mock.webhooks.idle()).toBe(true);
    expect(bodies.map((b) => JSON.parse(b).type)).toEqual(['payment.succeeded']);
    // A seeded payment's first change is version 1 (its creation sent no event): succeeded is 2.
    expect(JSON.parse(bodies[0] ?? '{}').data.payment_state_version).toBe(2);
    const [delivery] = mock.webhooks.deliveries();
    delivery?.attempts.pop();
    expect(mock.webhooks.deliveries()[0]?.attempts).toHaveLength(1);
    endpoint.types?.push('payment.created');
    expect(mock.webhooks.list()[0]?.types).toEqual(['payment.succeeded']);
    expect(mock.webhooks.remove(endpoint.id)).toBe(true);
    mock.setPaymentStatus(id, 'failed');
    expect(await mock.webhooks.idle()).toBe(true);
    expect(bodies).toHaveLength(1);
    mock.close();
  });

  it('forgets the oldest finished delivery at the log size, keeping the pending ones', async () => {
    let acknowledged = '';
    const mock = createMockGateway({
      webhooks: [{ url: 'https://shop.example/hooks' }],
      webhookLogSize: 2,
      // Only the second payment's delivery is acknowledged; the others hang (pending until
      // close). Chosen by its body, not by the order of the sends: deliveries go out side by side,
      // each once signed, and a loaded machine sent the first payment's second.
      webhookFetch: (_url, init) =>
        acknowledged !== '' && String(init.body).includes(acknowledged)
          ? Promise.resolve(new Response(null))
          : new Promise<Response>(() => {}),
      webhookTimeoutMs: 60_000,
    });
    const [first, second, third] = mock.payments().filter((p) => p.status === 'requires_action');
    acknowledged = second?.id as string;
    mock.setPaymentStatus(first?.id as string, 'cancelled');
    mock.setPaymentStatus(second?.id as string, 'cancelled');
    // vi.waitUntil's default is 1 s: a loaded machine took longer to sign and send the first ones.
    await vi.waitUntil(() => mock.webhooks.deliveries()[1]?.status === 'delivered', {
      timeout: 30_000,
    });
    mock.setPaymentStatus(third?.id as string, 'cancelled');
    // The delivered one went, though the pending one before it is older.
    expect(mock.webhooks.deliveries().map((d) => [d.paymentId, d.status])).toEqual([
      [first?.id, 'pending'],
      [third?.id, 'pending'],
    ]);
    mock.close();
  }, 60_000);

  it('idle() says false when deliveries are still pending at its timeout', async () => {
    const mock = createMockGateway({
      webhooks: [{ url: 'https://shop.example/hooks' }],
      webhookFetch: () => new Promise<Response>(() => {}), // never answers
      webhookTimeoutMs: 60_000,
    });
    mock.setPaymentStatus(mock.payments()[0]?.id as string, 'cancelled');
    expect(await mock.webhooks.idle(50)).toBe(false);
    mock.close();
    expect(await mock.webhooks.idle(50)).toBe(true);
  });

  it('doubles, holds and drops the same deliveries for the same seed', async () => {
    const chaos: MockWebhookChaos = { duplicateRate: 0.3, reorderWindowMs: 20, dropRate: 0.2 };
    const run = async () => {
      const { webhookFetch } = sink();
      const mock = createMockGateway({
        seed: 9,
        webhooks: [{ url: 'https://shop.example/hooks' }],
        webhookChaos: chaos,
        webhookFetch,
      });
      const open = mock
        .payments()
        .filter((p) => p.status === 'requires_action')
        .slice(0, 30);
      for (const p of open) mock.setPaymentStatus(p.id, 'cancelled');
      await mock.webhooks.idle();
      const log = mock.webhooks.deliveries().map((d) => `${d.eventId} ${d.status} ${d.duplicate}`);
      mock.close();
      return log;
    };
    const first = await run();
    expect(first.some((line) => line.endsWith('dropped false'))).toBe(true);
    expect(first.some((line) => line.endsWith('true'))).toBe(true);
    expect(await run()).toEqual(first);
  });
});
