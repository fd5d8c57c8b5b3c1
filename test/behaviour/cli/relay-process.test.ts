// The relay as a real process: SIGKILLed in the middle of a backlog and started again on its state
// file, and 5,000 open payments under a capped heap.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventId } from '../../../src/cli/relay/webhook';
import {
  type ChildRun,
  type MockService,
  newSecret,
  type Receiver,
  sleep,
  spawnCli,
  startMockService,
  startReceiver,
} from './helpers';

let service: MockService | undefined;
let receiver: Receiver | undefined;
const children: ChildRun[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await receiver?.close();
  await service?.close();
  receiver = undefined;
  service = undefined;
});

async function until(predicate: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(25);
  }
}

async function openPayments(s: MockService, count: number): Promise<string[]> {
  // Created through the mock's in-process fetch: the relay under test is what goes over sockets.
  const gateway = s.gateway.withOptions({ fetch: s.mock.fetch });
  const ids: string[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) =>
        gateway.payments.create({
          amount: { unit: 'iso4217/USD', value: '100' },
          referenceId: `order-${i + j}`,
        }),
      ),
    );
    ids.push(...batch.map((p) => p.paymentId));
  }
  return ids;
}

describe('merchant-gateway relay, as a process', () => {
  it('SIGKILLed in the middle of a backlog and restarted on its state file, delivers every final status with the same ids', async () => {
    service = await startMockService();
    const secret = newSecret();
    receiver = await startReceiver(secret);
    receiver.delayMs = 15; // a slow receiver: the backlog is still being delivered when the kill comes
    const ids = await openPayments(service, 150);
    const state = join(mkdtempSync(join(tmpdir(), 'relay-kill-')), 'state.json');
    const args = [
      'relay',
      '--forward-to',
      receiver.url,
      '--secret',
      secret,
      '--state',
      state,
      '--sweep-interval',
      '200',
    ];
    const first = spawnCli(args, service.env);
    children.push(first);
    await until(() => first.stderr().includes('forwarding to'), 'first start');
    await sleep(500);
    for (const id of ids) service.mock.setPaymentStatus(id, 'succeeded');
    await until(() => (receiver as Receiver).deliveries.length >= 20, 'first deliveries');
    first.kill('SIGKILL');
    await first.exited;
    const beforeRestart = receiver.deliveries.length;
    expect(beforeRestart).toBeLessThan(ids.length);
    // What was not delivered is in the state: queued events, or payments not yet seen final.
    const saved = JSON.parse(readFileSync(state, 'utf8')) as {
      events: unknown[];
      checkpoint: { payments: unknown[] };
    };
    expect(saved.events.length + saved.checkpoint.payments.length).toBeGreaterThan(0);

    const second = spawnCli(args, service.env);
    children.push(second);
    await receiver.until((d) => new Set(d.map((x) => x.paymentId)).size === ids.length, 60_000);
    second.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(receiver.rejected).toBe(0);
    for (const delivery of receiver.deliveries) {
      expect(delivery.type).toBe('payment.succeeded');
      // A redelivery carries the id of the first: receivers deduplicate on it.
      expect(delivery.id).toBe(eventId(delivery.paymentId, 'succeeded'));
    }
    expect(new Set(receiver.deliveries.map((d) => d.paymentId))).toEqual(new Set(ids));
    expect(JSON.parse(readFileSync(state, 'utf8')).events).toEqual([]);
  }, 120_000);

  it('follows 5,000 open payments and delivers their 5,000 final statuses with the heap capped at 96 MB', async () => {
    service = await startMockService();
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const ids = await openPayments(service, Number(process.env.N ?? 5_000));
    await receiver.down();
    const relay = spawnCli(
      [
        'relay',
        '--forward-to',
        receiver.url,
        '--secret',
        secret,
        '--sweep-interval',
        '500',
        '--json',
      ],
      {
        ...service.env,
        MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS: '100,200,400,800,1600,3200,6400',
      },
      ['--max-old-space-size=96'],
    );
    children.push(relay);
    await until(() => relay.stderr().includes('forwarding to'), 'start', 60_000);
    for (const id of ids) service.mock.setPaymentStatus(id, 'succeeded');
    await sleep(2_000);
    const started = Date.now();
    await receiver.open();
    await receiver
      .until((d) => new Set(d.map((x) => x.paymentId)).size === ids.length, 90_000)
      .catch((error: Error) => {
        throw new Error(`${error.message}\n${relay.stderr().slice(-3000)}`);
      });
    const seconds = (Date.now() - started) / 1000;
    relay.kill('SIGTERM');
    expect(await relay.exited).toBe(0);
    expect(receiver.rejected).toBe(0);
    // Past 1,000 undelivered events the follow paused instead of holding them all.
    expect(relay.stderr()).toMatch(/events wait for delivery: following paused/);
    const heap = Number(/peak heap ([\d.]+) MiB/.exec(relay.stderr())?.[1]);
    expect(heap).toBeLessThan(96);
    console.info(
      `relay: ${ids.length} open payments, ${ids.length} deliveries in ${seconds.toFixed(1)} s (${Math.round(ids.length / seconds)}/s), peak heap ${heap} MiB`,
    );
  }, 180_000);
});
