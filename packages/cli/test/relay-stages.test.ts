// The stage objects of the relay's events: each event carries every stage its type implies, even
// when the reads it is built from fail at first, and each stage's time is the one the relay first
// gave it, the same in every later event of the payment, across a restart on its state file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PaymentWebhookEvent } from 'merchant-gateway/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MockService,
  newSecret,
  openPayments,
  type Receiver,
  relayArgs,
  runInProcess,
  startMockService,
  startReceiver,
  until,
} from './helpers';

let service: MockService | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await service?.close();
  receiver = undefined;
  service = undefined;
});

describe('merchant-gateway relay: stages', () => {
  it('waits out failing reads to send every implied stage, and keeps each stage time across events and a restart', async () => {
    service = await startMockService({ settleAfterMs: 300 });
    const secret = newSecret();
    receiver = await startReceiver(secret);
    // The mock's sample payments closed: the one below is the only one followed (held reads).
    for (const sample of service.mock.payments()) {
      if (sample.status === 'requires_action' || sample.status === 'processing') {
        service.mock.setPaymentStatus(sample.id, 'failed');
      }
    }
    const state = join(mkdtempSync(join(tmpdir(), 'relay-stages-')), 'state.json');
    const payment = await service.gateway.payments.create({
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'order-stages',
    });
    const mine = () =>
      (receiver?.deliveries ?? [])
        .filter((d) => d.paymentId === payment.paymentId)
        .map((d) => d.event);

    // First run: sweeps a minute apart, so the faults below meet the reads of the event alone.
    const first = runInProcess(
      relayArgs(receiver.url, secret, { state, sweepMs: 60_000 }),
      service.env,
    );
    await until(() => first.stderr.includes('forwarding to'), {
      timeoutMs: 20_000,
      what: () => first.stderr,
    });
    // Its first listing, first look for new payments and the follower's first sweep (GETs of the
    // partner's list, a sweep in pages) are done once no list read came for a second; the next
    // come in a minute.
    const lists = () =>
      service?.mock.requests.filter((r) => r.method === 'GET' && r.path === '/v1/payments')
        .length ?? 0;
    let seen = -1;
    await until(
      () => {
        const now = lists();
        const quiet = now >= 3 && now === seen;
        seen = now;
        return quiet;
      },
      { timeoutMs: 30_000, everyMs: 1_000, what: () => `${lists()} list reads` },
    );
    // The payment's details and its list item both fail once (403: the SDK does not retry it).
    service.mock.failNext({
      status: 403,
      match: { method: 'GET', path: new RegExp(`^/v1/payments/${payment.paymentId}$`) },
    });
    service.mock.failNext({ status: 403, match: { method: 'GET', path: /^\/v1\/payments$/ } });
    service.mock.setPaymentStatus(payment.paymentId, 'processing');
    await until(() => mine().length === 1, { timeoutMs: 20_000, what: () => first.stderr });
    expect(first.stderr).toContain(`reading the details of ${payment.paymentId}`);
    first.stop();
    expect(await first.done).toBe(0);

    // Restarted on its state: the succeeded and settled events.
    const second = runInProcess(relayArgs(receiver.url, secret, { state }), service.env);
    await until(() => second.stderr.includes('(resumed)'), {
      timeoutMs: 20_000,
      what: () => second.stderr,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    service.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    await until(() => mine().some((e) => e.type === 'payment.settled'), {
      timeoutMs: 20_000,
      what: () => `${mine().map((e) => e.type)}: ${second.stderr}`,
    });
    second.stop();
    expect(await second.done).toBe(0);
    expect(receiver.rejected).toBe(0);

    const events = mine();
    expect(events.map((e) => e.type)).toEqual([
      'payment.processing',
      'payment.succeeded',
      'payment.settled',
    ]);
    const [processing, succeeded, settled] = events as [
      PaymentWebhookEvent,
      PaymentWebhookEvent,
      PaymentWebhookEvent,
    ];
    // Every stage the type implies, whatever failed first.
    expect(processing.data.processing).not.toBeNull();
    expect(succeeded.data.processing).not.toBeNull();
    expect(succeeded.data.success).not.toBeNull();
    for (const stage of ['processing', 'success', 'settled'] as const) {
      expect({ stage, value: settled.data[stage] }).not.toEqual({ stage, value: null });
    }
    // One time per stage, the first one given, in every later event.
    const processingAt = processing.data.processing?.processing_at;
    expect(succeeded.data.processing?.processing_at).toBe(processingAt);
    expect(settled.data.processing?.processing_at).toBe(processingAt);
    expect(settled.data.success?.succeeded_at).toBe(succeeded.data.success?.succeeded_at);
    expect(Date.parse(processingAt as string)).toBeLessThanOrEqual(
      Date.parse(succeeded.created_at),
    );
  }, 90_000);

  it("finds a payment's list item among 250 newer ones whose references contain its own", async () => {
    service = await startMockService({ settleAfterMs: 2_147_483_647 });
    for (const sample of service.mock.payments()) {
      if (sample.status === 'requires_action' || sample.status === 'processing') {
        service.mock.setPaymentStatus(sample.id, 'failed');
      }
    }
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const payment = await service.gateway.payments.create({
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'shared-1',
    });
    // The list's reference filter matches a part of the reference: these come first, newest first.
    await openPayments(service, 250, 'shared-1');
    const relay = runInProcess(relayArgs(receiver.url, secret), service.env);
    await until(() => relay.stderr.includes('forwarding to'), {
      timeoutMs: 20_000,
      what: () => relay.stderr,
    });
    service.mock.setPaymentStatus(payment.paymentId, 'processing');
    await until(
      () => receiver?.deliveries.some((d) => d.paymentId === payment.paymentId) ?? false,
      {
        timeoutMs: 30_000,
        what: () => relay.stderr,
      },
    );
    relay.stop();
    expect(await relay.done).toBe(0);
    const event = receiver.deliveries.find((d) => d.paymentId === payment.paymentId)?.event;
    expect(event?.type).toBe('payment.processing');
    expect(event?.data.processing?.option_amount.unit).toMatch(/^caip19\//);
  }, 60_000);
});
