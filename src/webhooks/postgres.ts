// The guard's PostgreSQL store. It never imports `pg`: the user hands it a Pool (or one Client),
// typed by what it calls, so `pg` stays an optional peer and nothing loads for anyone else.
import { RequestValidationError } from '../core/errors/base';
import { loadOnce } from '../core/load-once';
import {
  DEFAULT_TABLE,
  type PgPoolClientLike,
  type PgPoolLike,
  type PgQueryable,
  type PostgresGuardStore,
  tableError,
  validTableName,
} from './postgres-shapes';

export type {
  PgPoolClientLike,
  PgPoolLike,
  PgQueryable,
  PostgresGuardContext,
  PostgresGuardStore,
} from './postgres-shapes';
export { guardTableSql } from './postgres-shapes';

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
  if (typeof table !== 'string' || !validTableName(table)) throw tableError(table);
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
  const store = loadOnce(() =>
    import('./postgres-store').then(({ PostgresStore }) => new PostgresStore(pool, client, table)),
  );
  return { transaction: (key, work) => store().then((loaded) => loaded.transaction(key, work)) };
}
