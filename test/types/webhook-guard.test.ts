import {
  type GuardableEvent,
  type IngestibleEvent,
  type PaymentFollower,
  type WebhookEvent,
  type WebhookGuard,
  type WebhookGuardOutcome,
  Webhooks,
} from 'merchant-gateway';
import { createWebhookGuard, postgresStore } from 'merchant-gateway/webhooks';
import type pg from 'pg';
import type { PoolClient } from 'pg';
import { describe, expectTypeOf, it } from 'vitest';

// Types only: each `@ts-expect-error` fails the typecheck if the line below it compiles.
const value = <T>(): T => ({}) as T;
const event = {
  id: 'evt_1',
  type: 'payment.succeeded',
  data: { payment_id: 'pay_1', payment_state_version: 2, status: 'succeeded' },
};

describe('webhooks guard types', () => {
  it('takes what unwrap returns, and so does follower.ingest', () => {
    expectTypeOf<WebhookEvent>().toExtend<GuardableEvent>();
    expectTypeOf<WebhookEvent>().toExtend<IngestibleEvent>();
    expectTypeOf(value<PaymentFollower>().ingest).toBeCallableWith(value<WebhookEvent>());
    const webhooks = new Webhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    expectTypeOf(webhooks.guard()).toEqualTypeOf<WebhookGuard<undefined>>();
    // The handler gets the union back, so a switch on its type narrows the snapshot (never run).
    const narrowed = () =>
      value<WebhookGuard>().handle(value<WebhookEvent>(), (e) => {
        if (e.type === 'payment.succeeded') {
          expectTypeOf(e.data.success.tx_id).toEqualTypeOf<string | null>();
        }
      });
    expectTypeOf(narrowed).toBeFunction();
  });

  it('handle answers one of three outcomes and hands fn the event as given', () => {
    const guard = createWebhookGuard();
    expectTypeOf(guard).toEqualTypeOf<WebhookGuard<undefined>>();
    expectTypeOf(guard.handle(event, () => {})).toEqualTypeOf<Promise<WebhookGuardOutcome>>();
    expectTypeOf<WebhookGuardOutcome>().toEqualTypeOf<'handled' | 'duplicate' | 'stale'>();
    void guard.handle(event, (e) => {
      expectTypeOf(e).toEqualTypeOf<typeof event>();
    });
    // @ts-expect-error an event has an id
    const noId = () => guard.handle({ type: 'payment.created' }, () => {});
    expectTypeOf(noId).toBeFunction();
  });

  it("postgresStore types the handler's client as the pool's, or the client given", () => {
    // Never called: only its types are checked (the store refuses a pool that is not one).
    const typed = () => {
      const pool = value<pg.Pool>();
      const guard = createWebhookGuard({ store: postgresStore({ pool }) });
      void guard.handle(event, (_e, { client }) => {
        expectTypeOf(client).toEqualTypeOf<PoolClient>();
      });
      const single = createWebhookGuard({ store: postgresStore({ client: value<pg.Client>() }) });
      void single.handle(event, (_e, { client }) => {
        expectTypeOf(client).toEqualTypeOf<pg.Client>();
      });
    };
    expectTypeOf(typed).toBeFunction();
    const pool = value<pg.Pool>();
    // @ts-expect-error a pool or a client, not both
    const both = () => postgresStore({ pool, client: value<pg.Client>() });
    expectTypeOf(both).toBeFunction();
  });
});
