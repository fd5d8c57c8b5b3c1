// What every client is built from, apart from any client class: the main entry's
// MerchantGateway and the buyer entry's BuyerClient both start here, and a bundle of the buyer
// entry carries none of the partner's resources.
import type { ClientOptions } from './client-options';
import { ConfigurationError } from './core/errors/base';
import type { CredentialSource } from './core/errors/failure';
import { type NumericOption, numericOptionProblem } from './core/http/prepare';
import { type RequestHooks, Transport } from './core/http/transport';
import { isLogLevel, LevelLogger, type LogLevel } from './core/logger';
import { ownProperties } from './core/safety/own-properties';
import { REDACTED, Redactor } from './core/safety/redact';
import { telemetryFrom } from './core/telemetry/option';
import type { BaseContext } from './resources/resource';
import { VERSION } from './version';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 2 ** 20;

/** `given` is the option as passed, `resolved` what the client uses (the option, else the env). */
function source(given: string | undefined, resolved: string | undefined): CredentialSource {
  if (resolved === undefined) return undefined;
  return given !== undefined ? 'option' : 'env';
}

/** An environment variable, or undefined when unset, empty or unreadable. */
export function env(name: string): string | undefined {
  const vars = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  let value: string | undefined;
  try {
    // Own variables only: an inherited `MERCHANT_GATEWAY_BASE_URL` would be a polluted prototype.
    value = vars !== undefined && Object.hasOwn(vars, name) ? vars[name] : undefined;
  } catch {
    return undefined; // Deno without --allow-env throws on reading: the variable reads as unset
  }
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
  const path = url.pathname.replace(/\/+$/, '');
  // Every path the SDK sends starts with /v1: a base URL ending in it would call /v1/v1/… and
  // fail every call as a 404. Refused rather than stripped: a gateway mounted under a real /v1
  // prefix would otherwise be called at the wrong path without a word.
  if (/\/v1$/i.test(path)) {
    throw new ConfigurationError(
      `baseUrl must not end in /v1: the SDK adds /v1 to every path itself; use ${url.origin}${path.slice(0, -3)}`,
    );
  }
  return `${url.origin}${path}`;
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

/** @internal A client's options once checked and defaulted. */
export interface ResolvedOptions {
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

function resolve(options: ClientOptions): ResolvedOptions {
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
    merchantId: options.merchantId ?? env('MERCHANT_GATEWAY_MERCHANT_ID'),
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
  const given = ownProperties(hooks);
  for (const name of ['beforeRequest', 'afterResponse'] as const) {
    const list = given[name];
    if (list !== undefined && (!Array.isArray(list) || list.some((h) => typeof h !== 'function'))) {
      throw new ConfigurationError(`hooks.${name} must be an array of functions`);
    }
  }
  return given;
}

/**
 * @internal What a client is made of: its options as given (own properties only), resolved, and
 * the context its resources share. `MerchantGateway` and the buyer entry's `BuyerClient` both
 * start here, so they check options, guard browsers and send requests alike.
 */
export function configureClient(given: ClientOptions): {
  options: ClientOptions;
  resolved: ResolvedOptions;
  context: BaseContext;
} {
  // Own properties only: a polluted Object.prototype (baseUrl, fetch, headers…) changes nothing.
  const options = ownProperties(given) as ClientOptions;
  const r = resolve(options);
  const redactor = new Redactor([r.apiKey, r.legacyApiKey, r.appId, r.clientId]);
  const authHeaders: Record<string, string> =
    r.apiKey !== undefined
      ? { 'Api-Key': r.apiKey }
      : { 'App-Id': r.appId as string, 'Client-Id': r.clientId as string };
  const transport = new Transport({
    baseUrl: r.baseUrl,
    authHeaders,
    legacyAuthHeaders: r.legacyApiKey !== undefined ? { 'X-Api-Key': r.legacyApiKey } : authHeaders,
    headers: {
      'Sdk-Name': 'merchant-gateway',
      'Sdk-Version': VERSION,
      'Sdk-Platform': platform(),
      ...(r.apiVersion !== undefined ? { 'WCP-Version': r.apiVersion } : {}),
      ...ownProperties(options.headers),
    },
    timeoutMs: r.timeoutMs,
    maxRetries: r.maxRetries,
    maxRetryDelayMs: r.maxRetryDelayMs,
    maxResponseBytes: r.maxResponseBytes,
    fetch: options.fetch,
    hooks: checkHooks(options.hooks),
    redactor,
    authSources: {
      apiKey: source(options.apiKey, r.apiKey),
      legacyApiKey: source(options.legacyApiKey, r.legacyApiKey),
    },
    // telemetry: checked here (a provider without getTracer/getMeter throws); undefined when off.
    telemetry: telemetryFrom(options.telemetry, r.baseUrl, redactor, VERSION),
    logger: new LevelLogger(
      options.logger ?? console,
      r.logLevel,
      redactor,
      options.logger !== undefined,
    ),
  });
  const context: BaseContext = { transport, merchantId: r.merchantId };
  return { options: { ...options }, resolved: r, context };
}

/** What `JSON.stringify` and `util.inspect` show of a client: its configuration, every key as `***`. */
export function describeClient(r: ResolvedOptions): Record<string, unknown> {
  const hide = (value: string | undefined) => (value === undefined ? undefined : REDACTED);
  // Every resolved option in its order, each key replaced where it stood.
  return {
    ...r,
    apiKey: hide(r.apiKey),
    appId: hide(r.appId),
    clientId: hide(r.clientId),
    legacyApiKey: hide(r.legacyApiKey),
  };
}
