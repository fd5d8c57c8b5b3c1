// The exactly-once rule for webhook deliveries, written once: a store (memory, PostgreSQL, a user's
// own) only locks and persists; this file decides what runs. The types a user names live here too;
// create-guard.ts makes guards and stores, and loads this rule on a guard's first event.
import { RequestValidationError } from '../core/errors/base';

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
  /**
   * The final statuses (`succeeded`, `failed`, `expired`, `cancelled`) and `settled` already
   * handled for the payment. A store that leaves it out gets the version rule alone.
   */
  finals?: readonly string[] | undefined;
}

/** One locked unit of work of a store: read what is known, then record the outcome. */
export interface WebhookGuardSession<Context> {
  /** What `fn` gets as its second argument (PostgreSQL: `{ client }`, the transaction's client). */
  readonly context: Context;
  /** The state of the key's event id and payment, read under the lock. */
  read(): Promise<WebhookGuardState>;
  /**
   * Records the event id as done and, when `version` is given, raises the payment's highest
   * handled version to it and adds `finals` to the payment's handled finals. Persists only if the
   * unit of work completes.
   */
  write(version: number | undefined, finals?: readonly string[]): Promise<void>;
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

/** What a memory store holds now: `memoryStore().stats()` (see `MemoryGuardStore`). */
export interface MemoryGuardStoreStats {
  /** Event ids remembered. */
  ids: number;
  /** Payments whose highest handled version (and final statuses) are remembered. */
  payments: number;
  /**
   * Event ids forgotten before their `ttlMs` was up, to stay within `maxEntries`: a redelivery
   * of one of them runs its handler again (unless its payment's version makes it stale).
   */
  evictedEarly: number;
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
   * resolved. A final status not yet handled for the payment runs whatever its version (a relay's
   * and the service's numbering are two sequences), and once: the same final again is `'stale'`,
   * whatever its version, unless it brings `settled` news (a `payment.settled`). A rejecting `fn` leaves the event unhandled: its error is thrown here, answer 5xx
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

const FINAL: ReadonlySet<unknown> = new Set(['succeeded', 'failed', 'expired', 'cancelled']);

/**
 * What an event tells that runs once per payment, whoever numbered it: its final status, and
 * `settled` for a `payment.settled` (whose status stays `succeeded`, so it also tells that).
 */
export function finalsOf(event: GuardableEvent): string[] {
  const data = event.data as { status?: unknown } | null | undefined;
  const status = typeof data === 'object' && data !== null ? data.status : undefined;
  const finals = FINAL.has(status) ? [status as string] : [];
  if ((event as { type?: unknown }).type === 'payment.settled') finals.push('settled');
  return finals;
}

/**
 * Whether an event is news for its payment. A final (or settlement) not yet handled is, whatever
 * its version; one already handled is not, whatever its version; other events go by version.
 */
function isNews(
  key: WebhookGuardKey,
  finals: readonly string[],
  known: WebhookGuardState,
): boolean {
  if (key.version === undefined) return true;
  if (finals.length > 0 && known.finals !== undefined) {
    const handled = known.finals;
    return finals.some((final) => !handled.includes(final));
  }
  // A payment never seen has no version: its version-0 event runs.
  return known.version === undefined || key.version > known.version;
}

/** The rule, over a store that only locks and persists (loaded on a guard's first `handle`). */
export class Guard<Context> implements WebhookGuard<Context> {
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
      const finals = key.version === undefined ? [] : finalsOf(event);
      if (!isNews(key, finals, known)) {
        // Remembered, so that its redeliveries answer at once, without reading the payment.
        await session.write(undefined);
        return 'stale';
      }
      await fn(event, session.context);
      await session.write(key.version, finals);
      return 'handled';
    });
  }
}
