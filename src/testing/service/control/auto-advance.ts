/**
 * The `autoAdvanceMs` clock: calls `step` every `ms` milliseconds, so payments finish with no
 * control calls. Its timer is unref'd: it never keeps a process alive on its own.
 */
export class AutoAdvance {
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly ms: number | undefined,
    private readonly step: () => void,
  ) {
    if (ms !== undefined && !(Number.isFinite(ms) && ms > 0)) {
      throw new RangeError(
        `createMockGateway: autoAdvanceMs must be a number of milliseconds > 0, got ${String(ms)}`,
      );
    }
  }

  /** Starts a fresh period (a running one restarts: the next step comes a whole `ms` later). */
  start(): void {
    if (this.ms === undefined) return;
    this.stop();
    const timer = setInterval(this.step, this.ms);
    // Deno and browsers have no unref; there a timer never holds the runtime open anyway.
    (timer as { unref?: () => void }).unref?.();
    this.#timer = timer;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  get running(): boolean {
    return this.#timer !== undefined;
  }
}
