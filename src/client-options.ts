// The options of a client, apart from any client class: the main entry's MerchantGateway and the
// buyer entry's BuyerClient both take them, and client-config.ts resolves them.

import type { RequestHooks } from './core/http/transport';
import type { Logger, LogLevel } from './core/logger';
import type { TelemetryOptions } from './core/telemetry/option';

/** Options of `MerchantGateway`. Every one may be overridden later with `withOptions`. */
export interface ClientOptions {
  /**
   * The service's base URL, `https:` (or `http:` on loopback only, or anywhere with
   * `dangerouslyAllowHttp`). A path prefix and a trailing slash are fine. There is no built-in
   * default host.
   * @default process.env.MERCHANT_GATEWAY_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * Partner or private API key, sent as `Api-Key`. Give either this or `appId` + `clientId`.
   * @default process.env.MERCHANT_GATEWAY_API_KEY
   */
  apiKey?: string | undefined;
  /** Public application id (sent as `App-Id`); needs `clientId`. The scheme allowed in browsers. */
  appId?: string | undefined;
  /** Client id (sent as `Client-Id`), with `appId`. */
  clientId?: string | undefined;
  /**
   * Legacy service key for the deprecated list, sent as `X-Api-Key` to that endpoint only.
   * Without it the deprecated list is called with `apiKey`.
   * @default process.env.MERCHANT_GATEWAY_LEGACY_API_KEY
   */
  legacyApiKey?: string | undefined;
  /**
   * Default `Merchant-Id` for payment calls that name no merchant.
   * @default process.env.MERCHANT_GATEWAY_MERCHANT_ID
   */
  merchantId?: string | undefined;
  /**
   * The signing secret of your webhook endpoint, `whsec_…`, for `gateway.webhooks`; or several
   * during a rotation (an array, or one string separated by commas). Never sent to the service.
   * @default process.env.MERCHANT_GATEWAY_WEBHOOK_SECRET (comma-separated for several)
   */
  webhookSecret?: string | readonly string[] | undefined;
  /** Contract version, sent as `WCP-Version` when set (e.g. `'2026-02-18'`). */
  apiVersion?: string | undefined;
  /**
   * Per-attempt timeout in milliseconds, including reading the body.
   * @default 30000
   */
  timeoutMs?: number | undefined;
  /**
   * Retries after the first attempt.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * The longest server-requested wait (Retry-After) the SDK will sleep, in milliseconds; a longer
   * one throws `RateLimitedError` at once with `retryAfterMs`.
   * @default 60000
   */
  maxRetryDelayMs?: number | undefined;
  /** A custom `fetch` (a proxy agent, instrumentation, a test double). */
  fetch?: typeof fetch | undefined;
  /** Extra headers on every request. */
  headers?: Record<string, string> | undefined;
  /**
   * Receives log lines, every one scrubbed of keys.
   * @default console
   */
  logger?: Logger | undefined;
  /**
   * `debug` logs every attempt; `warn` logs retries and deprecations.
   * @default process.env.MERCHANT_GATEWAY_LOG, else 'off'
   */
  logLevel?: LogLevel | undefined;
  /**
   * ky hooks run on every attempt, for tracing or metrics without a custom fetch. A `beforeRequest`
   * hook may add headers (e.g. `traceparent`) but not change the SDK's auth, `Merchant-Id` or
   * `Idempotency-Key`; log lines stay redacted.
   * @example
   * ```ts
   * hooks: { beforeRequest: [({ request }) => { request.headers.set('traceparent', tp); }] }
   * ```
   */
  hooks?: RequestHooks | undefined;
  /**
   * Largest response body read, in bytes after decompression, counted as it streams. A larger
   * success body is cancelled and rejects with `ResponseTooLargeError`. An error body is read and
   * kept up to 64 KiB (or this limit, if smaller), the rest cancelled, with `bodyTruncated: true`.
   * @default 10485760 (10 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Allows a secret `apiKey` in a browser, where anyone can read it. Leave false unless the page
   * is only for you.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * Allows an `http:` base URL on any host, not only loopback: for a mock sidecar on a private
   * network (e.g. `http://gateway-mock:4010` in docker compose). Keys then travel unencrypted:
   * never set it for the real service.
   * @default false
   */
  dangerouslyAllowHttp?: boolean | undefined;
  /**
   * OpenTelemetry traces and metrics: pass `trace.getTracerProvider()` and/or
   * `metrics.getMeterProvider()` (or an SDK's providers). Without it no span or instrument is made.
   * @example
   * ```ts
   * telemetry: { tracerProvider: trace.getTracerProvider(), meterProvider: metrics.getMeterProvider() }
   * ```
   */
  telemetry?: TelemetryOptions | undefined;
}
