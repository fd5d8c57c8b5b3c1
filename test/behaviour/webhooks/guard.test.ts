// The exactly-once guard over its default (memory) store: the service delivers at least once, in
// no particular order; the guard runs each event's handler once, never for a stale snapshot.
import {
  MerchantGateway,
  RequestValidationError,
  type WebhookEvent,
  Webhooks,
} from 'merchant-gateway';
import { createWebhookGuard, memoryStore } from 'merchant-gateway/webhooks';
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { handledOnce, lifecycle, paymentEvent } from '../../support/payment-events';
import {
  paymentCreated,
  paymentProcessing,
  paymentSettled,
  paymentSucceeded,
  webhookBody,
} from '../../support/webhook-fixtures';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const webhooks = new Webhooks({ secret: SECRET });

/** A promise and the functions that settle it, for handlers a test holds open. */
function gate(): { promise: Promise<void>; open: () => void; fail: (e: Error) => void } {
  let open = (): void => {};
  let fail = (_: Error): void => {};
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** A handler whose first run opens `started`, then waits until `held` opens or fails. */
function heldHandler() {
  const held = gate();
  const started = gate();
  let runs = 0;
  return {
    held,
    started,
    /** How often the handler has run. */
    runs: () => runs,
    handler: async () => {
      runs++;
      started.open();
      if (runs === 1) await held.promise;
    },
  };
}

/** Resolves after `n` turns of the event loop: time for any delivery that could run to run. */
async function turns(n = 10): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('webhooks.guard (memory store)', () => {
  test("signed deliveries of the documented events, redelivered and out of order, through a client's unwrap and guard: fulfilled once, on the settled snapshot", async () => {
    const gateway = new MerchantGateway({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'wcp_test_guard',
      webhookSecret: SECRET,
    });
    const guard = gateway.webhooks.guard();
    // The service's own signer, as another library implements it.
    const signer = new Webhook(SECRET);
    const deliver = async (event: object) => {
      const body = webhookBody(event);
      const id = `msg_${(event as { id: string }).id}`;
      const now = new Date();
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signer.sign(id, now, body),
      };
      return gateway.webhooks.unwrap(body, headers);
    };
    const fulfilled: string[] = [];
    const outcomes: string[] = [];
    const receive = async (event: WebhookEvent) => {
      outcomes.push(
        await guard.handle(event, async (e) => {
          switch (e.type) {
            case 'payment.succeeded':
            case 'payment.settled':
              // Act on the snapshot's status, whatever the type (a settled event is succeeded too).
              if (e.data.status === 'succeeded')
                fulfilled.push(`${e.type} ${e.data.success?.tx_id}`);
              break;
            default:
              break;
          }
        }),
      );
    };
    for (const event of [paymentCreated, paymentProcessing, paymentCreated, paymentSettled]) {
      await receive(await deliver(event));
    }
    await Promise.all([
      receive(await deliver(paymentSucceeded)),
      receive(await deliver(paymentSettled)),
    ]);
    expect(outcomes).toEqual(['handled', 'handled', 'duplicate', 'handled', 'stale', 'duplicate']);
    expect(fulfilled).toEqual([`payment.settled ${paymentSettled.data.success?.tx_id}`]);
  });

  test('a redelivered event id runs its handler once and answers duplicate', async () => {
    const guard = webhooks.guard();
    const event = paymentEvent('pay_dup', 'payment.created', 0);
    const runs: string[] = [];
    const handler = async (e: typeof event) => {
      runs.push(e.id);
    };
    expect(await guard.handle(event, handler)).toBe('handled');
    expect(await guard.handle(structuredClone(event), handler)).toBe('duplicate');
    expect(await guard.handle(structuredClone(event), handler)).toBe('duplicate');
    expect(runs).toEqual([event.id]);
  });

  test("a never-seen payment's version-0 event runs, and versions at most the highest handled are stale", async () => {
    const guard = webhooks.guard();
    const [created, processing, succeeded] = lifecycle('pay_ver', [
      'payment.created',
      'payment.processing',
      'payment.succeeded',
    ]);
    const ran: number[] = [];
    const handler = async (e: NonNullable<typeof created>) => {
      ran.push(e.data.payment_state_version);
    };
    expect(await guard.handle(created as NonNullable<typeof created>, handler)).toBe('handled');
    expect(await guard.handle(succeeded as NonNullable<typeof created>, handler)).toBe('handled');
    // Version 1 arrives after version 2: its snapshot is older than what was acted on.
    expect(await guard.handle(processing as NonNullable<typeof created>, handler)).toBe('stale');
    // Another event id at a version already handled (a resend under a new id) is stale too.
    const again = paymentEvent('pay_ver', 'payment.succeeded', 2, { id: 'evt_other' });
    expect(await guard.handle(again, handler)).toBe('stale');
    expect(ran).toEqual([0, 2]);
  });

  test('a throwing handler leaves the event unhandled: the error reaches the caller and the redelivery runs it', async () => {
    const guard = createWebhookGuard();
    const event = paymentEvent('pay_throw', 'payment.created', 0);
    let attempts = 0;
    const handler = async () => {
      attempts++;
      if (attempts === 1) throw new Error('database down');
    };
    await expect(guard.handle(event, handler)).rejects.toThrow('database down');
    expect(await guard.handle(event, handler)).toBe('handled');
    expect(await guard.handle(event, handler)).toBe('duplicate');
    expect(attempts).toBe(2);
  });

  test('concurrent deliveries of one id run the handler once; the others wait and answer duplicate', async () => {
    const guard = webhooks.guard();
    const event = paymentEvent('pay_conc', 'payment.processing', 1);
    const { held, started, runs, handler } = heldHandler();
    const deliveries = Array.from({ length: 5 }, () =>
      guard.handle(structuredClone(event), handler),
    );
    // Every delivery has reached the guard while the first handler runs.
    await started.promise;
    await turns();
    expect(runs()).toBe(1);
    held.open();
    const outcomes = await Promise.all(deliveries);
    expect(outcomes.sort()).toEqual(handledOnce(5));
    expect(runs()).toBe(1);
  });

  test('when the running handler throws, a concurrent duplicate that waited runs it instead', async () => {
    const guard = createWebhookGuard();
    const event = paymentEvent('pay_conc_throw', 'payment.created', 0);
    const { held, started, runs, handler } = heldHandler();
    const first = guard.handle(event, handler);
    const second = guard.handle(structuredClone(event), handler);
    await started.promise;
    await turns();
    expect(runs()).toBe(1);
    held.fail(new Error('lost the connection'));
    await expect(first).rejects.toThrow('lost the connection');
    expect(await second).toBe('handled');
    expect(runs()).toBe(2);
  });

  test('settled before succeeded: fulfil on the first snapshot whose status is succeeded, the late succeeded event is stale', async () => {
    const guard = createWebhookGuard();
    const [created, processing, succeeded, settled] = lifecycle('pay_settled_first', [
      'payment.created',
      'payment.processing',
      'payment.succeeded',
      'payment.settled',
    ]).map((e) => e);
    const fulfilled: string[] = [];
    // The docs' guidance: act on data.status, not on type.
    const handler = async (e: NonNullable<typeof settled>) => {
      if (e.data.status === 'succeeded')
        fulfilled.push(`${e.type} v${e.data.payment_state_version}`);
    };
    const order = [created, processing, settled, succeeded] as NonNullable<typeof settled>[];
    const outcomes = [];
    for (const event of order) outcomes.push(await guard.handle(event, handler));
    expect(outcomes).toEqual(['handled', 'handled', 'handled', 'stale']);
    expect(fulfilled).toEqual(['payment.settled v3']);
  });

  test('events without a payment (an unknown type) are deduplicated by id only', async () => {
    const guard = createWebhookGuard();
    const payout = { id: 'evt_payout_1', type: 'payout.paid', data: { payout_id: 'po_1' } };
    let runs = 0;
    const handler = async () => {
      runs++;
    };
    expect(await guard.handle(payout, handler)).toBe('handled');
    expect(await guard.handle({ ...payout }, handler)).toBe('duplicate');
    expect(await guard.handle({ ...payout, id: 'evt_payout_2' }, handler)).toBe('handled');
    expect(runs).toBe(2);
  });

  test("one payment's events wait for each other: a newer event arriving mid-handler runs after it", async () => {
    const guard = createWebhookGuard();
    const [created, processing] = lifecycle('pay_serial', [
      'payment.created',
      'payment.processing',
    ]);
    const held = gate();
    const started = gate();
    const log: string[] = [];
    const handler = async (e: NonNullable<typeof created>) => {
      started.open();
      log.push(`start ${e.data.payment_state_version}`);
      if (e.data.payment_state_version === 0) await held.promise;
      log.push(`end ${e.data.payment_state_version}`);
    };
    const first = guard.handle(created as NonNullable<typeof created>, handler);
    const second = guard.handle(processing as NonNullable<typeof created>, handler);
    await started.promise;
    await turns();
    expect(log).toEqual(['start 0']);
    held.open();
    expect(await Promise.all([first, second])).toEqual(['handled', 'handled']);
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1']);
  });

  test('ids are forgotten after ttlMs, oldest first past maxEntries; payment versions still catch a late replay', async () => {
    const guard = createWebhookGuard({ store: memoryStore({ maxEntries: 2 }) });
    const noop = async () => {};
    const events = ['a', 'b', 'c'].map((p) => paymentEvent(`pay_${p}`, 'payment.created', 0));
    for (const event of events) expect(await guard.handle(event, noop)).toBe('handled');
    // pay_a's id and version were the oldest: both forgotten, so its replay runs again.
    expect(await guard.handle(events[0] as (typeof events)[0], noop)).toBe('handled');
    // pay_c's are kept.
    expect(await guard.handle(events[2] as (typeof events)[0], noop)).toBe('duplicate');

    const short = createWebhookGuard({ store: memoryStore({ ttlMs: 1 }) });
    const event = paymentEvent('pay_ttl', 'payment.created', 0);
    expect(await short.handle(event, noop)).toBe('handled');
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The id is forgotten, but the payment's version is not: the replay is stale, not run again.
    expect(await short.handle(event, noop)).toBe('stale');
  });

  test('an event without an id, a handler that is not a function or a bad store option is refused', async () => {
    const guard = createWebhookGuard();
    await expect(guard.handle({ id: '' } as { id: string }, async () => {})).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(
      guard.handle({ id: 'evt_1' }, 'no' as unknown as () => void),
    ).rejects.toBeInstanceOf(RequestValidationError);
    expect(() => createWebhookGuard({ store: {} as never })).toThrow(RequestValidationError);
    expect(() => memoryStore({ maxEntries: 0 })).toThrow(RequestValidationError);
    expect(() => memoryStore({ ttlMs: -1 })).toThrow(RequestValidationError);
  });
});
