/**
 * `--database-url`: the relay's state and its deliveries in PostgreSQL, so that several relays
 * share the work. Every relay follows every open payment and sends each change as a pg-boss job
 * whose id is derived from the event's `webhook-id`: the second relay to see a change inserts
 * nothing, so each change is delivered once between them (at least once: a relay killed during a
 * POST has its job retried by another after the heartbeat). The queue's `key_strict_fifo` policy,
 * keyed by payment, keeps one payment's events in order across relays. pg-boss and pg, dependencies
 * of this package, are loaded only here: the other commands start without them.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../io';
import type { EventSink } from './relay';
import { isRelayState, type RelayState, type StateStore } from './state';
import { attempt, type RelayEvent } from './webhook';

export interface PgOptions {
  databaseUrl: string;
  url: string;
  /** The `whsec_…` secret the SDK's signer signs with. */
  secret: string;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  concurrency: number;
  warn(message: string): void;
  onDelivered(event: RelayEvent): void;
  onGone(event: RelayEvent): void;
}

/** Jobs read at once when looking for the events that used up their attempts. */
const FIND_PAGE = 1_000;

/** A UUID (version-8 layout) from an event id: the same change, the same job. */
function jobIdOf(eventId: string): string {
  const hex = createHash('sha256').update(eventId).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function connectPg(options: PgOptions): Promise<{
  store: StateStore;
  sink: EventSink;
  close(): Promise<void>;
}> {
  let PgBoss: typeof import('pg-boss').PgBoss;
  let pg: typeof import('pg').default;
  try {
    ({ PgBoss } = await import('pg-boss'));
    pg = (await import('pg')).default;
  } catch {
    throw new UsageError(
      '--database-url needs pg-boss and pg (dependencies of merchant-gateway-cli): reinstall it',
    );
  }
  const { url, warn } = options;
  // One queue and one state per receiver: relays forwarding elsewhere share the database, not the work.
  const name = `merchant_gateway_relay_${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  pool.on('error', (error) => warn(`database: ${error.message}`));
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    application_name: 'merchant-gateway relay',
    max: 4,
    schedule: false,
    // The pass that takes back a killed relay's jobs: within heartbeat + this, another delivers them.
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
  });
  boss.on('error', (error) => warn(`pg-boss: ${error.message}`));
  const delays = options.retryDelaysMs;
  const queueOptions = {
    retryLimit: delays.length,
    retryDelay: Math.max(1, Math.round((delays[0] ?? 1000) / 1000)),
    retryBackoff: true,
    retryDelayMax: Math.max(1, Math.round(Math.max(...delays, 1000) / 1000)),
    // A relay killed during a POST stops beating: its job goes to another within this.
    heartbeatSeconds: 10,
    expireInSeconds: 60,
  };
  const setup = await pool.connect();
  try {
    await setup.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    await boss.start();
    if ((await boss.getQueue(name)) === null) {
      await boss.createQueue(name, { policy: 'key_strict_fifo', ...queueOptions });
    } else {
      await boss.updateQueue(name, queueOptions);
    }
    await setup.query(
      'CREATE TABLE IF NOT EXISTS merchant_gateway_relay_state (name text PRIMARY KEY, state jsonb NOT NULL, saved_at timestamptz NOT NULL)',
    );
    // Events that used up their attempts before: retried at this start, as the contract keeps them.
    // A page at a time: a queue with a long history does not come into the heap at once.
    for (let after: string | undefined; ; ) {
      const page = await boss.findJobs(name, {
        queued: false,
        limit: FIND_PAGE,
        ...(after === undefined ? {} : { after }),
      });
      const ids = page.filter((job) => job.state === 'failed').map((job) => job.id);
      if (ids.length > 0) await boss.retry(name, ids);
      after = page.at(-1)?.id;
      if (page.length < FIND_PAGE) break;
    }
  } finally {
    await setup.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => {});
    setup.release();
  }

  const store: StateStore = {
    where: 'PostgreSQL',
    async load() {
      const { rows } = await pool.query(
        'SELECT state FROM merchant_gateway_relay_state WHERE name = $1',
        [name],
      );
      const state: unknown = rows[0]?.state;
      return isRelayState(state) ? state : undefined;
    },
    async save(state: RelayState) {
      await pool.query(
        `INSERT INTO merchant_gateway_relay_state (name, state, saved_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET state = EXCLUDED.state, saved_at = now()`,
        [name, JSON.stringify(state)],
      );
    },
  };

  /**
   * Sends not yet committed: kept in the state so a kill between yield and insert loses nothing.
   * One at a time (the relay awaits each push), so the heap holds one event whatever the backlog:
   * the queue itself is in PostgreSQL.
   */
  const sending = new Map<string, RelayEvent>();
  let stopping = false;
  const sink: EventSink = {
    events: () => [...sending.values()],
    async push(event) {
      sending.set(event.id, event);
      // A database that is down holds the relay's reading back (the follower queues at most a few
      // changes per open payment) rather than letting unsent events pile up or overtake each other.
      for (let wait = 500; ; wait = Math.min(wait * 2, 10_000)) {
        try {
          await boss.send(name, event, {
            id: jobIdOf(event.id),
            singletonKey: event.data.payment_id,
          });
          sending.delete(event.id);
          return;
        } catch (error) {
          // Kept in `sending`: a state saved now holds it and the next start sends it again.
          warn(`queueing ${event.id}: ${(error as Error).message}; again in ${wait} ms`);
          if (stopping) return;
          await new Promise((resolve) => setTimeout(resolve, wait));
          if (stopping) return;
        }
      }
    },
    async start(saved) {
      for (const event of saved.events) await sink.push(event);
      await boss.work<RelayEvent>(
        name,
        { localConcurrency: options.concurrency, batchSize: 1, pollingIntervalSeconds: 0.5 },
        async ([job]) => {
          if (job === undefined || stopping) throw new Error('relay stopping');
          const outcome = await attempt(url, options.secret, job.data, options.timeoutMs);
          if (outcome.ok) {
            options.onDelivered(job.data);
            return;
          }
          if (outcome.gone) options.onGone(job.data);
          warn(
            `event ${job.data.id} (payment ${job.data.data.payment_id} ${job.data.type}): ${outcome.reason}`,
          );
          throw new Error(outcome.reason);
        },
      );
    },
    async drain() {
      stopping = true;
      await boss.offWork(name, { wait: true });
    },
  };
  return {
    store,
    sink,
    async close() {
      await boss.stop({ graceful: true, timeout: 5_000 });
      await pool.end();
    },
  };
}
