// The guard's PostgreSQL store. It never imports `pg`: the user hands it a Pool (or one Client),
// typed by what it calls, so `pg` stays an optional peer and nothing loads for anyone else.
import { ConfigurationError, RequestValidationError } from '../core/errors';
import type {
  WebhookGuardKey,
  WebhookGuardSession,
  WebhookGuardState,
  WebhookGuardStore,
} from './guard';

/** What the store calls on a `pg` client: `query(text, values)`. */
export interface PgQueryable {
  query(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}

/** A `pg` client taken from a pool: `pg.PoolClient`. */
export interface PgPoolClientLike extends PgQueryable {
  release(error?: Error | boolean): void;
}

/**
 * A `pg` pool: `pg.Pool`, or a pool shaped like it (`@neondatabase/serverless`'s, say). Both of
 * pg's `connect` forms are named so that TypeScript infers the client type from the pool; the
 * store only calls the first.
 */
export interface PgPoolLike<Client extends PgPoolClientLike = PgPoolClientLike> {
  connect(): Promise<Client>;
  connect(
    callback: (
      error: Error | undefined,
      client: Client | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): void;
}

/** What `fn` gets as its second argument: the client of the transaction the guard's marks use. */
export interface PostgresGuardContext<Client extends PgQueryable = PgQueryable> {
  /**
   * The transaction's client: write the handler's effects with it, and they commit with the
   * guard's record of the event, or not at all.
   */
  client: Client;
}

/** Options of `postgresStore()`. */
export type PostgresGuardStoreOptions<Client extends PgQueryable> = (
  | {
      /** A `pg.Pool` (recommended): each event takes one client for its transaction. */
      pool: PgPoolLike<Client & PgPoolClientLike>;
      client?: undefined;
    }
  | {
      /** One `pg.Client`: events then run one at a time in this process. */
      client: Client;
      pool?: undefined;
    }
) & {
  /**
   * The table, optionally schema-qualified (`schema.table`); letters, digits and `_` only. Created
   * on first use (`CREATE TABLE IF NOT EXISTS`); see `guardTableSql` to create it yourself.
   * @default 'merchant_gateway_webhook_guard'
   */
  table?: string | undefined;
};

const DEFAULT_TABLE = 'merchant_gateway_webhook_guard';
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}(?:\.[A-Za-z_][A-Za-z0-9_]{0,62})?$/;
/** Event ids are kept this long (the service retries for about 28 hours). */
const EVENT_DAYS = 3;
/** Payments' versions are kept this long after their last event (a replay reaches 14 days back). */
const PAYMENT_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

function quoted(table: string): string {
  return table
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
}

/**
 * The statement that creates the guard's table, for a DBA who creates it ahead (the store runs it
 * on first use otherwise). One row per handled event id (`kind` 'event') and one per payment with
 * the highest `payment_state_version` handled (`kind` 'payment').
 */
export function guardTableSql(table: string = DEFAULT_TABLE): string {
  if (!NAME.test(table)) throw tableError(table);
  return `CREATE TABLE IF NOT EXISTS ${quoted(table)} (
  kind text NOT NULL,
  id text NOT NULL,
  version bigint,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, id)
)`;
}

function tableError(table: unknown): RequestValidationError {
  return new RequestValidationError('webhooks.postgresStore', [
    {
      field: 'table',
      message: `must be a table name, optionally schema.table, of letters, digits and _ (got ${JSON.stringify(String(table)).slice(0, 80)})`,
    },
  ]);
}

/**
 * A guard store on PostgreSQL: any number of receiver processes on one database run each event
 * once between them. Each event is one transaction: its id is claimed (a row whose insert blocks
 * a concurrent duplicate until the first commits or rolls back), its payment's row locked
 * (`FOR UPDATE`, so one payment's events run one after another), `fn` runs with that
 * transaction's client, and the version is raised; all commit together. A process killed
 * mid-handler loses its connection, the transaction rolls back, and the redelivery runs the
 * event. Requires PostgreSQL 9.5 or later.
 * @example
 * ```ts
 * const guard = webhooks.guard({ store: postgresStore({ pool }) });
 * await guard.handle(event, async (event, { client }) => {
 *   await client.query('UPDATE orders SET status = $1 WHERE id = $2', [event.data.status, ref]);
 * });
 * ```
 */
export function postgresStore<Client extends PgQueryable>(
  options: PostgresGuardStoreOptions<Client>,
): WebhookGuardStore<PostgresGuardContext<Client>> {
  const { pool, client, table = DEFAULT_TABLE } = options ?? ({} as never);
  if (typeof table !== 'string' || !NAME.test(table)) throw tableError(table);
  if (
    (pool === undefined) === (client === undefined) ||
    (pool !== undefined && typeof pool.connect !== 'function') ||
    (client !== undefined && typeof client.query !== 'function')
  ) {
    throw new RequestValidationError('webhooks.postgresStore', [
      { field: 'pool', message: 'give one of pool (a pg.Pool) or client (a pg.Client)' },
    ]);
  }
  return new PostgresGuardStore<Client>(pool, client, table);
}

/** The PostgreSQL store; `postgresStore()` makes one. */
export class PostgresGuardStore<Client extends PgQueryable>
  implements WebhookGuardStore<PostgresGuardContext<Client>>
{
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
    try {
      return await this.#run(client, key, work, (error) => {
        broken = error;
      });
    } finally {
      // A client whose rollback failed is in an unknown state: the pool must not hand it out.
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
    await client.query('BEGIN');
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
          return {
            seen: false,
            version: raw === null || raw === undefined ? undefined : Number(raw),
          };
        },
        write: async (version) => {
          if (key.paymentId !== undefined && version !== undefined) {
            await client.query(sql.raise, [key.paymentId, version]);
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

function statements(table: string) {
  return {
    claim: `INSERT INTO ${table} (kind, id) VALUES ('event', $1) ON CONFLICT DO NOTHING`,
    payment: `INSERT INTO ${table} (kind, id) VALUES ('payment', $1) ON CONFLICT DO NOTHING`,
    lockPayment: `SELECT version FROM ${table} WHERE kind = 'payment' AND id = $1 FOR UPDATE`,
    raise: `UPDATE ${table} SET version = GREATEST(COALESCE(version, -1), $2::bigint), updated_at = now() WHERE kind = 'payment' AND id = $1`,
    prune: `DELETE FROM ${table} WHERE (kind = 'event' AND updated_at < now() - make_interval(days => $1::int)) OR (kind = 'payment' AND updated_at < now() - make_interval(days => $2::int))`,
  };
}
