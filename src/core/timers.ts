type Timer = ReturnType<typeof setTimeout>;
type DenoTimers = { refTimer?: (id: unknown) => void; unrefTimer?: (id: unknown) => void };

/**
 * The longest delay a timer keeps: past 2^31 - 1 ms `setTimeout` fires at once, which would turn
 * a long timeout into an immediate one. Every timeout option is capped or checked against it.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Lets the process exit while only `timer` is left (`ref = false`), or holds it open again
 * (`ref = true`): Node and Bun through the timer's own `unref()`/`ref()`, Deno through
 * `Deno.unrefTimer`/`Deno.refTimer`; elsewhere timers never hold a process.
 */
export function holdProcess(timer: Timer, ref: boolean): void {
  const handle: unknown = timer;
  if (typeof handle === 'object' && handle !== null && 'unref' in handle) {
    const node = handle as { ref(): void; unref(): void };
    if (ref) node.ref();
    else node.unref();
    return;
  }
  const deno = (globalThis as { Deno?: DenoTimers }).Deno;
  (ref ? deno?.refTimer : deno?.unrefTimer)?.(handle);
}
