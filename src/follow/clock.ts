import { holdProcess, MAX_TIMER_MS } from '../core/timers';

type Timer = ReturnType<typeof setTimeout>;

/**
 * The follower engine's timers: its sleeps, its deadline timer and the wake-ups of idle readers.
 * All are cleared at `close()`. They hold the process open only while the engine says so (`hold`):
 * while payments are followed and a `for await` waits for the next change. A follower nobody
 * iterates any more (dropped with payments open) then lets Node exit instead of reading until each
 * payment's `timeoutMs`.
 */
export class EngineClock {
  readonly #timers = new Set<Timer>();
  readonly #sleepers = new Set<() => void>();
  readonly #idle = new Set<() => void>();
  #deadline: Timer | undefined;
  #holding = false;
  #closed = false;

  /** Whether the timers hold the process open from now on. */
  hold(holding: boolean): void {
    if (holding === this.#holding) return;
    this.#holding = holding;
    for (const timer of this.#timers) holdProcess(timer, holding);
    if (this.#deadline !== undefined) holdProcess(this.#deadline, holding);
  }

  #timer(ms: number, run: () => void): Timer {
    const timer = setTimeout(run, Math.min(MAX_TIMER_MS, Math.max(0, ms)));
    if (!this.#holding) holdProcess(timer, false);
    return timer;
  }

  /**
   * Waits `ms`, or less when the engine closes. Always at least one turn of the event loop: fetch
   * puts a connection back in its pool only then, and a read sent before would open another.
   */
  sleep(ms: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#sleepers.delete(done);
        clearTimeout(timer);
        this.#timers.delete(timer);
        resolve();
      };
      this.#sleepers.add(done);
      const timer = this.#timer(ms, done);
      this.#timers.add(timer);
    });
  }

  /** Waits until `wake()` (there may be work: a payment added, a read queued) or `close()`. */
  waitForWork(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#idle.delete(done);
        resolve();
      };
      this.#idle.add(done);
    });
  }

  wake(): void {
    for (const wake of [...this.#idle]) wake();
  }

  /** Runs `run` at `atMs` (epoch ms), in place of the deadline armed before. */
  armDeadline(atMs: number, run: () => void): void {
    if (this.#closed) return;
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#deadline = this.#timer(atMs - Date.now(), () => {
      this.#deadline = undefined;
      run();
    });
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    for (const wake of [...this.#sleepers, ...this.#idle]) wake();
  }
}
