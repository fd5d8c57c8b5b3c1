// One call, in named steps: prepare the request (prepare.ts), run one attempt (attempt.ts: read a
// bounded body, read the result, or map an error in ../errors/failure.ts), decide a retry
// (retry.ts; its retries through p-retry, loaded at the first retry). A telemetry hook for "one call" wraps `#send`.
import type * as z from 'zod/mini';
import { ApiPromise, type WithResponse } from '../api-promise';
import { ConnectionError, MerchantGatewayError } from '../errors/base';
import { describeLastConnectionFailure } from '../errors/failure';
import { ownProperties } from '../safety/own-properties';
import type { AttemptScope, CallScope } from '../telemetry/option';
import { type KyHooks, runAttempt } from './attempt';
import { type PreparedCall, prepare, type SchemeHeaders, schemeHeaders } from './prepare';
import { retryCall } from './retry';
import type { RequestSpec, TransportConfig } from './spec';

export type {
  CreateRequestOptions,
  RequestHooks,
  RequestOptions,
  RequestSpec,
  TransportConfig,
} from './spec';

/**
 * Sends requests with ky, retries them with p-retry (loaded at the first retry), and turns every outcome into either parsed
 * data or one of the SDK's errors. Knows nothing of resources.
 */
export class Transport {
  readonly config: TransportConfig;
  readonly #hooks: KyHooks;
  /** With a beforeRequest hook, the SDK's own headers are set again after it (each call's `pinned`). */
  readonly #resetOwnHeadersAfterHooks: boolean;
  readonly #partner: SchemeHeaders;
  readonly #legacy: SchemeHeaders;

  constructor(config: TransportConfig) {
    this.config = config;
    const hooks = ownProperties(config.hooks);
    const beforeRequest = [...(hooks.beforeRequest ?? [])];
    const afterResponse = [...(hooks.afterResponse ?? [])];
    this.#resetOwnHeadersAfterHooks = beforeRequest.length > 0;
    this.#hooks = {
      kinds: {
        init: undefined,
        beforeRequest: beforeRequest.length > 0 ? beforeRequest : undefined,
        beforeRetry: undefined,
        beforeError: undefined,
        afterResponse: afterResponse.length > 0 ? afterResponse : undefined,
      },
      given: beforeRequest.length > 0 || afterResponse.length > 0,
    };
    this.#partner = schemeHeaders(config, config.authHeaders);
    this.#legacy = schemeHeaders(config, config.legacyAuthHeaders);
  }

  /**
   * Sends the call `spec` describes, or runs `build` (which validates the caller's input) and sends
   * what it returns. Every failure, validation included, arrives as a rejection of the returned
   * promise, never as a throw.
   */
  request<S extends z.ZodMiniType, T>(
    spec: RequestSpec<S, T> | (() => RequestSpec<S, T>),
  ): ApiPromise<T> {
    return new ApiPromise(this.#run(spec));
  }

  /**
   * A call that failed before it was described (its input broke a rule): `error` as the rejection
   * of the promise the method returns, scrubbed like every error of a call.
   */
  rejected<T>(error: unknown): ApiPromise<T> {
    return new ApiPromise(Promise.reject(this.#scrubbed(error)));
  }

  /** Every error of the SDK, whatever its class, is scrubbed; anything else (a caller's abort reason) is untouched. */
  #scrubbed(error: unknown): unknown {
    return error instanceof MerchantGatewayError ? this.config.redactor.scrub(error) : error;
  }

  /** `build` runs at once (it reads the caller's input as it is now); a throw is a rejection. */
  async #run<S extends z.ZodMiniType, T>(
    given: RequestSpec<S, T> | (() => RequestSpec<S, T>),
  ): Promise<WithResponse<T>> {
    try {
      // Own properties only: a spec leaves out what a call does not use (`headers`, `body`,
      // `query`), and a polluted Object.prototype must not fill those in.
      const spec = ownProperties(typeof given === 'function' ? given() : given) as RequestSpec<
        S,
        T
      >;
      const scheme = spec.auth === 'legacy' ? this.#legacy : this.#partner;
      const send = (scope?: CallScope) =>
        this.#send(prepare(spec, this.config, scheme, this.#resetOwnHeadersAfterHooks), scope);
      // telemetry: the call's span (its attempts under it) and metrics, when the option is on.
      const telemetry = this.config.telemetry;
      return await (telemetry === undefined ? send() : telemetry.call(spec, send));
    } catch (error) {
      throw this.#scrubbed(error);
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
      // The first attempt runs outside p-retry: a call that succeeds at once (most of them), or
      // fails with nothing to retry, never loads it. `retryCall` decides, and runs the attempts
      // after it through p-retry.
      signal?.throwIfAborted();
      let first: unknown;
      try {
        const result = await attempt(1);
        signal?.throwIfAborted();
        return result;
      } catch (error) {
        first = error;
      }
      return await retryCall(call, first, attempt, config);
    } catch (error) {
      // p-retry wraps non-Error abort reasons; the caller gets exactly the reason it gave.
      if (signal?.aborted) throw signal.reason;
      if (error instanceof ConnectionError) {
        const { method, path } = call.spec;
        describeLastConnectionFailure(error, method, path, call.attempts, Date.now() - started);
      }
      // The key lets the caller repeat the call later and get the original result.
      if (error instanceof MerchantGatewayError && call.idempotencyKey !== undefined) {
        (error as { idempotencyKey?: string }).idempotencyKey = call.idempotencyKey;
      }
      throw error;
    }
  }
}
