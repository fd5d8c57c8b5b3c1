// What every lazy loader of the SDK (src/core/lazy-import.ts and the loaders built on it) promises
// its callers, checked alike for each: one import for callers racing the first use, and no failed
// import kept.
import { expect } from 'vitest';

/** A lazy loader: given the import, a function that loads it on first use. */
type Lazy<M, R> = (load: () => Promise<M>) => () => R | Promise<R>;

/** `lazy` over `module`, counting the imports it starts; the first fails when `failFirst`. */
function counting<M, R>(lazy: Lazy<M, R>, module: () => Promise<M>, failFirst: boolean) {
  let imports = 0;
  const load = lazy(async () => {
    imports += 1;
    if (failFirst && imports === 1) throw new Error('offline');
    return module();
  });
  return { load, imports: () => imports };
}

/**
 * Callers racing the first use share one import, and a later use answers without a promise.
 * Resolves with what they got.
 */
export async function expectOneImportForRacingCallers<M, R>(
  lazy: Lazy<M, R>,
  module: () => Promise<M>,
): Promise<R> {
  const { load, imports } = counting(lazy, module, false);
  const [a, b] = await Promise.all([load(), load()]);
  expect(imports()).toBe(1);
  expect(a).toBe(b);
  const later = load();
  expect(later).not.toBeInstanceOf(Promise);
  expect(later).toBe(a);
  return a;
}

/** A first import that fails is not kept: the next use imports again. Resolves with that use's. */
export async function expectFailedImportRetried<M, R>(
  lazy: Lazy<M, R>,
  module: () => Promise<M>,
): Promise<R> {
  const { load, imports } = counting(lazy, module, true);
  await expect(load()).rejects.toThrow('offline');
  const loaded = await load();
  expect(imports()).toBe(2);
  return loaded;
}
