import type { KyParts } from './ky';
import { lazyImport } from './lazy-import';

/**
 * A loader that imports ky on its first use and hands every later caller the same parts. A failed
 * import is not kept: the next call (a retry) tries again.
 */
export function lazyKy(
  load: () => Promise<typeof import('ky')> = () => import('ky'),
): () => KyParts | Promise<KyParts> {
  return lazyImport(() =>
    load().then((module) => ({ ky: module.default, replaceOption: module.replaceOption })),
  );
}

/**
 * ky, imported when the first request is sent: the Node ESM build's `./ky` (tsup.config.ts). ky's
 * import loads Node's fetch (undici) for a feature check, about two thirds of the SDK's import
 * time; a process that imports the SDK pays it with its first call instead, as it would for
 * fetch itself, and one that never calls does not pay it at all.
 */
export const loadKy: () => KyParts | Promise<KyParts> = lazyKy();
