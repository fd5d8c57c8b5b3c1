// p-retry, loaded with the SDK: what Node's builds and the tests run. The browser-facing ESM
// builds swap in retry-load-lazy.ts (tsup.config.ts), which imports it on a call's first failure.
import pRetry from 'p-retry';

export type PRetry = typeof pRetry;

/** p-retry, here at once (the lazy variant may answer with a promise). */
export function loadPRetry(): PRetry | Promise<PRetry> {
  return pRetry;
}
