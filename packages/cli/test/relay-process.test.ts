// The relay as a real process: SIGKILLed while its backlog is spilled to disk and while reading it
// back, started again on its state file; and 2,000 open payments under a capped heap (the bench
// runs 5,000: `packages/cli/bench/relay.ts`).
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChildRun,
  type Delivery,
  type MockService,
  newSecret,
  openPayments,
  type Receiver,
  relayArgs,
  secretFile,
  spawnCli,
  spilledLines,
  startMockService,
  startReceiver,
  until,
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

const waitFor = (predicate: () => boolean, what: string, timeoutMs = 30_000) =>
  until(predicate, { timeoutMs, what: () => what });

/** Each payment's statuses in the order their events first arrived (a redelivery repeats an id). */
function firstArrivals(deliveries: Delivery[]): Map<string, string[]> {
  const seen = new Set<string>();
  const order = new Map<string, string[]>();
  for (const d of deliveries) {
    if (seen.has(d.id)) continue;
    seen.add(d.id);
    order.set(d.paymentId, [...(order.get(d.paymentId) ?? []), d.status]);
  }
  return order;
}

describe('merchant-gateway relay, as a process', () => {
  it('refuses a second relay on the same --state file, naming the file and the holder, and restarts after the holder was SIGKILLed', async () => {
    service = await startMockService();
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const state = join(mkdtempSync(join(tmpdir(), 'relay-lock-')), 'state.json');
    const args = [
      'relay',
      '--forward-to',
      receiver.url,
      '--secret',
      secretFile(secret),
      '--state',
      state,
    ];
    const first = spawnCli(args, service.env);
    children.push(first);
    await waitFor(() => first.stderr().includes('forwarding to'), 'first start');

    const second = spawnCli(args, service.env);
    children.push(second);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`${state} is in use by another relay (pid ${first.pid}`);
    expect(second.stderr()).not.toContain('forwarding to');
    // The refused one left the holder's lock alone.
    expect(readFileSync(`${state}.lock`, 'utf8').trim()).toBe(String(first.pid));

    first.kill('SIGKILL');
    await first.exited;
    const third = spawnCli(args, service.env);
    children.push(third);
    await waitFor(() => third.stderr().includes('forwarding to'), 'restart after SIGKILL');
    expect(third.stderr()).toContain('(resumed)');
    expect(readFileSync(`${state}.lock`, 'utf8').trim()).toBe(String(third.pid));
    third.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(existsSync(`${state}.lock`)).toBe(false);
    // Three relay processes one after the other: 20 s on a loaded 2-core machine.
  }, 90_000);

  it('SIGKILLed while its backlog is spilled, and again while reading it back, delivers every change in order with the same ids', async () => {
    // No payout: the events counted are the status changes (payment.settled has its own test).
    service = await startMockService({ settleAfterMs: 2_147_483_647 });
    const secret = newSecret();
    receiver = await startReceiver(secret);
    await receiver.down();
    const ids = await openPayments(service, 150);
    const dir = mkdtempSync(join(tmpdir(), 'relay-kill-'));
    const state = join(dir, 'state.json');
    const args = relayArgs(receiver.url, secret, { state });
    // 20 events in memory: 280 of the 300 spill to disk beside the state file.
    const env = { ...service.env, MERCHANT_GATEWAY_RELAY_MAX_BACKLOG: '20' };
    const saved = () => JSON.parse(readFileSync(state, 'utf8'));
    const savedStatuses = () => {
      const statuses = new Map<string, string>(
        saved().checkpoint.payments.map((p: { paymentId: string; status: string }) => [
          p.paymentId,
          p.status,
        ]),
      );
      return ids.map((id) => statuses.get(id));
    };
    const first = spawnCli(args, env);
    children.push(first);
    await waitFor(() => first.stderr().includes('forwarding to'), 'first start');
    for (const id of ids) service.mock.setPaymentStatus(id, 'processing');
    await waitFor(() => savedStatuses().every((s) => s === 'processing'), 'processing seen');
    for (const id of ids) service.mock.setPaymentStatus(id, 'succeeded');
    await waitFor(() => savedStatuses().every((s) => s !== 'processing'), 'succeeded seen');
    expect(first.stderr()).toMatch(/20 events wait for delivery: the next ones spill to/);
    expect(spilledLines(dir)).toBe(280);
    first.kill('SIGKILL');
    await first.exited;

    await receiver.open();
    receiver.delayMs = 10; // slow enough to be killed in the middle of reading the spill back
    const second = spawnCli(args, env);
    children.push(second);
    await waitFor(() => (receiver as Receiver).deliveries.length >= 100, 'second deliveries');
    second.kill('SIGKILL');
    await second.exited;
    expect(receiver.deliveries.length).toBeLessThan(300);

    const third = spawnCli(args, env);
    children.push(third);
    await receiver.until((d) => new Set(d.map((x) => x.id)).size === 300, 60_000);
    // Every change has arrived once; the redeliveries of what the killed runs had sent (at least
    // once, the same ids) may still be queued: the stop comes once the saved backlog is empty.
    await waitFor(
      () =>
        saved().events.length === 0 &&
        readdirSync(dir).filter((name) => name.includes('.spill-')).length === 0,
      'backlog delivered',
      60_000,
    );
    third.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(receiver.rejected).toBe(0);
    const order = firstArrivals(receiver.deliveries);
    for (const id of ids) expect(order.get(id)).toEqual(['processing', 'succeeded']);
    // A redelivery carries the id of the first: receivers deduplicate on it.
    const firstIds = new Map<string, string>();
    for (const delivery of receiver.deliveries) {
      const key = `${delivery.paymentId} ${delivery.type}`;
      expect(delivery.id).toBe(firstIds.get(key) ?? delivery.id);
      firstIds.set(key, delivery.id);
    }
    expect(saved().events).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.includes('.spill-'))).toEqual([]);
  }, 150_000);

  it('keeps following 2,000 open payments while the receiver is down, spilling past its bound, and delivers all 4,000 changes in order with the heap capped at 96 MB', async () => {
    service = await startMockService({ settleAfterMs: 2_147_483_647 });
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const count = Number(process.env.N ?? 2_000);
    // Held in memory before the next events spill: a fifth of the backlog, as 1,000 is of 5,000.
    const bound = Math.max(1, Math.round(count / 5));
    const ids = await openPayments(service, count);
    await receiver.down();
    // No --state: the spill goes to a temporary directory, here one the test can look into.
    const temporary = mkdtempSync(join(tmpdir(), 'relay-heap-'));
    const relay = spawnCli(
      relayArgs(receiver.url, secret, { sweepMs: 500, json: true }),
      {
        ...service.env,
        TMPDIR: temporary,
        MERCHANT_GATEWAY_RELAY_MAX_BACKLOG: String(bound),
        // Attempts over about 200 s (the receiver is down for less: each change now takes its
        // reads before its event is queued), at most 3.2 s apart.
        MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS: `100,200,400,800,1600,${Array(60).fill(3200)}`,
      },
      ['--max-old-space-size=96'],
    );
    children.push(relay);
    await waitFor(() => relay.stderr().includes('forwarding to'), 'start', 60_000);
    const downAt = Date.now();
    for (const id of ids) service.mock.setPaymentStatus(id, 'processing');
    // `bound` held in memory, every other one on disk: each payment's processing was seen.
    await waitFor(() => spilledLines(temporary) === count - bound, 'processing spilled', 180_000);
    for (const id of ids) service.mock.setPaymentStatus(id, 'succeeded');
    await waitFor(
      () => spilledLines(temporary) === 2 * count - bound,
      'succeeded spilled',
      180_000,
    );
    const downFor = Date.now() - downAt;
    const started = Date.now();
    await receiver.open();
    await receiver
      .until((d) => new Set(d.map((x) => x.id)).size === 2 * count, 120_000)
      .catch((error: Error) => {
        throw new Error(`${error.message}\n${relay.stderr().slice(-3000)}`);
      });
    const seconds = (Date.now() - started) / 1000;
    relay.kill('SIGTERM');
    expect(await relay.exited).toBe(0);
    expect(receiver.rejected).toBe(0);
    const order = firstArrivals(receiver.deliveries);
    for (const id of ids) expect(order.get(id)).toEqual(['processing', 'succeeded']);
    expect(relay.stderr()).toContain(`${bound} events wait for delivery: the next ones spill to`);
    expect(relay.stderr()).toContain('the spill is read back');
    expect(relay.stderr()).not.toContain('following paused');
    const heap = Number(/peak heap ([\d.]+) MiB/.exec(relay.stderr())?.[1]);
    expect(heap).toBeLessThan(96);
    // The temporary spill is removed at the end.
    expect(readdirSync(temporary).filter((name) => name.startsWith('merchant-gateway'))).toEqual(
      [],
    );
    console.info(
      `relay: ${count} open payments, receiver down ${(downFor / 1000).toFixed(1)} s, ${2 * count} deliveries in ${seconds.toFixed(1)} s (${Math.round((2 * count) / seconds)}/s), peak heap ${heap} MiB`,
    );
  }, 1_300_000);
});
