// The failure path, loaded with the SDK: what Node's builds and the tests run. The browser-facing
// ESM builds swap in failure-load-lazy.ts (tsup.config.ts), which imports it on the first failure.
import * as failurePath from './failure-path';

export type FailurePath = typeof import('./failure-path');

/** The failure path, here at once (the lazy variant may answer with a promise). */
export function loadFailurePath(): FailurePath | Promise<FailurePath> {
  return failurePath;
}
