// The guard's default store at work: this process's memory, bounded. Loaded by `memoryStore()`
// on first use (create-guard.ts checks its options at once).
import type { Logger } from '../core/logger';
import type {
  MemoryGuardStoreStats,
  WebhookGuardKey,
  WebhookGuardSession,
  WebhookGuardState,
  WebhookGuardStore,
} from './guard';

/** What the store remembers of a payment. */
interface PaymentRecord {
  version: number;
  /** Final statuses and `settled` handled; absent while none is. */
  finals?: string[];
}

// Module state, not per store: the bound is announced once per process, however many stores.
let warned = false;

/** The memory store behind `memoryStore()`, loaded on its first transaction. */
export class MemoryStore implements WebhookGuardStore<undefined> {
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #logger: Logger | undefined;
  /** Event id → when it was recorded (epoch ms), oldest first (a Map keeps insertion order). */
  readonly #ids = new Map<string, number>();
  /** Payment id → what was handled; re-inserted on each write, so oldest first. */
  readonly #payments = new Map<string, PaymentRecord>();
  /** The tail of each lock's queue: a unit of work waits for the one before it. */
  readonly #locks = new Map<string, Promise<void>>();
  #evictedEarly = 0;

  constructor(ttlMs: number, max: number, logger?: Logger) {
    this.#ttlMs = ttlMs;
    this.#max = max;
    this.#logger = logger;
  }

  stats(): MemoryGuardStoreStats {
    return { ids: this.#ids.size, payments: this.#payments.size, evictedEarly: this.#evictedEarly };
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
        write: async (version, finals) => this.#write(key, version, finals),
      });
    } finally {
      release();
      if (this.#locks.get(lock) === tail) this.#locks.delete(lock);
    }
  }

  #read(key: WebhookGuardKey): WebhookGuardState {
    const at = this.#ids.get(key.eventId);
    const seen = at !== undefined && Date.now() - at < this.#ttlMs;
    const payment = key.paymentId === undefined ? undefined : this.#payments.get(key.paymentId);
    return { seen, version: payment?.version, finals: payment?.finals ?? [] };
  }

  #write(key: WebhookGuardKey, version: number | undefined, finals?: readonly string[]): void {
    const now = Date.now();
    this.#ids.delete(key.eventId);
    this.#ids.set(key.eventId, now);
    if (key.paymentId !== undefined && version !== undefined) {
      const known = this.#payments.get(key.paymentId);
      const record: PaymentRecord = { version: Math.max(version, known?.version ?? -1) };
      const all = [...(known?.finals ?? []), ...(finals ?? [])];
      if (all.length > 0) record.finals = [...new Set(all)];
      this.#payments.delete(key.paymentId);
      this.#payments.set(key.paymentId, record);
    }
    // Forget the expired and, past the bound, the oldest: both maps are oldest first.
    for (const [id, at] of this.#ids) {
      const expired = now - at >= this.#ttlMs;
      if (this.#ids.size <= this.#max && !expired) break;
      this.#ids.delete(id);
      if (!expired) this.#early();
    }
    for (const id of this.#payments.keys()) {
      if (this.#payments.size <= this.#max) break;
      this.#payments.delete(id);
    }
  }

  /** Counts an id forgotten before its time, and says so once per process. */
  #early(): void {
    this.#evictedEarly++;
    if (warned) return;
    warned = true;
    const message = `[merchant-gateway] webhooks.memoryStore: at its bound of ${this.#max} event ids, it forgets the oldest before their ${Math.round(this.#ttlMs / 3_600_000)} h are up, and a redelivery of one runs its handler again: raise maxEntries, or use postgresStore() (store.stats().evictedEarly counts them; said once per process)`;
    if (this.#logger === undefined) console.warn(message);
    else this.#logger.warn({ message, maxEntries: this.#max }, message);
  }
}
