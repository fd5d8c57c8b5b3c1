// The guard's PostgreSQL store. It never imports `pg`: the user hands it a Pool (or one Client),
// typed by what it calls, so `pg` stays an optional peer and nothing loads for anyone else.
import { RequestValidationError } from '../core/errors/base';
import { once } from './create-guard';
import type { WebhookGuardStore } from './guard';

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
  /** pg's `'error'` event, listened to while the store holds the client (optional). */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
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

/** What `postgresStore()` returns: a guard store whose handlers get `{ client }`. */
export type PostgresGuardStore<Client extends PgQueryable = PgQueryable> = WebhookGuardStore<
  PostgresGuardContext<Client>
>;

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

export const DEFAULT_TABLE = 'merchant_gateway_webhook_guard';
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}(?:\.[A-Za-z_][A-Za-z0-9_]{0,62})?$/;

export function quoted(table: string): string {
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
): PostgresGuardStore<Client> {
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
  // The SQL and its transactions load on first use: a bundle that never stores in PostgreSQL
  // does not carry them.
  const store = once(() =>
    import('./postgres-store').then(({ PostgresStore }) => new PostgresStore(pool, client, table)),
  );
  return { transaction: (key, work) => store().then((loaded) => loaded.transaction(key, work)) };
}
