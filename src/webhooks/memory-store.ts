// The guard's default store at work: this process's memory, bounded. Loaded by `memoryStore()`
// on first use (guard.ts checks its options at once).
import type {
  WebhookGuardKey,
  WebhookGuardSession,
  WebhookGuardState,
  WebhookGuardStore,
} from './guard';

/** The memory store behind `memoryStore()`, loaded on its first transaction. */
export class MemoryStore implements WebhookGuardStore<undefined> {
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
