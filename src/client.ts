import { clientParts, describeClient, type Resolved } from './client-parts';
import type { Logger, LogLevel } from './core/logger';
import type { RequestHooks } from './core/transport';
import { HoldLimit } from './follow/hold-limit';
import { Buyer } from './resources/buyer';
import { LegacyPayments } from './resources/legacy-payments';
import { Merchants } from './resources/merchants';
import { PartnerPayments } from './resources/partner-payments';
import { Payments } from './resources/payments';
import { Refunds } from './resources/refunds';
import { Settlements } from './resources/settlements';

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
  /** The buyer's side (the Gateway API): read, quote, sign and confirm a payment as its buyer. */
  readonly buyer: Buyer;

  readonly #options: ClientOptions;
  readonly #resolved: Resolved;

  constructor(given: ClientOptions = {}) {
    const parts = clientParts(given);
    const { options, resolved } = parts;
    // What follows learn, per client; the buyer entry's client has none (client-parts.ts).
    const context = { ...parts.context, holdLimit: new HoldLimit() };
    this.#options = options;
    this.#resolved = resolved;
    this.merchants = new Merchants(context);
    this.settlements = new Settlements(context);
    this.payments = new Payments(context);
    this.partnerPayments = new PartnerPayments(context);
    this.legacyPayments = new LegacyPayments(context);
    this.refunds = new Refunds(context);
    this.buyer = new Buyer(context);
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
    return describeClient(this.#resolved);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `MerchantGateway ${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}
