import type { FollowerEngine } from './engine';
import { checkOptions, entryOf, type FollowerSettings, type Seed, seedOf } from './follower-input';
import type { FollowerIngestOutcome, IngestibleEvent } from './ingest';
import type { FollowContext } from './reader';
import type {
  FollowedPayment,
  PaymentFollower,
  PaymentFollowerCheckpoint,
  PaymentFollowerOptions,
  PaymentStatusChange,
} from './types';

/** The engine of a follower, reachable without the follower itself (what the registry closes). */
interface EngineBox {
  engine: FollowerEngine | undefined;
  dropped: boolean;
}

/**
 * A follower that became unreachable (no reference, no `for await` waiting on it) is closed when
 * it is collected: its reads stop, as `close()` would stop them. Its timers already let the
 * process exit while nothing iterates it (see the engine's `#keepAlive`).
 */
const dropped =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<EngineBox>((box) => {
        box.dropped = true;
        box.engine?.close();
      })
    : undefined;

/**
 * The follower the client hands out. It checks its input at once, and loads the engine that reads
 * and sweeps with a dynamic `import()` on creation, so a browser bundle that never follows many
 * payments does not carry it (bundlers put it in a chunk of its own). Until the engine is there
 * (one module load), `add`, `remove`, `size` and `checkpoint` work on what was given so far.
 */
export class LazyPaymentFollower implements PaymentFollower {
  readonly #context: FollowContext;
  readonly #settings: FollowerSettings;
  /** What is followed until the engine has loaded. */
  readonly #seeds = new Map<string, Seed>();
  readonly #engine: Promise<FollowerEngine>;
  #loaded: FollowerEngine | undefined;
  #closed = false;

  constructor(context: FollowContext, options: PaymentFollowerOptions | undefined) {
    const { settings, seeds } = checkOptions(options);
    this.#context = context;
    this.#settings = settings;
    for (const seed of seeds)
      if (!this.#seeds.has(seed.paymentId)) this.#seeds.set(seed.paymentId, seed);
    const box: EngineBox = { engine: undefined, dropped: false };
    dropped?.register(this, box);
    // telemetry: the engine counts what it holds from its first payment, once telemetry has loaded.
    const telemetry = context.telemetry?.ready.catch(() => {});
    this.#engine = Promise.all([import('./engine'), telemetry]).then(
      ([{ FollowerEngine }, loaded]) => {
        const follower = { ...settings, telemetry: loaded?.follower() }; // telemetry
        const engine = new FollowerEngine(context, follower, [...this.#seeds.values()]);
        this.#seeds.clear();
        this.#loaded = engine;
        box.engine = engine;
        if (this.#closed || box.dropped) engine.close();
        return engine;
      },
    );
    // A failed load is reported by the iterator; it must not be an unhandled rejection before.
    this.#engine.catch(() => {});
  }

  add(payment: FollowedPayment): void {
    const seed = seedOf(this.#context.merchantId, payment, this.#settings.timeoutMs, Date.now());
    if (seed === undefined || this.#closed) return;
    if (this.#loaded) this.#loaded.add(seed);
    else if (!this.#seeds.has(seed.paymentId)) this.#seeds.set(seed.paymentId, seed);
  }

  async ingest(event: IngestibleEvent): Promise<FollowerIngestOutcome> {
    // The snapshot is read by the engine's side (loaded on demand), not carried by every bundle.
    const engine = this.#loaded ?? (await this.#engine);
    return this.#closed ? 'not-followed' : engine.ingest(event);
  }

  remove(paymentId: string): void {
    if (this.#loaded) this.#loaded.remove(paymentId);
    else this.#seeds.delete(paymentId);
  }

  has(paymentId: string): boolean {
    return this.#loaded ? this.#loaded.entries.has(paymentId) : this.#seeds.has(paymentId);
  }

  get size(): number {
    return this.#loaded ? this.#loaded.entries.size : this.#seeds.size;
  }

  get closed(): boolean {
    return this.#loaded ? this.#loaded.closed : this.#closed;
  }

  checkpoint(): PaymentFollowerCheckpoint {
    if (this.#loaded) return this.#loaded.checkpoint();
    return {
      version: 1,
      payments: [...this.#seeds.values()].map((seed) => entryOf(seed, seed.known?.status)),
    };
  }

  close(): void {
    this.#closed = true;
    this.#loaded?.close();
  }

  [Symbol.asyncIterator](): AsyncIterator<PaymentStatusChange> {
    const engine = this.#engine;
    let inner: AsyncIterator<PaymentStatusChange> | undefined;
    return {
      next: async () => {
        inner ??= (await engine).iterator();
        return inner.next();
      },
      // Leaving a for-await loop (break, return, throw) closes the follower, as it does a watch.
      return: async () => {
        this.close();
        return { done: true, value: undefined };
      },
    };
  }
}
