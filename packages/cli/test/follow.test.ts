// `merchant-gateway payments follow` against the mock over HTTP: JSON lines for scripts, a live
// status line on a terminal, every open payment with --all.
import { afterEach, describe, expect, it } from 'vitest';
import { cli, type MockService, runInProcess, sleep, startMockService, until } from './helpers';

let service: MockService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const create = (s: MockService, reference: string) =>
  s.gateway.payments.create({
    amount: { unit: 'iso4217/USD', value: '500' },
    referenceId: reference,
  });

describe('merchant-gateway payments follow', () => {
  it('prints one JSON line per change of the payments given and ends once each is final', async () => {
    service = await startMockService();
    const a = await create(service, 'order-a');
    const b = await create(service, 'order-b');
    const run = runInProcess(
      ['payments', 'follow', a.paymentId, b.paymentId, '--json', '--sweep-interval', '200'],
      service.env,
    );
    await until(() => run.stdout.split('\n').length > 2);
    service.mock.setPaymentStatus(a.paymentId, 'processing');
    await until(() => run.stdout.includes('"processing"'));
    service.mock.setPaymentStatus(a.paymentId, 'succeeded');
    service.mock.setPaymentStatus(b.paymentId, 'expired');
    expect(await run.done).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.paymentId, l.previousStatus ?? null, l.status])).toEqual(
      expect.arrayContaining([
        [a.paymentId, null, 'requires_action'],
        [b.paymentId, null, 'requires_action'],
        [a.paymentId, 'requires_action', 'processing'],
        [a.paymentId, 'processing', 'succeeded'],
        [b.paymentId, 'requires_action', 'expired'],
      ]),
    );
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(Date.parse(line.timestamp)).toBeGreaterThan(0);
  }, 40_000);

  it('keeps a live status line under the changes on a terminal', async () => {
    service = await startMockService();
    const a = await create(service, 'order-tty');
    const run = runInProcess(['payments', 'follow', a.paymentId], service.env, {
      stdoutIsTTY: true,
    });
    await until(() => run.stdout.includes('requires_action'));
    service.mock.setPaymentStatus(a.paymentId, 'failed');
    expect(await run.done).toBe(0);
    expect(run.stdout).toContain(`${a.paymentId}  (first read) → requires_action`);
    expect(run.stdout).toContain(`\r\x1b[2K`);
    expect(run.stdout).toMatch(/\S+ {2}pay_\w+ {2}requires_action → failed \(final\)\n/);
    expect(run.stdout).toMatch(/following 0 payments · 2 changes · last: pay_\w+ failed\n$/);
  }, 20_000);

  it('with --all follows every open payment and those created while it runs, until stopped', async () => {
    service = await startMockService();
    const open = await create(service, 'order-open');
    const run = runInProcess(
      ['payments', 'follow', '--all', '--sweep-interval', '200'],
      service.env,
    );
    await sleep(600);
    const later = await create(service, 'order-later');
    service.mock.setPaymentStatus(open.paymentId, 'succeeded');
    await until(() => run.stdout.includes(open.paymentId));
    await sleep(700); // found by a sweep and read once: its first status yields nothing
    service.mock.setPaymentStatus(later.paymentId, 'processing');
    await until(() => run.stdout.includes(later.paymentId)).catch((error: Error) => {
      throw new Error(`${error.message}: ${run.stdout} ${run.stderr}`);
    });
    run.stop();
    expect(await run.done).toBe(0);
    expect(run.stdout).toContain(`${open.paymentId}  requires_action → succeeded (final)`);
    expect(run.stdout).toContain(`${later.paymentId}  requires_action → processing`);
  }, 120_000);

  it('takes ids or --all, not both, and a payment that cannot be read fails the follow', async () => {
    service = await startMockService();
    expect((await cli(['payments', 'follow'], service.env)).code).toBe(2);
    expect((await cli(['payments', 'follow', 'pay_1', '--all'], service.env)).code).toBe(2);
    expect(
      (await cli(['payments', 'follow', 'pay_1', '--sweep-interval', '5'], service.env)).code,
    ).toBe(2);
    const missing = await cli(['payments', 'follow', 'pay_missing'], service.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('pay_missing');
  }, 20_000);
});
