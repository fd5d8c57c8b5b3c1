// The exactly-once rule for webhook deliveries, written once: a store (memory, PostgreSQL, a user's
// own) only locks and persists; this file decides what runs.
import { RequestValidationError } from '../core/errors';

/** What `guard.handle` answers: whether `fn` ran, and if not, why not. */
export type WebhookGuardOutcome = 'handled' | 'duplicate' | 'stale';

/**
 * The least of an event the guard reads: the envelope `id`, and for a payment event the payment
 * and its `payment_state_version`. Every `WebhookEvent` is one.
 */
export interface GuardableEvent {
  id: string;
  data?: unknown;
}

/**
 * Which event a store is asked about: the envelope id, and for a payment event its payment and
 * version. Events without a payment (unknown types) have `paymentId` and `version` undefined.
 */
export interface WebhookGuardKey {
  eventId: string;
  paymentId: string | undefined;
  version: number | undefined;
}

/** What a store knows about an event under its lock. */
export interface WebhookGuardState {
  /** True when this event id was already handled (or found stale) and is remembered. */
  seen: boolean;
  /** The highest `payment_state_version` handled for the payment; undefined for one never seen. */
  version: number | undefined;
}

/** One locked unit of work of a store: read what is known, then record the outcome. */
export interface WebhookGuardSession<Context> {
  /** What `fn` gets as its second argument (PostgreSQL: `{ client }`, the transaction's client). */
  readonly context: Context;
  /** The state of the key's event id and payment, read under the lock. */
  read(): Promise<WebhookGuardState>;
  /**
   * Records the event id as done and, when `version` is given, raises the payment's highest
   * handled version to it. Persists only if the unit of work completes.
   */
  write(version: number | undefined): Promise<void>;
}

/**
 * Where a guard keeps what it has handled. A store only locks and persists; the rule lives in the
 * guard. `transaction` runs `work` while no other `transaction` of the same event id or of the same
 * payment runs (in any process sharing the store), and keeps `work`'s writes only when it
 * resolves: when it rejects, or the process dies during it, nothing it wrote remains.
 */
export interface WebhookGuardStore<Context = undefined> {
  transaction<T>(
    key: WebhookGuardKey,
    work: (session: WebhookGuardSession<Context>) => Promise<T>,
  ): Promise<T>;
}

/** Options of `webhooks.guard()`. */
export interface WebhookGuardOptions<Context = undefined> {
  /**
   * Where handled ids and versions are kept. `postgresStore({ pool })` shares them between
   * receiver replicas on one database.
   * @default memoryStore(): this process only, ids kept 3 days, at most 100,000 ids and payments
   */
  store?: WebhookGuardStore<Context> | undefined;
}

/** Runs each webhook event's handler once, in order of the payment's versions. */
export interface WebhookGuard<Context = undefined> {
  /**
   * Runs `fn(event, context)` unless the event's id was already handled (`'duplicate'`) or its
   * payment has already handled a version at least as high (`'stale'`); `'handled'` once `fn`
   * resolved. A rejecting `fn` leaves the event unhandled: its error is thrown here, answer 5xx
   * so the service delivers it again. Deliveries of one id (or one payment) at once wait for each
   * other: while `fn` runs, a duplicate waits, then answers `'duplicate'`, or runs `fn` itself if
   * the first one threw.
   * @example
   * ```ts
   * const outcome = await guard.handle(event, async (event) => {
   *   if (event.data.status === 'succeeded') await fulfil(event.data.reference_id);
   * });
   * ```
   */
  handle<E extends GuardableEvent>(
    event: E,
    fn: (event: E, context: Context) => unknown,
  ): Promise<WebhookGuardOutcome>;
}

const OPERATION = 'webhooks.guard';

/** The guard's key of an event: its id, and its payment and version when it is a payment event. */
export function guardKeyOf(event: GuardableEvent): WebhookGuardKey {
  const id = (event as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '') {
    throw new RequestValidationError(`${OPERATION}.handle`, [
      { field: 'event.id', message: 'must be a non-empty string: pass the event unwrap() gave' },
    ]);
  }
  const data = event.data;
  if (typeof data === 'object' && data !== null) {
    const { payment_id: paymentId, payment_state_version: version } = data as Record<
      string,
      unknown
    >;
    if (
      typeof paymentId === 'string' &&
      paymentId !== '' &&
      typeof version === 'number' &&
      Number.isSafeInteger(version) &&
      version >= 0
    ) {
      return { eventId: id, paymentId, version };
    }
  }
  return { eventId: id, paymentId: undefined, version: undefined };
}

class Guard<Context> implements WebhookGuard<Context> {
  readonly #store: WebhookGuardStore<Context>;

  constructor(store: WebhookGuardStore<Context>) {
    this.#store = store;
  }

  handle<E extends GuardableEvent>(
    event: E,
    fn: (event: E, context: Context) => unknown,
  ): Promise<WebhookGuardOutcome> {
    let key: WebhookGuardKey;
    try {
      key = guardKeyOf(event);
      if (typeof fn !== 'function') {
        throw new RequestValidationError(`${OPERATION}.handle`, [
          { field: 'fn', message: 'must be a function' },
        ]);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#store.transaction(key, async (session) => {
      const known = await session.read();
      if (known.seen) return 'duplicate';
      // A payment never seen has no version: its version-0 event runs.
      if (
        key.version !== undefined &&
        known.version !== undefined &&
        key.version <= known.version
      ) {
        // Remembered, so that its redeliveries answer at once, without reading the payment.
        await session.write(undefined);
        return 'stale';
      }
      await fn(event, session.context);
      await session.write(key.version);
      return 'handled';
    });
  }
}

/** A guard over `store` (default: in memory). `webhooks.guard()` is the usual way to get one. */
export function createWebhookGuard<Context = undefined>(
  options?: WebhookGuardOptions<Context>,
): WebhookGuard<Context> {
  const store = options?.store ?? (memoryStore() as unknown as WebhookGuardStore<Context>);
  if (typeof store.transaction !== 'function') {
    throw new RequestValidationError(OPERATION, [
      { field: 'store', message: 'must be a WebhookGuardStore (memoryStore(), postgresStore())' },
    ]);
  }
  return new Guard(store);
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
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The guard's default store: this process's memory. Enough for one receiver process; replicas, or
 * a receiver that restarts, need a shared store (`postgresStore`).
 */
export function memoryStore(options?: MemoryGuardStoreOptions): WebhookGuardStore<undefined> {
  const ttlMs = options?.ttlMs ?? 3 * DAY_MS;
  const maxEntries = options?.maxEntries ?? 100_000;
  const issues = [];
  if (typeof ttlMs !== 'number' || !(ttlMs > 0)) {
    issues.push({ field: 'ttlMs', message: 'must be a positive number of milliseconds' });
  }
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    issues.push({ field: 'maxEntries', message: 'must be a whole number, at least 1' });
  }
  if (issues.length > 0) throw new RequestValidationError('webhooks.memoryStore', issues);
  return new MemoryStore(ttlMs, maxEntries);
}

class MemoryStore implements WebhookGuardStore<undefined> {
  readonly #ttlMs: number;
  readonly #max: number;
  /** Event id → when it was recorded (epoch ms), oldest first (a Map keeps insertion order). */
  readonly #ids = new Map<string, number>();
  /** Payment id → highest handled version; re-inserted on each write, so oldest first. */
  readonly #versions = new Map<string, number>();
  /** The tail of each lock's queue: a unit of work waits for the one before it. */
  readonly #locks = new Map<string, Promise<void>>();

  constructor(ttlMs: number, max: number) {
    this.#ttlMs = ttlMs;
    this.#max = max;
  }

  async transaction<T>(
    key: WebhookGuardKey,
    work: (session: WebhookGuardSession<undefined>) => Promise<T>,
  ): Promise<T> {
    // One lock per payment (which covers its events' ids), else per event id.
    const lock = key.paymentId === undefined ? `e:${key.eventId}` : `p:${key.paymentId}`;
    const before = this.#locks.get(lock);
    let release = (): void => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before ? before.then(() => mine) : mine;
    this.#locks.set(lock, tail);
    try {
      if (before) await before;
      return await work({
        context: undefined,
        read: async () => this.#read(key),
        write: async (version) => this.#write(key, version),
      });
    } finally {
      release();
      if (this.#locks.get(lock) === tail) this.#locks.delete(lock);
    }
  }

  #read(key: WebhookGuardKey): WebhookGuardState {
    const at = this.#ids.get(key.eventId);
    const seen = at !== undefined && Date.now() - at < this.#ttlMs;
    const version = key.paymentId === undefined ? undefined : this.#versions.get(key.paymentId);
    return { seen, version };
  }

  #write(key: WebhookGuardKey, version: number | undefined): void {
    const now = Date.now();
    this.#ids.delete(key.eventId);
    this.#ids.set(key.eventId, now);
    if (key.paymentId !== undefined && version !== undefined) {
      const highest = Math.max(version, this.#versions.get(key.paymentId) ?? -1);
      this.#versions.delete(key.paymentId);
      this.#versions.set(key.paymentId, highest);
    }
    // Forget the expired and, past the bound, the oldest: both maps are oldest first.
    for (const [id, at] of this.#ids) {
      if (this.#ids.size <= this.#max && now - at < this.#ttlMs) break;
      this.#ids.delete(id);
    }
    for (const id of this.#versions.keys()) {
      if (this.#versions.size <= this.#max) break;
      this.#versions.delete(id);
    }
  }
}
