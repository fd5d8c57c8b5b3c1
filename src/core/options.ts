/**
 * Why a call's `signal` cannot be used, or undefined when it can (absent, or an AbortSignal). A
 * look-alike object would be read as aborted with an `undefined` reason, or never abort at all.
 */
export function signalProblem(signal: unknown): string | undefined {
  if (signal === undefined) return undefined;
  return typeof AbortSignal === 'function' && signal instanceof AbortSignal
    ? undefined
    : 'must be an AbortSignal (e.g. AbortSignal.timeout(5000) or an AbortController().signal)';
}

/** The numeric options a client sets and a call may override. */
export type NumericOption = 'timeoutMs' | 'maxRetries' | 'maxRetryDelayMs';

/**
 * Why a numeric option's value is not allowed, or undefined when it is. The client's constructor
 * and every call check the same rule; each throws its own error class.
 */
export function numericOptionProblem(name: NumericOption, value: number): string | undefined {
  if (name === 'maxRetries') {
    return Number.isInteger(value) && value >= 0 ? undefined : 'must be a non-negative integer';
  }
  if (name === 'maxRetryDelayMs') {
    return Number.isFinite(value) && value >= 0 ? undefined : 'must be a non-negative number';
  }
  return Number.isFinite(value) && value >= 1 ? undefined : 'must be at least 1 (milliseconds)';
}
