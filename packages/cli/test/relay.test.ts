// `merchant-gateway relay` over real sockets: the mock as the service, a receiver verifying every
// delivery with the `standardwebhooks` library.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cli,
  type MockService,
  newSecret,
  type Receiver,
  relayArgs,
  runInProcess,
  secretFile,
  sleep,
  startMockService,
  startReceiver,
  until,
} from './helpers';

const waitFor = (predicate: () => boolean, timeoutMs = 10_000, show?: () => string) =>
  until(predicate, { timeoutMs, ...(show ? { what: show } : {}) });

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

// No payout during these tests (payment.settled has its own test): the events asserted are the
// status changes alone.
const NO_PAYOUT = { settleAfterMs: 2_147_483_647 };

describe('merchant-gateway relay', () => {
  it('delivers one verified event per status change, none for the status a payment was first seen in', async () => {
    service = await startMockService(NO_PAYOUT);
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const before = await create(service, 'order-before');
    const finalBefore = await create(service, 'order-final');
    service.mock.setPaymentStatus(finalBefore.paymentId, 'succeeded');
    const state = join(mkdtempSync(join(tmpdir(), 'relay-')), 'state.json');
    const relay = runInProcess(relayArgs(receiver.url, secret, { state }), service.env);
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
  }, 60_000);

  it('retries through a receiver answering 500 and then down for 20 s: every event arrives afterwards, in order, with its first id', async () => {
    service = await startMockService(NO_PAYOUT);
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const payments = [await create(service, 'order-a'), await create(service, 'order-b')];
    const relay = runInProcess(
      relayArgs(receiver.url, secret),
      // Waits of 0.5 to 8 s between attempts (the hidden test knob): over 20 s before giving up.
      // A bound of one event: the rest spill to a temporary directory (no --state), gone at the end.
      {
        ...service.env,
        MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS: '500,1000,2000,4000,8000,8000,8000',
        MERCHANT_GATEWAY_RELAY_MAX_BACKLOG: '1',
      },
    );
    const refused: string[] = [];
    receiver.answer = (_n, delivery) => {
      refused.push(delivery.id);
      return 500;
    };
    await sleep(800);
    for (const p of payments) service.mock.setPaymentStatus(p.paymentId, 'processing');
    await waitFor(() => refused.length >= 2);
    await receiver.down();
    const downAt = Date.now();
    for (const p of payments) service.mock.setPaymentStatus(p.paymentId, 'succeeded');
    await sleep(20_000);
    receiver.answer = () => 204;
    await receiver.open();
    await receiver.until((d) => d.length === 4, 20_000);
    relay.stop();
    expect(await relay.done).toBe(0);
    expect(Date.now() - downAt).toBeGreaterThan(20_000);
    expect(receiver.rejected).toBe(0);
    for (const p of payments) {
      const mine = receiver.deliveries.filter((d) => d.paymentId === p.paymentId);
      expect(mine.map((d) => d.type)).toEqual(['payment.processing', 'payment.succeeded']);
    }
    // The ids refused at first are the ids delivered in the end.
    expect(receiver.deliveries.map((d) => d.id)).toEqual(
      expect.arrayContaining([...new Set(refused)]),
    );
    expect(relay.stderr).toMatch(/HTTP 500; attempt 2 in \d+ ms/);
    const spill = /spill to (.+)\/events\.spill-\*\.jsonl/.exec(relay.stderr)?.[1];
    expect(spill).toBeDefined();
    expect(existsSync(spill as string)).toBe(false);
    expect(relay.stderr).not.toContain(service.apiKey);
  }, 300_000);

  it('keeps an event that used up its attempts for the next start, spills past its backlog bound without skipping a status, and stops at 410 Gone', async () => {
    service = await startMockService(NO_PAYOUT);
    const secret = newSecret();
    receiver = await startReceiver(secret);
    receiver.answer = () => 503;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await create(service, `order-${i}`)).paymentId);
    const dir = mkdtempSync(join(tmpdir(), 'relay-park-'));
    const state = join(dir, 'state.json');
    const args = relayArgs(receiver.url, secret, { state });
    const env = {
      ...service.env,
      MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS: '20,20',
      MERCHANT_GATEWAY_RELAY_MAX_BACKLOG: '2',
    };
    const saved = () => JSON.parse(readFileSync(state, 'utf8'));
    const statusesSaved = () =>
      ids.map(
        (id) =>
          saved().checkpoint.payments.find((p: { paymentId: string }) => p.paymentId === id)
            ?.status,
      );
    const first = runInProcess(args, env);
    await waitFor(
      () => /following \d+ open payments/.test(first.stderr),
      10_000,
      () => first.stderr,
    );
    // Two events fill the bound and the receiver refuses them: the relay still reads every change.
    for (const id of ids) service.mock.setPaymentStatus(id, 'processing');
    await waitFor(
      () => statusesSaved().every((s) => s === 'processing'),
      10_000,
      () => first.stderr,
    );
    for (const id of ids) service.mock.setPaymentStatus(id, 'succeeded');
    await waitFor(
      () => (first.stderr.match(/after 3 attempts; kept for the next start/g) ?? []).length === 2,
    );
    await waitFor(() => statusesSaved().every((s) => s === undefined || s === 'succeeded'));
    expect(first.stderr).toMatch(
      /2 events wait for delivery: the next ones spill to .*state\.json\.spill-/,
    );
    first.stop();
    expect(await first.done).toBe(0);
    // Two events in the state (the bound), the six others in spill segments beside it, in order.
    expect(saved().events).toHaveLength(2);
    const segments = readdirSync(dir)
      .filter((name) => name.startsWith('state.json.spill-'))
      .sort();
    const spilled = segments.flatMap((name) =>
      readFileSync(join(dir, name), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).data.status),
    );
    expect(spilled).toHaveLength(6);
    expect(spilled.slice(-4)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(receiver.deliveries).toEqual([]);

    receiver.answer = () => 200;
    const second = runInProcess(args, env);
    await receiver.until((d) => d.length === 8);
    for (const id of ids) {
      const mine = receiver.deliveries.filter((d) => d.paymentId === id);
      expect(mine.map((d) => d.type)).toEqual(['payment.processing', 'payment.succeeded']);
    }
    await waitFor(() => second.stderr.includes('the spill is read back'));
    const later = await create(service, 'order-gone');
    await sleep(600);
    receiver.answer = () => 410;
    service.mock.setPaymentStatus(later.paymentId, 'cancelled');
    expect(await second.done).toBe(1);
    expect(second.stderr).toContain('answered 410 Gone');
    expect(saved().events).toEqual([
      expect.objectContaining({
        type: 'payment.cancelled',
        data: expect.objectContaining({ payment_id: later.paymentId, status: 'cancelled' }),
      }),
    ]);
    // Segments read back go once a saved state holds their events.
    expect(readdirSync(dir).filter((name) => name.includes('.spill-'))).toEqual([]);
  }, 40_000);

  it('refuses a command line it cannot run, with exit 2 and the rule', async () => {
    service = await startMockService(NO_PAYOUT);
    const secret = newSecret();
    const state = join(mkdtempSync(join(tmpdir(), 'relay-bad-')), 'state.json');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['relay', '--secret', secretFile(secret)], {}, /--forward-to URL is required/],
      [
        ['relay', '--forward-to', 'ftp://x', '--secret', secretFile(secret)],
        {},
        /http or https URL/,
      ],
      [
        ['relay', '--forward-to', 'https://me:pw@example.com/', '--secret', secretFile(secret)],
        {},
        /user or password/,
      ],
      [['relay', '--forward-to', 'http://127.0.0.1:9/'], {}, /no signing secret/],
      [
        [
          'relay',
          '--forward-to',
          'http://127.0.0.1:9/',
          '--secret',
          secretFile(secret),
          '--state',
          state,
          '--database-url',
          'postgres://x',
        ],
        {},
        /exclusive/,
      ],
      [
        ['relay', 'extra', '--forward-to', 'http://127.0.0.1:9/', '--secret', secretFile(secret)],
        {},
        /no arguments/,
      ],
      [
        ['relay', '--forward-to', 'http://127.0.0.1:9/', '--secret', secretFile(secret)],
        { MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS: 'soon' },
        /whole milliseconds/,
      ],
    ];
    for (const [argv, extra, message] of cases) {
      const run = await cli(argv, { ...service.env, ...extra });
      expect({ argv, code: run.code }).toEqual({ argv, code: 2 });
      expect(run.stderr).toMatch(message);
    }
    writeFileSync(state, '{"not":"a relay state"}');
    const corrupt = await cli(['relay', '--forward-to', 'http://127.0.0.1:9/', '--state', state], {
      ...service.env,
      MERCHANT_GATEWAY_WEBHOOK_SECRET: secret,
    });
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toContain('is not a merchant-gateway relay state file');
    expect(readFileSync(state, 'utf8')).toBe('{"not":"a relay state"}');
  });

  it('refuses a secret that is not whsec_ and base64 of 24 to 64 bytes, with exit 2 and nothing sent', async () => {
    service = await startMockService(NO_PAYOUT);
    for (const secret of ['hunter2', 'whsec_short', `whsec_${'A'.repeat(200)}`]) {
      const run = await cli(
        ['relay', '--forward-to', 'http://127.0.0.1:9/x', '--secret', secretFile(secret)],
        service.env,
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--secret must/);
      expect(run.stderr).not.toContain(secret);
    }
    expect(service.mock.requests).toEqual([]);
  }, 15_000);
});
