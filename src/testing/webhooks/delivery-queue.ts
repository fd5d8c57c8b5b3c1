/** The deliveries due now, started as the budget of attempts in flight allows, oldest first. */

/** Attempts in flight at once: a burst of events never opens a socket each. */
export const MAX_IN_FLIGHT = 32;

export interface QueueHooks<T> {
  /** Whether a queued item is still to be sent (it may have been stopped while it waited). */
  runnable(item: T): boolean;
  /** Sends it; the budget is taken until the promise settles. */
  run(item: T): Promise<void>;
  /** Called once an attempt gave its budget back. */
  settled(): void;
}

export class DeliveryQueue<T> {
  readonly #ready: T[] = [];
  readonly #hooks: QueueHooks<T>;
  #inFlight = 0;
  #stopped = false;

  constructor(hooks: QueueHooks<T>) {
    this.#hooks = hooks;
  }

  /** Attempts in flight now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  push(item: T): void {
    this.#ready.push(item);
    this.pump();
  }

  /** Forgets what waits (attempts in flight run to their end). */
  clear(): void {
    this.#ready.length = 0;
  }

  /** Starts nothing more, for good. */
  stop(): void {
    this.#stopped = true;
    this.clear();
  }

  pump(): void {
    while (this.#inFlight < MAX_IN_FLIGHT && this.#ready.length > 0 && !this.#stopped) {
      const item = this.#ready.shift() as T;
      if (!this.#hooks.runnable(item)) continue;
      this.#inFlight++;
      void this.#hooks.run(item).finally(() => {
        this.#inFlight--;
        this.#hooks.settled();
        this.pump();
      });
    }
  }
}
