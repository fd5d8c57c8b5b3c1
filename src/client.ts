import { ConfigurationError } from './core/errors';
import { HoldLimit, MAX_HOLD_MS } from './core/follow-policy';
import { isLogLevel, LevelLogger, type Logger, type LogLevel } from './core/logger';
import { type NumericOption, numericOptionProblem } from './core/options';
import { own } from './core/own';
import { REDACTED, Redactor } from './core/redact';
import { type TelemetryOptions, telemetryFrom } from './core/telemetry';
import { type RequestHooks, Transport } from './core/transport';
import { LegacyPayments } from './resources/legacy-payments';
import { Merchants } from './resources/merchants';
import { PartnerPayments } from './resources/partner-payments';
import { Payments } from './resources/payments';
import { Refunds } from './resources/refunds';
import type { ResourceContext } from './resources/resource';
import { Settlements } from './resources/settlements';
import { VERSION } from './version';

/** Options of {@link MerchantGateway}. Every one may be overridden later with `withOptions`. */
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
  /** Default `Merchant-Id` for payment calls that name no merchant. */
  merchantId?: string | undefined;
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

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 2 ** 20;

function env(name: string): string | undefined {
  const vars = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  // Own variables only: an inherited `MERCHANT_GATEWAY_BASE_URL` would be a polluted prototype.
  const value = vars !== undefined && Object.hasOwn(vars, name) ? vars[name] : undefined;
  return value === undefined || value === '' ? undefined : value;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

function normalizeBaseUrl(raw: string | undefined, allowHttp: boolean): string {
  if (raw === undefined) {
    throw new ConfigurationError(
      'baseUrl is required: pass { baseUrl } or set MERCHANT_GATEWAY_BASE_URL (there is no default host)',
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError('baseUrl must be an absolute URL such as https://gateway.example');
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError('baseUrl must not carry credentials: pass keys as options');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigurationError('baseUrl must not have a query or fragment');
  }
  const httpAllowed = allowHttp || LOOPBACK.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpAllowed)) {
    throw new ConfigurationError(
      `baseUrl must use https: (http: is allowed only for localhost, 127.0.0.0/8 and [::1], or anywhere with dangerouslyAllowHttp: true); got ${url.protocol}//${url.host}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function isBrowser(): boolean {
  return 'window' in globalThis && 'document' in globalThis;
}

function platform(): string {
  const g = globalThis as {
    process?: { versions?: { node?: string } };
    Deno?: { version?: { deno?: string } };
    Bun?: { version?: string };
    EdgeRuntime?: unknown;
    navigator?: { userAgent?: string };
  };
  if (g.Bun?.version) return `bun/${g.Bun.version}`;
  if (g.Deno?.version?.deno) return `deno/${g.Deno.version.deno}`;
  if (g.EdgeRuntime !== undefined) return 'edge';
  if (g.process?.versions?.node) return `node/${g.process.versions.node}`;
  if (isBrowser()) return 'browser';
  return 'unknown';
}

interface Resolved {
  baseUrl: string;
  apiKey: string | undefined;
  appId: string | undefined;
  clientId: string | undefined;
  legacyApiKey: string | undefined;
  merchantId: string | undefined;
  apiVersion: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  maxResponseBytes: number;
  logLevel: LogLevel;
}

function resolve(options: ClientOptions): Resolved {
  const appScheme = options.appId !== undefined || options.clientId !== undefined;
  const apiKey = options.apiKey ?? (appScheme ? undefined : env('MERCHANT_GATEWAY_API_KEY'));
  if (apiKey !== undefined && appScheme) {
    throw new ConfigurationError(
      'give exactly one auth scheme: apiKey, or appId with clientId, not both',
    );
  }
  if (apiKey === undefined && !appScheme) {
    throw new ConfigurationError(
      'no credentials: pass { apiKey } (or set MERCHANT_GATEWAY_API_KEY), or { appId, clientId }',
    );
  }
  if (appScheme && (options.appId === undefined || options.clientId === undefined)) {
    throw new ConfigurationError('the app scheme needs both appId and clientId');
  }
  for (const [name, value] of Object.entries({
    apiKey,
    appId: options.appId,
    clientId: options.clientId,
    legacyApiKey: options.legacyApiKey,
  })) {
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new ConfigurationError(`${name} must be a non-empty string`);
    }
  }
  if (apiKey !== undefined && isBrowser() && options.dangerouslyAllowBrowser !== true) {
    throw new ConfigurationError(
      'a secret apiKey in a browser can be read by anyone: use appId + clientId there, or set dangerouslyAllowBrowser: true if you accept that',
    );
  }
  const envLevel = env('MERCHANT_GATEWAY_LOG');
  const logLevel = options.logLevel ?? (isLogLevel(envLevel) ? envLevel : 'off');
  if (!isLogLevel(logLevel)) {
    throw new ConfigurationError('logLevel must be one of debug, info, warn, error, off');
  }
  const number = (name: NumericOption, value: number | undefined, fallback: number) => {
    const n = value ?? fallback;
    const problem = numericOptionProblem(name, n);
    if (problem !== undefined) throw new ConfigurationError(`${name} ${problem}`);
    return n;
  };
  return {
    baseUrl: normalizeBaseUrl(
      options.baseUrl ?? env('MERCHANT_GATEWAY_BASE_URL'),
      options.dangerouslyAllowHttp === true,
    ),
    apiKey,
    appId: options.appId,
    clientId: options.clientId,
    legacyApiKey: options.legacyApiKey ?? env('MERCHANT_GATEWAY_LEGACY_API_KEY'),
    merchantId: options.merchantId,
    apiVersion: options.apiVersion,
    timeoutMs: number('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxRetries: number('maxRetries', options.maxRetries, DEFAULT_MAX_RETRIES),
    maxRetryDelayMs: number('maxRetryDelayMs', options.maxRetryDelayMs, DEFAULT_MAX_RETRY_DELAY_MS),
    maxResponseBytes: responseLimit(options.maxResponseBytes),
    logLevel,
  };
}

function responseLimit(value: number | undefined): number {
  const n = value ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw new ConfigurationError('maxResponseBytes must be a positive whole number of bytes');
  }
  return n;
}

function checkHooks(hooks: RequestHooks | undefined): RequestHooks {
  const given = own(hooks);
  for (const name of ['beforeRequest', 'afterResponse'] as const) {
    const list = given[name];
    if (list !== undefined && (!Array.isArray(list) || list.some((h) => typeof h !== 'function'))) {
      throw new ConfigurationError(`hooks.${name} must be an array of functions`);
    }
  }
  return given;
}

/**
 * The client of the merchant payment gateway.
 *
 * @example
 * ```ts
 * const gateway = new MerchantGateway({ baseUrl: 'https://gateway.example', apiKey: 'sk_…' });
 * const merchant = await gateway.merchants.create({ merchantName: 'Acme', merchantEmail: 'pay@acme.io' });
 * ```
 * @throws {ConfigurationError} when the auth scheme, base URL or browser guard is not satisfied.
 */
export class MerchantGateway {
  /** Create, update, read, list and delete merchants. */
  readonly merchants: Merchants;
  /** Register, list, change and delete crypto settlement destinations. */
  readonly settlements: Settlements;
  /** Create payments, read them, follow them to a final status and list them. */
  readonly payments: Payments;
  /** List the payments of all your merchants, or of the ones you name, in one list. */
  readonly partnerPayments: PartnerPayments;
  /** @deprecated The path-based list of a merchant's payments. Use `payments.list` instead. */
  readonly legacyPayments: LegacyPayments;
  /** Refund succeeded payments, in full. */
  readonly refunds: Refunds;

  readonly #options: ClientOptions;
  readonly #resolved: Resolved;

  constructor(given: ClientOptions = {}) {
    // Own properties only: a polluted Object.prototype (baseUrl, fetch, headers…) changes nothing.
    const options = own(given) as ClientOptions;
    this.#options = { ...options };
    const r = resolve(options);
    this.#resolved = r;
    const redactor = new Redactor([r.apiKey, r.legacyApiKey, r.appId, r.clientId]);
    const authHeaders: Record<string, string> =
      r.apiKey !== undefined
        ? { 'Api-Key': r.apiKey }
        : { 'App-Id': r.appId as string, 'Client-Id': r.clientId as string };
    const transport = new Transport({
      baseUrl: r.baseUrl,
      authHeaders,
      legacyAuthHeaders:
        r.legacyApiKey !== undefined ? { 'X-Api-Key': r.legacyApiKey } : authHeaders,
      headers: {
        'Sdk-Name': 'merchant-gateway',
        'Sdk-Version': VERSION,
        'Sdk-Platform': platform(),
        ...(r.apiVersion !== undefined ? { 'WCP-Version': r.apiVersion } : {}),
        ...own(options.headers),
      },
      timeoutMs: r.timeoutMs,
      maxRetries: r.maxRetries,
      maxRetryDelayMs: r.maxRetryDelayMs,
      maxResponseBytes: r.maxResponseBytes,
      fetch: options.fetch,
      hooks: checkHooks(options.hooks),
      redactor,
      // telemetry: checked here (a provider without getTracer/getMeter throws); undefined when off.
      telemetry: telemetryFrom(options.telemetry, r.baseUrl, redactor, VERSION),
      logger: new LevelLogger(
        options.logger ?? console,
        r.logLevel,
        redactor,
        options.logger !== undefined,
      ),
    });
    const context: ResourceContext = {
      transport,
      merchantId: r.merchantId,
      holdLimit: new HoldLimit(MAX_HOLD_MS),
    };
    this.merchants = new Merchants(context);
    this.settlements = new Settlements(context);
    this.payments = new Payments(context);
    this.partnerPayments = new PartnerPayments(context);
    this.legacyPayments = new LegacyPayments(context);
    this.refunds = new Refunds(context);
  }

  /** The resolved base URL, without a trailing slash. */
  get baseUrl(): string {
    return this.#resolved.baseUrl;
  }

  /** A new client with some options overridden; this one is unchanged. */
  withOptions(overrides: ClientOptions): MerchantGateway {
    return new MerchantGateway({ ...this.#options, ...overrides });
  }

  /** What `JSON.stringify` and `util.inspect` show: the configuration with every key as `***`. */
  toJSON(): Record<string, unknown> {
    const r = this.#resolved;
    const hide = (value: string | undefined) => (value === undefined ? undefined : REDACTED);
    return {
      baseUrl: r.baseUrl,
      apiKey: hide(r.apiKey),
      appId: hide(r.appId),
      clientId: hide(r.clientId),
      legacyApiKey: hide(r.legacyApiKey),
      merchantId: r.merchantId,
      apiVersion: r.apiVersion,
      timeoutMs: r.timeoutMs,
      maxRetries: r.maxRetries,
      maxRetryDelayMs: r.maxRetryDelayMs,
      maxResponseBytes: r.maxResponseBytes,
      logLevel: r.logLevel,
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `MerchantGateway ${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}
