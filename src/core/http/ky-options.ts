// What the transport hands ky so that a polluted Object.prototype reaches no request.

/**
 * ky reads options a call does not give through the prototype chain of objects it builds itself, so
 * plain data on a polluted `Object.prototype` would reach every request (`headers`, `searchParams`,
 * `json`, `body`, …). Every option ky or the Request it builds reads is given here as an own value.
 */
export const OWN_KY_OPTIONS = {
  json: undefined,
  // An empty query, not undefined: ky drops an undefined `searchParams` from what it merges.
  searchParams: '',
  // null, not undefined (dropped likewise): ky then falls back to the target's `signal`, below.
  signal: null,
  parseJson: undefined,
  stringifyJson: undefined,
  onDownloadProgress: undefined,
  onUploadProgress: undefined,
  // p-retry keeps the contract's policy (rate limiting under any status, only safe repeats).
  retry: 0,
  // ky's timeout does not cover reading the body: the attempt's own timer does.
  timeout: false,
  totalTimeout: false,
  // Error statuses are mapped by the SDK, from a body it reads within its own size limit.
  throwHttpErrors: false,
  // What the Request constructor reads besides method, headers, body and signal.
  mode: undefined,
  credentials: undefined,
  cache: undefined,
  redirect: undefined,
  referrer: undefined,
  referrerPolicy: undefined,
  integrity: undefined,
  keepalive: undefined,
  window: undefined,
  priority: undefined,
  dispatcher: undefined,
} as const;

/**
 * Every name ky, or the Request it builds, reads off its options or off objects it builds (hook
 * kinds included). While none of them is on `Object.prototype` (every process that is not
 * polluted), a call hands ky only the options it sets: ky's merge copies its options object once
 * per key, so the full own set above costs a GET about a tenth of its time.
 */
const KY_READS = [
  ...Object.keys(OWN_KY_OPTIONS),
  'method',
  'headers',
  'body',
  'hooks',
  'context',
  'fetch',
  'prefix',
  'prefixUrl',
  'baseUrl',
  'duplex',
  'init',
  'beforeRequest',
  'beforeRetry',
  'beforeError',
  'afterResponse',
];

/** True while nothing ky reads is inherited from `Object.prototype`: checked on every attempt. */
export function kyReadsAreClean(): boolean {
  for (const name of KY_READS) if (Object.hasOwn(Object.prototype, name)) return false;
  return true;
}

/** The options of OWN_KY_OPTIONS whose value differs from ky's default for a missing one. */
export const KY_CALL_DEFAULTS = { retry: 0, timeout: false, throwHttpErrors: false } as const;

/**
 * The URL of a call under pollution. ky reads `headers`, `signal` and `method` off its input when
 * the options lack them, and off a string that reaches `Object.prototype`: here they are the
 * target's own (none). In a clean process the URL string does the same, without a second parse.
 */
export class Target extends URL {
  get headers(): undefined {
    return undefined;
  }
  get signal(): undefined {
    return undefined;
  }
  get method(): undefined {
    return undefined;
  }
}
