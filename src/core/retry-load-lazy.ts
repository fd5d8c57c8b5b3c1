// retry-load.ts for the browser-facing ESM builds (tsup.config.ts): p-retry is its own chunk,
// imported on a call's first failure; a call that succeeds at once never loads it.
import { lazyImport } from './lazy-import';
import type { PRetry } from './retry-load';

export type { PRetry };

/** p-retry: a promise until its first import has loaded, then the function itself. */
export const loadPRetry: () => PRetry | Promise<PRetry> = lazyImport(() =>
  import('p-retry').then((m) => m.default),
);
