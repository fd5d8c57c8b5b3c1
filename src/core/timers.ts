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

/**
 * `ms` plus a random share of up to `ratio` of it (never less than `ms`): spreads waits that would
 * otherwise end together, e.g. 1,000 pollers started at once. For polling: `sleep(withJitter(ms))`.
 */
export function withJitter(ms: number, ratio = 0.1): number {
  return Math.round(ms + Math.random() * ms * ratio);
}

type AbortListener = () => void;
interface SignalListeners {
  set: Set<AbortListener>;
  fire: () => void;
}
const listenersBySignal = new WeakMap<AbortSignal, SignalListeners>();

/**
 * Runs `listener` once when `signal` aborts; returns the unsubscribe. However many calls share one
 * signal (one per inbound request is common), the signal gets a single listener of ours, so no
 * MaxListenersExceededWarning appears for 11 or 1,000 of them; and once the last of them
 * unsubscribes that listener is removed too, so a long-lived shared signal keeps none of ours.
 */
export function onAbort(signal: AbortSignal, listener: AbortListener): () => void {
  let entry = listenersBySignal.get(signal);
  if (entry === undefined) {
    const set = new Set<AbortListener>();
    const fire = () => {
      listenersBySignal.delete(signal);
      for (const run of set) run();
    };
    entry = { set, fire };
    listenersBySignal.set(signal, entry);
    signal.addEventListener('abort', fire, { once: true });
  }
  const current = entry;
  current.set.add(listener);
  return () => {
    if (!current.set.delete(listener) || current.set.size > 0) return;
    if (listenersBySignal.get(signal) !== current) return;
    listenersBySignal.delete(signal);
    signal.removeEventListener('abort', current.fire);
  };
}

/** Waits `ms`, or rejects with the signal's reason the moment it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const off = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(signal.reason);
        })
      : undefined;
    const timer = setTimeout(() => {
      off?.();
      resolve();
    }, ms);
  });
}
