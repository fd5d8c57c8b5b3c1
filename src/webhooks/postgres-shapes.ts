// What the guard's PostgreSQL store is made of, shared by postgresStore()'s checks at once
// (postgres.ts) and the store at work (postgres-store.ts, loaded on first use): the pool it takes,
// typed by what it calls so that `pg` is never imported, and the table it keeps.
import { RequestValidationError } from '../core/errors/base';
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

export const DEFAULT_TABLE = 'merchant_gateway_webhook_guard';
/** A table name, optionally schema.table, as the guard's SQL quotes it. */
export const validTableName = (table: string): boolean => NAME.test(table);
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

export function tableError(table: unknown): RequestValidationError {
  return new RequestValidationError('webhooks.postgresStore', [
    {
      field: 'table',
      message: `must be a table name, optionally schema.table, of letters, digits and _ (got ${JSON.stringify(String(table)).slice(0, 80)})`,
    },
  ]);
}
