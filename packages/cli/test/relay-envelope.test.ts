// The relay speaks the service's envelope: one receiver written with the SDK's `Webhooks.unwrap`
// and guard takes the mock's own webhooks and the relay's deliveries alike, and a succeeded
// payment's settlement comes as `payment.settled`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createWebhookGuard,
  isPaymentWebhookEvent,
  type PaymentWebhookEvent,
  Webhooks,
} from 'merchant-gateway/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MockService,
  newSecret,
  relayArgs,
  runInProcess,
  startMockService,
  until,
} from './helpers';

/** The receiver code a partner writes: unwrap (verify, parse), then the exactly-once guard. */
async function startSdkReceiver(secret: string) {
  const webhooks = new Webhooks({ secret });
  const guard = createWebhookGuard();
  const handled: PaymentWebhookEvent[] = [];
  let refused = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        try {
          const event = await webhooks.unwrap(
            Buffer.concat(chunks).toString('utf8'),
            request.headers as Record<string, string>,
          );
          await guard.handle(event, async () => {
            if (isPaymentWebhookEvent(event)) handled.push(event);
          });
          response.writeHead(204).end();
        } catch {
          refused++;
          response.writeHead(400).end();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return {
    url,
    handled,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let service: MockService | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await service?.close();
  service = undefined;
});

describe('merchant-gateway relay: the service envelope', () => {
  it("is taken by the same receiver code as the mock's own webhooks, settlement included", async () => {
    const secret = newSecret();
    // The same receiver code twice: one endpoint for the service's (mock's) webhooks, one for the
    // relay's (each its own guard: the relay's versions are its own sequence, not the service's).
    const fromService = await startSdkReceiver(secret);
    const fromRelay = await startSdkReceiver(secret);
    closers.push(fromService.close, fromRelay.close);
    service = await startMockService({
      webhooks: [{ url: fromService.url, secret }],
      settleAfterMs: 300,
    });
    const relay = runInProcess(relayArgs(fromRelay.url, secret), service.env);
    await until(() => relay.stderr.includes('following'), { what: () => relay.stderr });
    const payment = await service.gateway.payments.create({
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'order-both',
    });
    // Found by the relay's sweep (every 200 ms; first seen open: no event), then moved on.
    await new Promise((resolve) => setTimeout(resolve, 600));
    service.mock.setPaymentStatus(payment.paymentId, 'processing');
    await until(() => fromRelay.handled.some((e) => e.type === 'payment.processing'), {
      timeoutMs: 10_000,
      what: () => relay.stderr,
    });
    service.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    const types = (events: PaymentWebhookEvent[]) =>
      events.filter((e) => e.data.payment_id === payment.paymentId).map((e) => e.type);
    await until(() => types(fromRelay.handled).includes('payment.settled'), {
      timeoutMs: 15_000,
      what: () => `relay: ${types(fromRelay.handled)}; ${relay.stderr}`,
    });
    await until(() => types(fromService.handled).includes('payment.settled'), {
      timeoutMs: 10_000,
      what: () => `mock: ${types(fromService.handled)}`,
    });
    relay.stop();
    expect(await relay.done).toBe(0);
    expect(fromService.refused()).toBe(0);
    expect(fromRelay.refused()).toBe(0);

    const mine = fromRelay.handled.filter((e) => e.data.payment_id === payment.paymentId);
    expect(mine.map((e) => e.type)).toEqual([
      'payment.processing',
      'payment.succeeded',
      'payment.settled',
    ]);
    // The relay's own sequence, from 0, one per event; ids evt_…, distinct.
    expect(mine.map((e) => e.data.payment_state_version)).toEqual([0, 1, 2]);
    expect(new Set(mine.map((e) => e.id)).size).toBe(3);
    for (const event of mine) {
      expect(event.id).toMatch(/^evt_/);
      expect(event.api_version).toBe('2026-05-18');
      expect(Number.isNaN(Date.parse(event.created_at))).toBe(false);
      expect(event.data.merchant_id).toBe(service.merchantId);
      expect(event.data.reference_id).toBe('order-both');
      expect(event.data.amount).toEqual({ unit: 'iso4217/USD', value: '1250' });
      // The mock's key is not wcp_…: not live.
      expect(event.data.live).toBe(false);
    }
    const [processing, succeeded, settled] = mine as [
      PaymentWebhookEvent,
      PaymentWebhookEvent,
      PaymentWebhookEvent,
    ];
    expect(processing.data.status).toBe('processing');
    expect(processing.data.success).toBeNull();
    expect(succeeded.data.status).toBe('succeeded');
    expect(succeeded.data.success?.tx_id).toBe(`test:${payment.paymentId}`);
    expect(succeeded.data.processing?.chain_caip2).toMatch(/^eip155:/);
    expect(settled.data.status).toBe('succeeded');
    expect(settled.data.settled).not.toBeNull();

    // What the service itself said of the same payment: the same snapshot where the relay can know.
    const theirs = fromService.handled.filter((e) => e.data.payment_id === payment.paymentId);
    const serviceSucceeded = theirs.find((e) => e.type === 'payment.succeeded');
    expect(serviceSucceeded?.data.success?.tx_id).toBe(succeeded.data.success?.tx_id);
    expect(serviceSucceeded?.data.amount).toEqual(succeeded.data.amount);
    expect(serviceSucceeded?.data.reference_id).toBe(succeeded.data.reference_id);
    expect(serviceSucceeded?.data.live).toBe(false);
  }, 90_000);
});
