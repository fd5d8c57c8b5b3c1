// `merchant-gateway relay` over real sockets: the mock as the service, a receiver verifying every
// delivery with the `standardwebhooks` library.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cli,
  type MockService,
  newSecret,
  type Receiver,
  runInProcess,
  startMockService,
  startReceiver,
} from './helpers';

let service: MockService | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await service?.close();
  receiver = undefined;
  service = undefined;
});

const create = (s: MockService, reference: string) =>
  s.gateway.payments.create({
    amount: { unit: 'iso4217/USD', value: '1250' },
    referenceId: reference,
  });

describe('merchant-gateway relay', () => {
  it('delivers one verified event per status change, none for the status a payment was first seen in', async () => {
    service = await startMockService();
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const before = await create(service, 'order-before');
    const finalBefore = await create(service, 'order-final');
    service.mock.setPaymentStatus(finalBefore.paymentId, 'succeeded');
    const state = join(mkdtempSync(join(tmpdir(), 'relay-')), 'state.json');
    const relay = runInProcess(
      [
        'relay',
        '--forward-to',
        receiver.url,
        '--secret',
        secret,
        '--state',
        state,
        '--sweep-interval',
        '200',
      ],
      service.env,
    );
    await receiver.until(() => false, 1500).catch(() => {});
    expect(receiver.deliveries).toEqual([]);
    service.mock.setPaymentStatus(before.paymentId, 'processing');
    await receiver.until((d) => d.length === 1);
    service.mock.setPaymentStatus(before.paymentId, 'succeeded');
    await receiver.until((d) => d.length === 2);
    const after = await create(service, 'order-after');
    const finalAfter = await create(service, 'order-after-final');
    service.mock.setPaymentStatus(finalAfter.paymentId, 'succeeded');
    await receiver.until((d) => d.some((x) => x.paymentId === finalAfter.paymentId));
    service.mock.setPaymentStatus(after.paymentId, 'failed');
    await receiver.until((d) => d.some((x) => x.paymentId === after.paymentId));
    relay.stop();
    expect(await relay.done).toBe(0);
    expect(receiver.rejected).toBe(0);
    expect(receiver.deliveries.map((d) => [d.paymentId, d.type])).toEqual([
      [before.paymentId, 'payment.processing'],
      [before.paymentId, 'payment.succeeded'],
      [finalAfter.paymentId, 'payment.succeeded'],
      [after.paymentId, 'payment.failed'],
    ]);
    expect(new Set(receiver.deliveries.map((d) => d.id)).size).toBe(4);
    expect(JSON.parse(readFileSync(state, 'utf8')).events).toEqual([]);
  });

  it('refuses a secret that is not whsec_ and base64 of 24 to 64 bytes, with exit 2 and nothing sent', async () => {
    service = await startMockService();
    for (const secret of ['hunter2', 'whsec_short', `whsec_${'A'.repeat(200)}`]) {
      const run = await cli(
        ['relay', '--forward-to', 'http://127.0.0.1:9/x', '--secret', secret],
        service.env,
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--secret must/);
      expect(run.stderr).not.toContain(secret);
    }
    expect(service.mock.requests).toEqual([]);
  });
});
