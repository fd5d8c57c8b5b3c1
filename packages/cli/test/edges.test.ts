// The command's less travelled paths, each as a user meets it: filters and pages, people's output,
// the connection flags' mistakes, a service that is not there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  type MockService,
  relayArgs,
  runInProcess,
  secretFile,
  sleep,
  startMockService,
} from './helpers';

let service: MockService;
beforeAll(async () => {
  service = await startMockService();
});
afterAll(async () => {
  await service.close();
});

describe('merchant-gateway, the less travelled paths', () => {
  it('passes every filter of the lists and shows where the next page starts', async () => {
    const check = (run: { code: number; stderr: string }) => expect(run.stderr).toBe('');
    const first = await cli(
      ['merchants', 'list', '--status', 'active', '--limit', '1'],
      service.env,
    );
    expect(first.code).toBe(0);
    const cursor = /next page: --cursor (\S+)/.exec(first.stdout)?.[1];
    expect(cursor).toBeDefined();
    const second = await cli(
      [
        'merchants',
        'list',
        '--status',
        'active',
        '--limit',
        '1',
        '--cursor',
        cursor as string,
        '--json',
      ],
      service.env,
    );
    check(second);
    const payments = await cli(
      [
        'payments',
        'list',
        '--merchant-id',
        service.merchantId,
        '--status',
        'succeeded,failed',
        '--limit',
        '2',
      ],
      service.env,
    );
    expect(payments.stdout).toMatch(/next page: --cursor \S+/);
    const payCursor = /next page: --cursor (\S+)/.exec(payments.stdout)?.[1] as string;
    const next = await cli(
      [
        'payments',
        'list',
        '--merchant-id',
        service.merchantId,
        '--status',
        'succeeded,failed',
        '--limit',
        '2',
        '--cursor',
        payCursor,
        '--json',
      ],
      service.env,
    );
    check(next);
    expect(JSON.parse(next.stdout).data).toHaveLength(2);
    const byReference = await cli(
      ['payments', 'list', '--reference', 'order', '--json'],
      service.env,
    );
    check(byReference);
    const none = await cli(['payments', 'list', '--reference', 'no-such-order'], service.env);
    expect(none.stdout).toContain('(none)');
  });

  it('creates with the optional flags and prints one object as key and value lines', async () => {
    const merchant = await cli(
      [
        'merchants',
        'create',
        '--name',
        'Icons',
        '--email',
        'icons@example.com',
        '--icon-url',
        'https://example.com/i.png',
      ],
      service.env,
    );
    expect(merchant.code).toBe(0);
    expect(merchant.stdout).toMatch(/^name +Icons$/m);
    const payment = await cli(
      [
        'payments',
        'create',
        '--amount',
        '3',
        '--currency',
        'EUR',
        '--reference',
        'order-exp',
        '--expires-at',
        new Date(Date.now() + 3_600_000).toISOString(),
      ],
      service.env,
    );
    expect(payment.code).toBe(0);
    expect(payment.stdout).toMatch(/^paymentId +pay_\w+$/m);
    const id = /^paymentId +(\S+)$/m.exec(payment.stdout)?.[1] as string;
    const view = await cli(['payments', 'get', id], service.env);
    // The buyer-side amount is in the token: its decimals and symbol, not raw units.
    expect(view.stdout).toMatch(/^amount +\d+\.\d+ [A-Z]+$/m);
    const settlements = await cli(['settlements', 'list'], service.env);
    expect(settlements.code).toBe(0);
    const { MERCHANT_GATEWAY_MERCHANT_ID: _, ...noMerchant } = service.env;
    const which = await cli(['settlements', 'list'], noMerchant);
    expect(which.code).toBe(2);
    expect(which.stderr).toContain('which merchant?');
    expect((await cli(['merchants'], service.env)).stdout).toContain(
      'merchant-gateway merchants create',
    );
  });

  it('says what is wrong with the connection flags, and names a service that cannot be reached', async () => {
    const { MERCHANT_GATEWAY_BASE_URL: _, ...noUrl } = service.env;
    const missing = await cli(['merchants', 'list'], noUrl);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('MERCHANT_GATEWAY_BASE_URL');
    const plain = await cli(['merchants', 'list', '--base-url', 'http://example.com'], service.env);
    expect(plain.code).toBe(2);
    const empty = await cli(['merchants', 'list', '--api-key', '-'], service.env, { stdin: '\n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the key read is empty');
    const down = await cli(['payments', 'status', 'pay_abc', '--base-url', 'http://127.0.0.1:9'], {
      ...service.env,
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('class: ConnectionError');
  });

  it('follows every open payment on a terminal and as JSON lines', async () => {
    const payment = await service.gateway.payments.create({
      amount: { unit: 'iso4217/USD', value: '700' },
      referenceId: 'order-live',
    });
    const live = runInProcess(
      ['payments', 'follow', '--all', '--sweep-interval', '200'],
      service.env,
      {
        stdoutIsTTY: true,
      },
    );
    const lines = runInProcess(
      ['payments', 'follow', '--all', '--json', '--sweep-interval', '200'],
      service.env,
    );
    await sleep(800);
    service.mock.setPaymentStatus(payment.paymentId, 'expired');
    const deadline = Date.now() + 10_000;
    while (!(live.stdout.includes(payment.paymentId) && lines.stdout.includes(payment.paymentId))) {
      if (Date.now() > deadline) throw new Error(`${live.stdout}\n${lines.stdout}`);
      await sleep(50);
    }
    live.stop();
    lines.stop();
    expect(await live.done).toBe(0);
    expect(await lines.done).toBe(0);
    expect(live.stdout).toMatch(/following \d+ payments · 1 change · last: pay_\w+ expired\n$/);
    expect(JSON.parse(lines.stdout.trim())).toMatchObject({
      paymentId: payment.paymentId,
      status: 'expired',
    });

    const given = runInProcess(['payments', 'follow', payment.paymentId], service.env);
    await sleep(100);
    given.stop();
    expect(await given.done).toBe(0);
  }, 40_000);

  it('relay: a key the service refuses ends it with exit 1 and the error class; a failing list is retried at the next sweep', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const refused = await cli(
      ['relay', '--forward-to', 'http://127.0.0.1:9/hook', '--secret', secretFile(secret)],
      {
        ...service.env,
        MERCHANT_GATEWAY_API_KEY: 'sk_not_the_key',
      },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('class: AuthenticationError');
    expect(refused.stderr).not.toContain('sk_not_the_key');

    const { startReceiver } = await import('./helpers');
    const receiver = await startReceiver(secret);
    const relay = runInProcess(relayArgs(receiver.url, secret), service.env);
    const deadline = Date.now() + 15_000;
    const wait = async (predicate: () => boolean) => {
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(relay.stderr);
        await sleep(25);
      }
    };
    await wait(() => relay.stderr.includes('following'));
    service.mock.failNext({
      status: 503,
      times: 30,
      match: { method: 'GET', path: /^\/v1\/payments$/ },
    });
    await wait(() => relay.stderr.includes('looking for new payments'));
    const payment = await service.gateway.payments.create({
      amount: { unit: 'iso4217/USD', value: '900' },
      referenceId: 'order-after-outage',
    });
    await sleep(600);
    service.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    await receiver.until((d) => d.some((x) => x.paymentId === payment.paymentId), 15_000);
    relay.stop();
    expect(await relay.done).toBe(0);
    await receiver.close();
  }, 200_000);
});
