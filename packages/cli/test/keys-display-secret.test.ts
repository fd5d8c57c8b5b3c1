// Issue 37 item 5: re-running `payments create` made a second payment (no --idempotency-key);
// people read minor units (`2020 iso4217/USD`) and epoch seconds where they typed `20.20 USD`; and
// the relay took its signing secret on the command line, where `--api-key` refuses a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  type MockService,
  newSecret,
  type Receiver,
  runInProcess,
  secretFile,
  spawnCli,
  startMockService,
  startReceiver,
  until,
} from './helpers';

let service: MockService;
let receiver: Receiver | undefined;
beforeAll(async () => {
  service = await startMockService();
});
afterAll(async () => {
  await receiver?.down();
  await service.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const paymentsWithReference = async (reference: string) =>
  (await service.gateway.partnerPayments.list({ referenceId: reference, limit: 200 })).data.map(
    (p) => p.paymentId,
  );

describe('keyed creates', () => {
  it('payments create run twice with one --idempotency-key makes one payment, and prints the key', async () => {
    const argv = [
      'payments',
      'create',
      '--amount',
      '20.20',
      '--currency',
      'USD',
      '--reference',
      'rerun-1',
      '--idempotency-key',
      'order-rerun-1',
    ];
    const first = await cli([...argv, '--json'], service.env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const created = JSON.parse(first.stdout);
    expect(created.idempotencyKey).toBe('order-rerun-1');
    const again = await cli(argv, service.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^idempotencyKey +order-rerun-1$/m);
    expect(again.stdout).toContain(created.paymentId);
    expect(await paymentsWithReference('rerun-1')).toEqual([created.paymentId]);
  });

  it('without --idempotency-key each create sends a fresh key and prints it', async () => {
    const run = async () =>
      JSON.parse(
        (
          await cli(
            [
              'merchants',
              'create',
              '--name',
              'Keyed Shop',
              '--email',
              'keyed@example.com',
              '--json',
            ],
            service.env,
          )
        ).stdout,
      );
    const [a, b] = [await run(), await run()];
    expect(a.idempotencyKey).toMatch(UUID);
    expect(b.idempotencyKey).toMatch(UUID);
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(a.id).not.toBe(b.id);
    const sent = service.mock.requests.filter((r) => JSON.stringify(r).includes(a.idempotencyKey));
    expect(sent.length).toBeGreaterThan(0);

    const added = await cli(
      [
        'settlements',
        'add',
        a.id,
        '--asset',
        'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        '--destination',
        `eip155:8453:0x${'2'.repeat(40)}`,
        '--idempotency-key',
        'settle-a',
        '--json',
      ],
      service.env,
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      idempotencyKey: 'settle-a',
      settlements: [expect.objectContaining({ destination: `eip155:8453:0x${'2'.repeat(40)}` })],
    });
  });
});

describe('what people read', () => {
  it('shows amounts in major units with the currency and times in ISO 8601; --json keeps the wire values', async () => {
    const expires = '2030-01-02T03:04:05Z';
    const created = await cli(
      [
        'payments',
        'create',
        '--amount',
        '20.20',
        '--currency',
        'USD',
        '--reference',
        'display-1',
        '--expires-at',
        expires,
      ],
      service.env,
    );
    expect(created.code).toBe(0);
    expect(created.stdout).not.toMatch(/expiresAt +\d+$/m);
    const id = /^paymentId +(\S+)$/m.exec(created.stdout)?.[1] as string;
    const table = await cli(['payments', 'list', '--reference', 'display-1'], service.env);
    expect(table.code).toBe(0);
    const row = table.stdout.split('\n').find((line) => line.startsWith(id)) as string;
    expect(row).toContain('20.20 USD');
    expect(row).not.toContain('iso4217');
    const view = await cli(['payments', 'get', id], service.env);
    expect(view.stdout).toMatch(/^expiresAt +2030-01-02T03:04:05Z$/m);
    const json = JSON.parse((await cli(['payments', 'get', id, '--json'], service.env)).stdout);
    expect(json.expiresAt).toBe(Date.parse(expires) / 1000);
    const listed = JSON.parse(
      (await cli(['payments', 'list', '--reference', 'display-1', '--json'], service.env)).stdout,
    );
    expect(listed.data[0].fiatAmount).toMatchObject({ unit: 'iso4217/USD', value: '2020' });
  });
});

describe('relay --secret', () => {
  it('refuses a secret on the command line, as a process, without printing it', async () => {
    const secret = newSecret();
    const child = spawnCli(['relay', '--forward-to', 'http://127.0.0.1:9/', '--secret', secret], {
      ...service.env,
    });
    // A relay that took the secret would run on: stop it rather than leave it behind.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    expect(await child.exited).toBe(2);
    clearTimeout(timer);
    expect(child.stderr()).toContain('--secret takes a file holding the signing secret');
    expect(child.stderr()).not.toContain(secret.slice(6, 20));
    expect(child.stdout()).not.toContain(secret.slice(6, 20));
  }, 90_000);

  it('reads the secret from stdin (-) and signs with it; a file and the environment work too', async () => {
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const payment = await service.gateway.payments.create({
      amount: { unit: 'iso4217/USD', value: '100' },
      referenceId: 'secret-stdin',
    });
    const relay = runInProcess(
      ['relay', '--forward-to', receiver.url, '--secret', '-', '--sweep-interval', '200'],
      service.env,
      { stdin: `${secret}\n` },
    );
    // Its first listing done: a status changed before it is that payment's start, with no event.
    await until(() => relay.stderr.includes('following '), {
      timeoutMs: 30_000,
      what: () => `relay start: ${relay.stderr}`,
    });
    service.mock.setPaymentStatus(payment.paymentId, 'processing');
    await until(
      () => receiver?.deliveries.some((d) => d.paymentId === payment.paymentId) ?? false,
      {
        // About 3 s from the change to the delivery (the follower's reads); 10 times that, and more.
        timeoutMs: 45_000,
        what: () => `a verified delivery; stderr: ${relay.stderr}`,
      },
    );
    relay.stop();
    expect(await relay.done).toBe(0);
    expect(receiver.rejected).toBe(0);

    // Empty stdin, an unreadable file: usage errors naming the flag.
    const empty = await cli(['relay', '--forward-to', receiver.url, '--secret', '-'], service.env);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--secret: the signing secret read is empty');
    const bad = await cli(
      ['relay', '--forward-to', receiver.url, '--secret', secretFile('not-a-secret')],
      service.env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--secret must/);
  }, 90_000); // about 4 s idle
});
