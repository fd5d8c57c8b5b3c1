import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A real HTTP server on 127.0.0.1 with a handler of the test's own: hostile answers included. */
export { serve as hostile } from './servers';

/** A forced full garbage collection, as `node --expose-gc` gives, without restarting the worker. */
export const gc: () => void = (() => {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

export const API_KEY = 'sk_live_TOPSECRET_hostile_key';
