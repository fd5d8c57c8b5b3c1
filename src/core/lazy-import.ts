/**
 * A loader that imports a module on its first use and hands every later caller the module itself
 * (no promise, so no extra turn of the event loop once loaded). A failed import is not kept: the
 * next use tries again.
 */
export function lazyImport<T>(load: () => Promise<T>): () => T | Promise<T> {
  let loaded: { module: T } | undefined;
  let loading: Promise<T> | undefined;
  return () => {
    if (loaded !== undefined) return loaded.module;
    loading ??= load().then(
      (module) => {
        loaded = { module };
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}
