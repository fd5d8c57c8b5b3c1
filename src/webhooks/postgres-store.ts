// The guard's PostgreSQL store at work: its SQL and transactions, loaded by `postgresStore()` on
// first use (postgres.ts holds what is typed and checked at once).
import { ConfigurationError } from '../core/errors/base';
import type { WebhookGuardKey, WebhookGuardSession, WebhookGuardState } from './guard';
import {
  guardTableSql,
  type PgPoolClientLike,
  type PgPoolLike,
  type PgQueryable,
  type PostgresGuardContext,
  type PostgresGuardStore,
  quoted,
} from './postgres-shapes';

/** Event ids are kept this long (the service retries for about 28 hours). */
const EVENT_DAYS = 3;
/** Payments' versions are kept this long after their last event (a replay reaches 14 days back). */
const PAYMENT_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The PostgreSQL store behind `postgresStore()`, loaded on its first transaction. */
export class PostgresStore<Client extends PgQueryable> implements PostgresGuardStore<Client> {
  readonly #pool: PgPoolLike<Client & PgPoolClientLike> | undefined;
  readonly #client: Client | undefined;
  readonly #table: string;
  readonly #sql: ReturnType<typeof statements>;
  #ready: Promise<void> | undefined;
  /** A single client runs one transaction at a time: the next waits for this one. */
  #queue: Promise<unknown> = Promise.resolve();
  #prunedAt = 0;

  constructor(
    pool: PgPoolLike<Client & PgPoolClientLike> | undefined,
    client: Client | undefined,
    table: string,
  ) {
    this.#pool = pool;
    this.#client = client;
    this.#table = table;
    this.#sql = statements(quoted(table));
  }

  transaction<T>(
    key: WebhookGuardKey,
    work: (session: WebhookGuardSession<PostgresGuardContext<Client>>) => Promise<T>,
  ): Promise<T> {
    if (this.#client !== undefined) {
      const client = this.#client;
      const run = this.#queue.then(() => this.#run(client, key, work));
      this.#queue = run.catch(() => {});
      return run;
    }
    return this.#pooled(key, work);
  }

  async #pooled<T>(
    key: WebhookGuardKey,
    work: (session: WebhookGuardSession<PostgresGuardContext<Client>>) => Promise<T>,
  ): Promise<T> {
    const client = await (this.#pool as PgPoolLike<Client & PgPoolClientLike>).connect();
    let broken: Error | undefined;
    // The server ending the session while no query runs (idle_in_transaction_session_timeout
    // during a hung handler, a restart) comes as an 'error' event, which unheard ends the process.
    // Heard, it fails the transaction's next query instead.
    const lost = (error: Error): void => {
      broken = error;
    };
    client.on?.('error', lost);
    try {
      return await this.#run(client, key, work, lost);
    } finally {
      client.removeListener?.('error', lost);
      // A client whose rollback failed, or whose session ended, must not be handed out again.
      client.release(broken ?? false);
    }
  }

  async #run<T>(
    client: Client,
    key: WebhookGuardKey,
    work: (session: WebhookGuardSession<PostgresGuardContext<Client>>) => Promise<T>,
    onBroken?: (error: Error) => void,
  ): Promise<T> {
    await this.#prepare(client);
    const sql = this.#sql;
    // Read committed whatever the database's default: a duplicate waiting on a claim then sees the
    // claim committed (and answers duplicate) instead of failing to serialize.
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    try {
      const result = await work({
        context: { client },
        read: async (): Promise<WebhookGuardState> => {
          // The claim: blocks while another transaction holds an uncommitted claim of this id.
          const claim = await client.query(sql.claim, [key.eventId]);
          if (claim.rowCount === 0) return { seen: true, version: undefined };
          if (key.paymentId === undefined) return { seen: false, version: undefined };
          await client.query(sql.payment, [key.paymentId]);
          const locked = await client.query(sql.lockPayment, [key.paymentId]);
          const raw = locked.rows[0]?.version;
          // Under the payment's lock: its finals rows change only in its transactions.
          const marked = await client.query(sql.finals, [FINALS.map((f) => finalId(f, key))]);
          return {
            seen: false,
            version: raw === null || raw === undefined ? undefined : Number(raw),
            finals: marked.rows.map((row) => String(row.id).split(':', 1)[0] as string),
          };
        },
        write: async (version, finals) => {
          if (key.paymentId !== undefined && version !== undefined) {
            await client.query(sql.raise, [key.paymentId, version]);
            if (finals !== undefined && finals.length > 0) {
              await client.query(sql.mark, [finals.map((f) => finalId(f, key))]);
            }
          }
        },
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollback) {
        onBroken?.(rollback instanceof Error ? rollback : new Error(String(rollback)));
      }
      throw error;
    }
  }

  /** Creates the table once per store (the first transaction waits), and prunes once an hour. */
  async #prepare(client: Client): Promise<void> {
    this.#ready ??= this.#create(client).catch((error: unknown) => {
      this.#ready = undefined;
      throw new ConfigurationError(
        `webhooks.postgresStore: could not create the table ${this.#table}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    });
    await this.#ready;
    const now = Date.now();
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      await client.query(this.#sql.prune, [EVENT_DAYS, PAYMENT_DAYS]);
    }
  }

  async #create(client: Client): Promise<void> {
    // Two processes creating the table at once can collide in the catalogue even with IF NOT
    // EXISTS: a transaction-scoped advisory lock makes them take turns.
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `merchant-gateway:${this.#table}`,
      ]);
      await client.query(guardTableSql(this.#table));
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }
}

/** What a payment's `final` rows may name: its final statuses and its settlement. */
const FINALS = ['succeeded', 'failed', 'expired', 'cancelled', 'settled'];
/** A `final` row's id: the final, then the payment (a final has no `:`, so the split is sure). */
const finalId = (final: string, key: WebhookGuardKey): string => `${final}:${key.paymentId}`;

function statements(table: string) {
  return {
    claim: `INSERT INTO ${table} (kind, id) VALUES ('event', $1) ON CONFLICT DO NOTHING`,
    payment: `INSERT INTO ${table} (kind, id) VALUES ('payment', $1) ON CONFLICT DO NOTHING`,
    lockPayment: `SELECT version FROM ${table} WHERE kind = 'payment' AND id = $1 FOR UPDATE`,
    finals: `SELECT id FROM ${table} WHERE kind = 'final' AND id = ANY($1::text[])`,
    mark: `INSERT INTO ${table} (kind, id) SELECT 'final', unnest($1::text[]) ON CONFLICT DO NOTHING`,
    raise: `UPDATE ${table} SET version = GREATEST(COALESCE(version, -1), $2::bigint), updated_at = now() WHERE kind = 'payment' AND id = $1`,
    prune: `DELETE FROM ${table} WHERE (kind = 'event' AND updated_at < now() - make_interval(days => $1::int)) OR (kind IN ('payment', 'final') AND updated_at < now() - make_interval(days => $2::int))`,
  };
}
