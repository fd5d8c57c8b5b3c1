// Guards and the default store, as the entries export them: options checked at once, the code that
// runs (the rule in guard.ts, the store in memory-store.ts) loaded on first use.
import { RequestValidationError } from '../core/errors/base';
import { loadOnce } from '../core/load-once';
import type { Logger } from '../core/logger';
import type {
  MemoryGuardStoreStats,
  WebhookGuard,
  WebhookGuardOptions,
  WebhookGuardStore,
} from './guard';

const OPERATION = 'webhooks.guard';

/** A guard over `store` (default: in memory). `webhooks.guard()` is the usual way to get one. */
export function createWebhookGuard<Context = undefined>(
  options?: WebhookGuardOptions<Context>,
): WebhookGuard<Context> {
  const given = options?.store;
  if (given !== undefined && given !== null && typeof given.transaction !== 'function') {
    throw new RequestValidationError(OPERATION, [
      { field: 'store', message: 'must be a WebhookGuardStore (memoryStore(), postgresStore())' },
    ]);
  }
  // The rule, and the default store (memoryStore()'s defaults need no check), load on the first
  // event: a client that never receives webhooks does not carry them.
  const guard = loadOnce(async () => {
    const { Guard } = await import('./guard');
    if (given !== undefined && given !== null) return new Guard(given);
    const { MemoryStore } = await import('./memory-store');
    const store = new MemoryStore(DEFAULT_TTL_MS, DEFAULT_MAX_ENTRIES);
    return new Guard(store as unknown as WebhookGuardStore<Context>);
  });
  return { handle: (event, fn) => guard().then((loaded) => loaded.handle(event, fn)) };
}

/** Options of `memoryStore()`. */
export interface MemoryGuardStoreOptions {
  /**
   * How long a handled event id is remembered, in milliseconds. The service retries for about
   * 28 hours; a replay from its dashboard (up to 14 days) of a payment event is still caught by
   * the payment's version while the payment is remembered.
   * @default 259200000 (3 days)
   */
  ttlMs?: number | undefined;
  /**
   * At most this many event ids, and this many payments' versions, are kept; past it the oldest
   * are forgotten first (about 200 bytes each: 100,000 of both is some 40 MB at most).
   * @default 100000
   */
  maxEntries?: number | undefined;
  /**
   * Where the one warning goes, the first time in a process that an id is forgotten before its
   * `ttlMs` is up (the client's `logger` option takes the same: console, pino, winston).
   * @default console
   */
  logger?: Logger | undefined;
}

/** The store `memoryStore()` returns: a guard store that tells what it holds. */
export interface MemoryGuardStore extends WebhookGuardStore<undefined> {
  /**
   * How many ids and payments it holds, and how many ids it forgot early at its bound (all 0
   * before its first event).
   * @example
   * ```ts
   * const store = memoryStore();
   * const guard = createWebhookGuard({ store });
   * // …later, in a health check:
   * if (store.stats().evictedEarly > 0) console.warn('raise maxEntries or use postgresStore()');
   * ```
   */
  stats(): MemoryGuardStoreStats;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_TTL_MS = 3 * DAY_MS;
const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * The guard's default store: this process's memory. Enough for one receiver process; replicas, or
 * a receiver that restarts, need a shared store (`postgresStore`).
 */
export function memoryStore(options?: MemoryGuardStoreOptions): MemoryGuardStore {
  const ttlMs = options?.ttlMs ?? DEFAULT_TTL_MS;
  const maxEntries = options?.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const issues = [];
  if (typeof ttlMs !== 'number' || !(ttlMs > 0)) {
    issues.push({ field: 'ttlMs', message: 'must be a positive number of milliseconds' });
  }
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    issues.push({ field: 'maxEntries', message: 'must be a whole number, at least 1' });
  }
  const logger = options?.logger;
  if (logger !== undefined && typeof logger?.warn !== 'function') {
    issues.push({ field: 'logger', message: 'must have a warn(data, message) method' });
  }
  if (issues.length > 0) throw new RequestValidationError('webhooks.memoryStore', issues);
  // Its code loads on first use, like the PostgreSQL store's.
  let loaded: { stats(): MemoryGuardStoreStats } | undefined;
  const store = loadOnce(() =>
    import('./memory-store').then(({ MemoryStore }) => {
      const made = new MemoryStore(ttlMs, maxEntries, logger);
      loaded = made;
      return made;
    }),
  );
  return {
    transaction: (key, work) => store().then((made) => made.transaction(key, work)),
    stats: () => loaded?.stats() ?? { ids: 0, payments: 0, evictedEarly: 0 },
  };
}
