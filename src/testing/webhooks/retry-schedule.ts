/** When the mock tries a delivery again: the service's schedule, scaled for tests. */
import { MAX_TIMER_MS } from '../../core/timers';

/** The waits before attempts 2 to 8, after the previous attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];
/** Attempts per round (a resend starts a new round): the first and one per scheduled wait. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

/**
 * The wait (ms) after the `attempts`-th failed attempt of a round, scaled by `scale`; undefined
 * once the round has had all its attempts (the delivery is failed).
 */
export function retryWaitMs(attempts: number, scale: number): number | undefined {
  if (attempts >= MAX_ATTEMPTS) return undefined;
  return (RETRY_SCHEDULE_MS[attempts - 1] as number) * scale;
}

/** Runs `run` after `ms` (clamped to what a timer keeps), without holding the process open. */
export function unrefTimer(run: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(run, Math.min(ms, MAX_TIMER_MS));
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
