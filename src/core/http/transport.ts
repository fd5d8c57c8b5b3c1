// One call, in named steps: prepare the request (prepare.ts), run one attempt (attempt.ts: read a
// bounded body in body.ts, map an error in failure.ts, read the result in result.ts), decide a
// retry (retry.ts, through p-retry below). A telemetry hook for "one call" wraps `#send`.
import type * as z from 'zod/mini';
import { ApiPromise, type WithResponse } from '../api-promise';
import { ConnectionError, MerchantGatewayError } from '../errors/base';
import { exhausted, isUnknownOutcome } from '../errors/failure';
import { loadPRetry, type PRetry } from '../retry-load';
import { own } from '../safety/own';
import type { AttemptScope, CallScope } from '../telemetry/option';
import { type KyHooks, runAttempt } from './attempt';
import { type SchemeHeaders, schemeHeaders } from './headers';
import { type PreparedCall, prepare } from './prepare';
import { retryDelay, sleep } from './retry';
import type { RequestSpec, TransportConfig } from './spec';

export type {
  CreateRequestOptions,
  RequestHooks,
  RequestOptions,
  RequestSpec,
  TransportConfig,
} from './spec';

/**
 * Sends requests with ky, retries them with p-retry, and turns every outcome into either parsed
 * data or one of the SDK's errors. Knows nothing of resources.
 */
export class Transport {
  readonly config: TransportConfig;
  readonly #hooks: KyHooks;
  /** With a beforeRequest hook, the SDK's own headers are set again after it. */
  readonly #pin: boolean;
  readonly #partner: SchemeHeaders;
  readonly #legacy: SchemeHeaders;

  constructor(config: TransportConfig) {
    this.config = config;
    const hooks = own(config.hooks);
    const beforeRequest = [...(hooks.beforeRequest ?? [])];
    const afterResponse = [...(hooks.afterResponse ?? [])];
    this.#pin = beforeRequest.length > 0;
    this.#hooks = {
      set: {
        init: undefined,
        beforeRequest: beforeRequest.length > 0 ? beforeRequest : undefined,
        beforeRetry: undefined,
        beforeError: undefined,
        afterResponse: afterResponse.length > 0 ? afterResponse : undefined,
      },
      replaced: undefined,
      given: this.#pin || afterResponse.length > 0,
    };
    this.#partner = schemeHeaders(config, config.authHeaders);
    this.#legacy = schemeHeaders(config, config.legacyAuthHeaders);
  }

  /**
   * Runs `build` (which validates the caller's input) and sends what it describes. Every failure,
   * validation included, arrives as a rejection of the returned promise, never as a throw.
   */
  request<S extends z.ZodMiniType, T>(build: () => RequestSpec<S, T>): ApiPromise<T> {
    return new ApiPromise(this.#run(build));
  }

  /** `build` runs at once (it reads the caller's input as it is now); a throw is a rejection. */
  async #run<S extends z.ZodMiniType, T>(build: () => RequestSpec<S, T>): Promise<WithResponse<T>> {
    try {
      // Own properties only: a spec leaves out what a call does not use (`headers`, `body`,
      // `query`), and a polluted Object.prototype must not fill those in.
      const spec = own(build()) as RequestSpec<S, T>;
      const scheme = spec.auth === 'legacy' ? this.#legacy : this.#partner;
      const send = (scope?: CallScope) =>
        this.#send(prepare(spec, this.config, scheme, this.#pin), scope);
      // telemetry: the call's span (its attempts under it) and metrics, when the option is on.
      const telemetry = this.config.telemetry;
      return await (telemetry === undefined ? send() : telemetry.call(spec, send));
    } catch (error) {
      // Every error of the SDK, whatever its class, is scrubbed the same way on its way out;
      // anything else (a caller's abort reason) is passed on untouched.
      throw error instanceof MerchantGatewayError ? this.config.redactor.scrub(error) : error;
    }
  }

  /** One call: its attempts, and the retries between them the policy allows. */
  async #send<S extends z.ZodMiniType, T>(
    call: PreparedCall<S, T>,
    scope?: CallScope,
  ): Promise<WithResponse<T>> {
    const { signal } = call;
    const started = Date.now();
    const { config } = this;
    const run = (n: number, trace?: AttemptScope) =>
      runAttempt(call, n, config, this.#hooks, trace);
    // telemetry: each attempt under a CLIENT span of its own, measured.
    const attempt = scope === undefined ? run : (n: number) => scope.attempt(n, run);
    try {
      // The first attempt runs outside p-retry: a call that succeeds at once (most of them) pays
      // for no retry machinery. A failure enters p-retry as its first attempt, so the policy and
      // every check that follows are the same as if p-retry had run it.
      signal?.throwIfAborted();
      let first: unknown;
      try {
        const result = await attempt(1);
        signal?.throwIfAborted();
        return result;
      } catch (error) {
        first = error;
      }
      return await this.#retry(call, first, attempt);
    } catch (error) {
      // p-retry wraps non-Error abort reasons; the caller gets exactly the reason it gave.
      if (signal?.aborted) throw signal.reason;
      if (error instanceof ConnectionError) {
        const { method, path } = call.spec;
        exhausted(error, method, path, call.attempts, Date.now() - started);
      }
      // The key lets the caller repeat the call later and get the original result.
      if (error instanceof MerchantGatewayError && call.idempotencyKey !== undefined) {
        (error as { idempotencyKey?: string }).idempotencyKey = call.idempotencyKey;
      }
      throw error;
    }
  }

  /** Step "decide a retry": after the first attempt failed with `first`, the attempts left. */
  #retry<S extends z.ZodMiniType, T>(
    call: PreparedCall<S, T>,
    first: unknown,
    attempt: (n: number) => Promise<WithResponse<T>>,
  ): Promise<WithResponse<T>> {
    const { config } = this;
    const { signal, maxRetries } = call;
    // p-retry loads with the SDK, or in a browser bundle on the first failure (retry-load.ts). Should
    // that chunk fail to load, the call fails with its first error, unretried.
    const load = loadPRetry();
    const retry = (pRetry: PRetry) =>
      pRetry((n) => (n === 1 ? Promise.reject(first) : attempt(n)), {
        retries: maxRetries,
        // p-retry's own wait stays zero: the wait is chosen per error (Retry-After or backoff)
        // and slept in shouldRetry, where the caller's signal can cut it short.
        minTimeout: 0,
        // Every option p-retry reads, given: it reads a missing one through Object.prototype.
        factor: 2,
        maxTimeout: Number.POSITIVE_INFINITY,
        maxRetryTime: Number.POSITIVE_INFINITY,
        randomize: false,
        unref: false,
        onFailedAttempt: () => {},
        shouldConsumeRetry: () => true,
        signal: signal ?? (null as unknown as undefined),
        shouldRetry: async ({ error, retriesConsumed }) => {
          call.outcomeUnknown ||= isUnknownOutcome(error);
          const retry = retriesConsumed + 1;
          const wait = retryDelay(error, retry, call.repeatable, config.maxRetryDelayMs);
          if (wait === undefined) return false;
          // Every SDK error message already starts with the method and path.
          config.logger.log(
            'warn',
            `${error.message}; retry ${retry} of ${maxRetries} in ${wait} ms`,
          );
          await sleep(wait, signal);
          return true;
        },
      });
    return load instanceof Promise ? load.then(retry, () => Promise.reject(first)) : retry(load);
  }
}
