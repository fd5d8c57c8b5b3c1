// Step "run one attempt" of a call: one request through ky under the attempt's own timer and
// abort, its body read within bounds (readBody), the outcome turned into the result (parseResult)
// or one of the SDK's errors (../errors/failure.ts). A telemetry hook for "one attempt" wraps
// `runAttempt`.

import type { Options } from 'ky';
import ky, { replaceOption } from 'ky';
import * as z from 'zod/mini';
import type { WithResponse } from '../api-promise';
import { MAX_ERROR_BODY_BYTES } from '../errors/api-error';
import {
  MerchantGatewayError,
  ResponseTooLargeError,
  ResponseValidationError,
  type ValidationIssue,
} from '../errors/base';
import { type Body, connectionFailure, redactThenCut, responseFailure } from '../errors/failure';
import { MAX_VALUE_DEPTH, type Redactor } from '../safety/redact';
import type { AttemptScope } from '../telemetry/option';
import { onAbort } from '../timers';
import { toIssues } from '../validate';
import { type PreparedCall, SDK_OWNED } from './prepare';
import type { RequestSpec, TransportConfig } from './spec';

/**
 * ky reads options a call does not give through the prototype chain of objects it builds itself, so
 * plain data on a polluted `Object.prototype` would reach every request (`headers`, `searchParams`,
 * `json`, `body`, …). Under pollution every option ky or the Request it builds reads is given here
 * as an own value.
 */
const OWN_KY_OPTIONS = {
  json: undefined,
  // An empty query, not undefined: ky drops an undefined `searchParams` from what it merges.
  searchParams: '',
  // null, not undefined (dropped likewise): ky then falls back to the URL's `signal`, below.
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

/** The options of OWN_KY_OPTIONS whose value differs from ky's default for a missing one. */
const KY_CALL_DEFAULTS = { retry: 0, timeout: false, throwHttpErrors: false } as const;

/**
 * Every name ky, or the Request it builds, reads off its options or off objects it builds (hook
 * kinds included). While none of them is on `Object.prototype` (every process that is not
 * polluted), a call hands ky only KY_CALL_DEFAULTS: ky's merge copies its options object once per
 * key, so the full own set costs a GET about a tenth of its time.
 */
const KY_READS = [
  ...Object.keys(OWN_KY_OPTIONS),
  ...['method', 'headers', 'body', 'hooks', 'context', 'fetch', 'prefix', 'prefixUrl', 'baseUrl'],
  ...['duplex', 'init', 'beforeRequest', 'beforeRetry', 'beforeError', 'afterResponse'],
];

/** True while nothing ky reads is inherited from `Object.prototype`: checked on every attempt. */
function kyReadsAreClean(): boolean {
  for (const name of KY_READS) if (Object.hasOwn(Object.prototype, name)) return false;
  return true;
}

/**
 * A call's URL as ky gets it under pollution. ky reads `headers`, `signal` and `method` off its
 * input when the options lack them, and off a string that reaches `Object.prototype`: here they are
 * the URL's own (none). In a clean process the URL string does the same, without a second parse.
 */
class UrlWithoutRequestFields extends URL {
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

/** The user's hooks, as every attempt of a client hands them to ky. */
export interface KyHooks {
  /**
   * Every kind, an unused one as undefined (ky reads that as none), handed to ky marked as
   * replacing, not merged: ky merges into a `{}` of its own, where a polluted
   * `Object.prototype.hooks` would otherwise add hooks to every request.
   */
  readonly kinds: {
    [K in keyof NonNullable<Options['hooks']>]: NonNullable<Options['hooks']>[K] | undefined;
  };
  /**
   * Whether the user gave any hook. Without, a clean process hands ky no `hooks` (ky's own are
   * empty); under pollution the replacing empty set is always given.
   */
  readonly given: boolean;
}

/** Attempt number `n` (from 1) of `call`. Throws one of the SDK's errors, or the caller's abort reason. */
export async function runAttempt<S extends z.ZodMiniType, T>(
  call: PreparedCall<S, T>,
  n: number,
  config: TransportConfig,
  hooks: KyHooks,
  trace?: AttemptScope,
): Promise<WithResponse<T>> {
  const { signal, timeoutMs, label } = call;
  call.attempts = n;
  const controller = new AbortController();
  let timedOut = false;
  const bodyAbort: BodyAbort = { cancel: undefined };
  const stop = (reason?: unknown) => {
    controller.abort(reason);
    bodyAbort.cancel?.(controller.signal.reason);
  };
  // One listener per signal however many calls share it (see onAbort).
  const off = signal ? onAbort(signal, () => stop(signal.reason)) : undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, timeoutMs);
  const started = Date.now();
  try {
    const response = await send(call, n, config, hooks, controller.signal, trace);
    // An error's body is kept on the error: read no more of it than the error may keep, plus
    // enough to see whole a key that starts before that cut (it is redacted, then cut).
    const errorLimit = Math.min(config.maxResponseBytes, MAX_ERROR_BODY_BYTES);
    const limit = response.ok ? config.maxResponseBytes : errorLimit + config.redactor.longestForm;
    const body = await readBody(response, controller.signal, limit, bodyAbort);
    if (config.logger.debug) {
      config.logger.log('debug', `← ${label} ${response.status} in ${Date.now() - started} ms`);
    }
    if (!response.ok) {
      const kept = redactThenCut(body, errorLimit, config.redactor);
      const error = responseFailure({
        method: call.spec.method,
        path: call.spec.path,
        response,
        text: kept.text,
        cut: kept.cut,
        redactor: config.redactor,
        authSources: config.authSources,
        legacy: call.spec.auth === 'legacy',
      });
      const recovered = call.outcomeUnknown
        ? call.spec.recoverAfterUnknownOutcome?.(error)
        : undefined;
      if (recovered !== undefined) return { data: recovered, response };
      throw error;
    }
    if (body.cut) {
      throw new ResponseTooLargeError(label, {
        status: response.status,
        maxBytes: config.maxResponseBytes,
        requestId: response.headers.get('x-request-id') ?? undefined,
      });
    }
    return parseResult(call.spec, label, response, body.text, call.idempotencyKey, config.redactor);
  } catch (error) {
    // Nothing more of a failed attempt is read or kept open.
    controller.abort();
    if (signal?.aborted) throw signal.reason;
    if (error instanceof MerchantGatewayError) throw error;
    throw connectionFailure(error, label, timedOut, timeoutMs, config.redactor);
  } finally {
    clearTimeout(timer);
    off?.();
  }
}

/**
 * The request itself, through ky, to the response's headers. ky is imported with the SDK, not at
 * the first request: its import builds a Request (a feature check) from a plain object, which
 * `credentials` or `duplex` set on Object.prototype after the SDK's import would break for good.
 */
function send<S extends z.ZodMiniType, T>(
  call: PreparedCall<S, T>,
  n: number,
  config: TransportConfig,
  hooks: KyHooks,
  signal: AbortSignal,
  trace: AttemptScope | undefined,
): Promise<Response> {
  const { bodyText, pinned, label } = call;
  const fetchFn = config.fetch ?? globalThis.fetch;
  // Under pollution every option ky reads is given as an own value; otherwise only what
  // differs from ky's defaults, to the same effect (see KY_READS).
  const clean = kyReadsAreClean();
  return ky(clean ? call.url : new UrlWithoutRequestFields(call.url), {
    ...((clean ? KY_CALL_DEFAULTS : OWN_KY_OPTIONS) as unknown as Options),
    method: call.spec.method,
    // Replacing, not merged: ky merges into a `{}` of its own, where a polluted
    // `Object.prototype.headers` would otherwise add headers to every request.
    headers: replaceOption(call.headers),
    // Hooks see the body that is sent; fetch gets the string itself, not a stream copy.
    body: bodyText ?? null,
    // In a clean process without hooks of the user's, ky's own empty set; `context` is
    // what the hooks read.
    ...(hooks.given || !clean
      ? {
          hooks: replaceOption(hooks.kinds as NonNullable<Options['hooks']>),
          context: { attempt: n },
        }
      : {}),
    // The attempt's own signal goes straight to fetch with the URL, never inside a Request:
    // a Request's signal can be lost to GC and leave the body downloading (nodejs/node#55428).
    fetch: (input) => {
      const request = input as Request;
      const sent = request.headers;
      if (pinned !== undefined) {
        for (const name of SDK_OWNED) sent.delete(name);
        for (const [name, value] of pinned) sent.set(name, value);
      }
      // telemetry: `traceparent` of the attempt's span, unless a hook or the call set one.
      trace?.inject(sent);
      if (config.logger.debug) {
        config.logger.log('debug', `→ ${label} (attempt ${n})`, {
          headers: config.redactor.headers(sent),
        });
      }
      // A null prototype: fetch reads nothing inherited into the request.
      const init: RequestInit = Object.create(null);
      init.method = request.method;
      init.headers = sent;
      if (bodyText !== undefined) init.body = bodyText;
      // Never follow a redirect: fetch would resend Api-Key (and a POST body) to whatever
      // host the Location names. A 3xx is an ApiError instead.
      init.redirect = 'manual';
      init.signal = signal;
      return fetchFn(request.url, init);
    },
  });
}

/** How an attempt's abort reaches the body being read: `cancel` is set while a reader is open. */
export interface BodyAbort {
  cancel: ((reason: unknown) => void) | undefined;
}

/**
 * Reads the body through a reader of our own, so an abort cancels the stream itself (`text()`
 * would lock it and keep buffering after a timeout: nodejs/node#55428, nodejs/undici#3644), and
 * stops at `maxBytes` of decoded bytes, cancelling the rest. The attempt's abort calls
 * `onAbort.cancel` directly: no listener is added to and removed from the signal on every call.
 */
export async function readBody(
  response: Response,
  signal: AbortSignal,
  maxBytes: number,
  onAbort: BodyAbort,
): Promise<Body> {
  const body = response.body;
  if (body === null) return { text: '', cut: false, bytes: 0 };
  const reader = body.getReader();
  const cancel = (reason: unknown) => {
    reader.cancel(reason).catch(() => {});
  };
  if (signal.aborted) cancel(signal.reason);
  else onAbort.cancel = cancel;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled read ends as if the body were complete: the signal says it was not.
      signal.throwIfAborted();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        chunks.push(value.subarray(0, value.byteLength - (bytes - maxBytes)));
        reader.cancel().catch(() => {});
        return { text: decode(chunks), cut: true, bytes: maxBytes };
      }
      chunks.push(value);
    }
  } finally {
    onAbort.cancel = undefined;
  }
  return { text: decode(chunks), cut: false, bytes };
}

/** One decoder for every body: a whole-input decode keeps no state between calls. */
const UTF8 = new TextDecoder();

/** The bytes as UTF-8 text (a body is decoded once it is whole, not chunk by chunk). */
function decode(chunks: Uint8Array[]): string {
  if (chunks.length === 1) return UTF8.decode(chunks[0]);
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return UTF8.decode(all);
}

/** The 2xx body `text` as the call's result, or a ResponseValidationError (redacted) saying why not. */
export function parseResult<S extends z.ZodMiniType, T>(
  spec: RequestSpec<S, T>,
  label: string,
  response: Response,
  text: string,
  idempotencyKey: string | undefined,
  redactor: Redactor,
): WithResponse<T> {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const fail = (issues: ValidationIssue[], body: unknown) =>
    new ResponseValidationError(label, {
      issues,
      body: redactor.value(body, MAX_VALUE_DEPTH),
      status: response.status,
      requestId,
      changesState: spec.method !== 'GET' && spec.readOnly !== true,
      idempotencyKey,
    });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail([{ field: '', message: text === '' ? 'body is empty' : 'body is not JSON' }], text);
  }
  const result = z.safeParse(spec.response, json);
  if (!result.success) throw fail(toIssues(result.error), json);
  const parsed = result.data;
  const data: T =
    spec.select !== undefined
      ? spec.select(parsed)
      : ((spec.adds === undefined ? parsed : { ...(parsed as object), ...spec.adds }) as T);
  return requestId === undefined ? { data, response } : { data, response, requestId };
}
