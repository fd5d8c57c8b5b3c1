// Loads failure-path.ts on an attempt's first failure: a call that succeeds never loads it.
import { ConnectionError } from './errors';
import type { Redactor } from './redact';

type FailurePath = typeof import('./failure-path');

let loading: Promise<FailurePath> | undefined;

/** The failure path, imported once; a failed import is not kept (the next failure tries again). */
export function failurePath(): Promise<FailurePath> {
  loading ??= import('./failure-path').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * What an attempt that got no usable response throws (see `connectionFailure`). Should the failure
 * path itself not load (a browser's chunk request failing), still a ConnectionError, which the
 * retry policy treats as any other.
 */
export function connectionError(
  error: unknown,
  label: string,
  timedOut: boolean,
  timeoutMs: number,
  redactor: Redactor,
): Promise<ConnectionError> {
  return failurePath().then(
    (path) => path.connectionFailure(error, label, timedOut, timeoutMs, redactor),
    (loadError: unknown) =>
      new ConnectionError(`${label}: connection failed`, { cause: redactor.error(loadError) }),
  );
}
