// What the web process and the workers share: the job queue (pg-boss) and the `orders` table,
// both in the one PostgreSQL, and the one write that records a payment's outcome.
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { DurableConfig } from './config';

/** What a follow job carries: enough to follow the payment and to find its order. */
export interface FollowJob {
  orderId: string;
  paymentId: string;
  merchantId: string;
  /** The order's trace (W3C `traceparent`): the worker's outcome joins it. */
  traceparent?: string | undefined;
}

/**
 * Starts pg-boss and makes sure the queue and the `orders` table exist. Every process may start
 * first: the set-up runs under an advisory lock, so concurrent starts wait for each other.
 */
export async function connect(
  config: DurableConfig,
  role: string,
): Promise<{ boss: PgBoss; pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4 });
  // An idle connection the server dropped (a restart, a failover): the next query opens another.
  pool.on('error', (error) => log(role, 'pool_error', { message: error.message }));
  const boss = new PgBoss({
    connectionString: config.databaseUrl,
    application_name: `durable-follower ${role}`,
    max: 4,
    // Every process supervises (pg-boss lets one of them do each pass): it is the pass that takes
    // back the jobs of a worker whose heartbeat stopped.
    superviseIntervalSeconds: config.superviseSeconds,
    monitorIntervalSeconds: config.superviseSeconds,
    schedule: false,
  });
  // pg-boss reports failures of its background passes here; one must not kill the process.
  boss.on('error', (error) => log(role, 'boss_error', { message: error.message }));
  const setup = await pool.connect();
  try {
    await setup.query('SELECT pg_advisory_lock(hashtext($1))', ['durable-follower setup']);
    await boss.start();
    const options = {
      // A worker refreshes its jobs; one that stops (SIGKILL, lost host) loses them after this.
      heartbeatSeconds: config.heartbeatSeconds,
      // A job is taken back at the latest after this, whatever its heartbeat: longer than a
      // payment can stay open (the follower gives up on one after 15 minutes).
      expireInSeconds: 20 * 60,
      // Each time a job is taken back counts as a retry: enough for many lost workers in a row.
      retryLimit: 20,
      retryDelay: 0,
    };
    // One live job per payment: a retried request finds the job queued or active and adds none.
    await boss.createQueue(config.queue, { policy: 'exclusive', ...options });
    // An existing queue keeps its options until told: this deploy's configuration wins.
    await boss.updateQueue(config.queue, options);
    await setup.query(`
      CREATE TABLE IF NOT EXISTS orders (
        id text PRIMARY KEY,
        payment_id text UNIQUE,
        status text,
        finished_at timestamptz,
        outcome_writes integer NOT NULL DEFAULT 0
      )`);
  } finally {
    await setup.query('SELECT pg_advisory_unlock(hashtext($1))', ['durable-follower setup']);
    setup.release();
  }
  return { boss, pool };
}

/**
 * Records a payment's final status on its order, once: a second delivery of the same outcome (a
 * job taken back from a worker that wrote but died before completing it, a request retried after
 * its job completed) matches no row and changes nothing. Resolves true when this call wrote it.
 */
export async function recordOutcome(
  pool: pg.Pool,
  orderId: string,
  status: string,
): Promise<boolean> {
  const result = await pool.query(
    `UPDATE orders SET status = $2, finished_at = now(), outcome_writes = outcome_writes + 1
      WHERE id = $1 AND status IS NULL`,
    [orderId, status],
  );
  return result.rowCount === 1;
}

/** One JSON line per event on stdout: what a log collector reads, and what the test reads. */
export function log(role: string, event: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ at: Date.now(), role, event, ...fields })}\n`);
}
