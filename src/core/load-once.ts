/**
 * `load` run on first use, its promise then shared by every later use: how the SDK loads a module
 * it needs only sometimes (`loadOnce(() => import('p-retry'))`), so a bundle gives it a chunk of its
 * own and a process that never needs it never loads it. A load that failed (a chunk the network
 * lost) is forgotten, so the next use tries again.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
