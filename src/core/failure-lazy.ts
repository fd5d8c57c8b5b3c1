// The failure path at an attempt's failure sites, loaded with the SDK or, in the browser-facing
// builds, on the first failure (failure-load.ts, swapped for failure-load-lazy.ts there).
import { ConnectionError } from './errors/base';
import { type FailurePath, loadFailurePath } from './failure-load';
import type { Redactor } from './safety/redact';

export type { FailurePath };
export { loadFailurePath };

/**
 * What an attempt that got no usable response throws (see `connectionFailure`), without a promise
 * once the failure path is loaded. Should it not load (a browser's chunk request failing), still
 * a ConnectionError (redacted), which the retry policy treats as any other.
 */
export function connectionError(
  error: unknown,
  label: string,
  timedOut: boolean,
  timeoutMs: number,
  redactor: Redactor,
): ConnectionError | Promise<ConnectionError> {
  const fail = (path: FailurePath) =>
    path.connectionFailure(error, label, timedOut, timeoutMs, redactor);
  const loaded = loadFailurePath();
  if (!(loaded instanceof Promise)) return fail(loaded);
  return loaded.then(
    fail,
    (loadError: unknown) =>
      new ConnectionError(`${label}: connection failed`, { cause: redactor.error(loadError) }),
  );
}
