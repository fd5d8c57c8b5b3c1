// failure-load.ts for the browser-facing ESM builds (tsup.config.ts): the failure path is its own
// chunk, imported on an attempt's first failure; a call that succeeds never loads it.
import type { FailurePath } from './failure-load';
import { lazyImport } from './lazy-import';

export type { FailurePath };

/** The failure path: a promise until its first import has loaded, then the module itself. */
export const loadFailurePath: () => FailurePath | Promise<FailurePath> = lazyImport(
  () => import('./failure-path'),
);
