// The relay's figures on this machine (issue 30): deliveries per second, and the time from a status
// change at the service to its delivery (p50, p99), the relay running as its own process against
// the mock over HTTP and a receiver that verifies every delivery.
// `npx tsx --tsconfig packages/cli/tsconfig.json packages/cli/bench/relay.ts` (`--drain`:
// deliveries alone from a state file; `--spill`: the same past the memory bound).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  newSecret,
  openPayments,
  type Receiver,
  relayArgs,
  secretFile,
  sleep,
  spawnCli,
  spilledLines,
  startMockService,
  startReceiver,
  until,
} from '../test/helpers';

/** The p-th percentile (nearest rank) of some durations. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function run(open: number, changes: number, sweepMs: number): Promise<void> {
  const service = await startMockService();
  const gateway = service.gateway.withOptions({ fetch: service.mock.fetch });
  // The sample's open payments end first: only the bench's own are open.
  for await (const p of gateway.partnerPayments.list({
    status: ['requires_action', 'processing'],
    limit: 200,
  })) {
    service.mock.setPaymentStatus(p.paymentId, 'expired');
  }
  const ids = await openPayments(service, open, 'bench');
  const secret = newSecret();
  const receiver: Receiver = await startReceiver(secret);
  const relay = spawnCli(
    [
      'relay',
      '--forward-to',
      receiver.url,
      '--secret',
      secretFile(secret),
      '--sweep-interval',
      String(sweepMs),
    ],
    { ...service.env, MERCHANT_GATEWAY_RELAY_MAX_BACKLOG: '100000' },
  );
  await until(() => relay.stderr().includes('following'), { timeoutMs: 60_000, everyMs: 10 });
  await sleep(1_000);

  // Latency: one change at a time, to a random open payment, timed from the service's change.
  const latencies: number[] = [];
  const pending = new Set(ids);
  for (let i = 0; i < changes; i++) {
    const id = [...pending][Math.floor(Math.random() * pending.size)] as string;
    pending.delete(id);
    const before = receiver.deliveries.length;
    const t0 = performance.now();
    service.mock.setPaymentStatus(id, 'succeeded');
    await until(() => receiver.deliveries.length > before, { timeoutMs: 30_000, everyMs: 10 });
    latencies.push(performance.now() - t0);
    // A random moment of the sweep period, as changes come in life.
    await sleep(Math.random() * sweepMs);
  }
  latencies.sort((a, b) => a - b);

  // Throughput: every other open payment succeeds at once.
  const rest = [...pending];
  const before = receiver.deliveries.length;
  const t0 = performance.now();
  for (const id of rest) service.mock.setPaymentStatus(id, 'succeeded');
  await until(() => receiver.deliveries.length - before === rest.length, {
    timeoutMs: 120_000,
    everyMs: 10,
  });
  const seconds = (performance.now() - t0) / 1000;
  relay.kill('SIGTERM');
  await relay.exited;
  const heap = /peak heap ([\d.]+) MiB/.exec(relay.stderr())?.[1];
  console.log(
    `${open} open payments, --sweep-interval ${sweepMs}: change → delivery p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (${changes} changes); ` +
      `${rest.length} changes at once delivered in ${seconds.toFixed(1)} s = ${Math.round(rest.length / seconds)}/s (learning included); peak heap ${heap} MiB; rejected ${receiver.rejected}`,
  );
  await receiver.close();
  await service.close();
}

/**
 * Deliveries alone: 5,000 events queued in a state file while the receiver was down, then drained;
 * with `spill`, the default bound of 1,000 in memory, so 4,000 are read back from spill segments.
 */
async function drain(count: number, spill: boolean): Promise<void> {
  const service = await startMockService();
  const ids = await openPayments(service, count, 'drain');
  const secret = newSecret();
  const receiver = await startReceiver(secret);
  await receiver.down();
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-'));
  const state = join(dir, 'state.json');
  const spilled = () => spilledLines(dir);
  const args = relayArgs(receiver.url, secret, { state, sweepMs: 500 });
  const env = spill
    ? service.env
    : { ...service.env, MERCHANT_GATEWAY_RELAY_MAX_BACKLOG: '100000' };
  const first = spawnCli(args, env);
  await until(() => first.stderr().includes('following'), { timeoutMs: 60_000, everyMs: 10 });
  for (const id of ids) service.mock.setPaymentStatus(id, 'succeeded');
  await until(
    () => {
      try {
        return JSON.parse(readFileSync(state, 'utf8')).events.length + spilled() === count;
      } catch {
        return false;
      }
    },
    { timeoutMs: 60_000, everyMs: 10 },
  );
  first.kill('SIGTERM');
  await first.exited;
  const heapDown = /peak heap ([\d.]+) MiB/.exec(first.stderr())?.[1];
  const onDisk = spilled();
  await receiver.open();
  const second = spawnCli(args, env);
  await until(() => receiver.deliveries.length > 0, { timeoutMs: 60_000, everyMs: 10 });
  const t0 = performance.now();
  await until(() => receiver.deliveries.length >= count, { timeoutMs: 120_000, everyMs: 10 });
  const seconds = (performance.now() - t0) / 1000;
  second.kill('SIGTERM');
  await second.exited;
  console.log(
    `${count} queued events (${onDisk} of them spilled to disk; peak heap ${heapDown} MiB while the receiver was down, ${/peak heap ([\d.]+) MiB/.exec(second.stderr())?.[1]} MiB draining) drained in ${seconds.toFixed(1)} s = ${Math.round(count / seconds)} deliveries/s (16 at once, each verified by the receiver)`,
  );
  await receiver.close();
  await service.close();
}

if (process.argv.includes('--drain') || process.argv.includes('--spill')) {
  await drain(5_000, process.argv.includes('--spill'));
  process.exit(0);
}
await run(8, 6, 5_000);
await run(200, 20, 5_000);
await run(200, 40, 1_000);
await run(5_000, 10, 5_000);
