import type { MockCredentials } from '../../types';
import type { Operation } from './operation';
import { ServiceError } from './responses';

/** The `WCP-Version` values the mock implements: the published contract and its preview. */
export const API_VERSIONS = ['2026-02-18', '2026-02-19.preview'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/**
 * Header checks before auth, each only where the operation's contract has the code: a non-ASCII
 * value is 400 `header_not_ascii` on the payment operations (their shared code list has it;
 * merchant management names no such code and takes the value as it is, so a non-ASCII key is
 * simply not a valid one), an unknown `WCP-Version` is 400 `unknown_api_version` on the
 * operations that take the header (merchant management does not, and ignores it).
 */
export function checkHeaders(headers: Headers, operation: Operation): void {
  if (operation.errors === 'shared') {
    for (const [name, value] of headers) {
      if (!isAscii(value)) {
        throw new ServiceError(400, 'header_not_ascii', `Header ${name} must contain ASCII only`, {
          details: { header: name },
        });
      }
    }
  }
  const version = headers.get('wcp-version');
  if (operation.versioned && version !== null && !isApiVersion(version)) {
    throw new ServiceError(400, 'unknown_api_version', `Unknown WCP-Version ${version}`, {
      details: { supported: [...API_VERSIONS] },
    });
  }
}

function isApiVersion(value: string): value is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(value);
}

/** The version a request asked for with `WCP-Version`, if it is one the mock knows. */
export function requestedVersion(headers: Headers): ApiVersion | undefined {
  const version = headers.get('wcp-version');
  return version !== null && isApiVersion(version) ? version : undefined;
}

function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** An empty header counts as absent. */
function header(headers: Headers, name: string): string | undefined {
  return headers.get(name) || undefined;
}

/**
 * Authenticates as the operation's contract says, with the 401 codes it names: `missing_api_key`
 * and `invalid_api_key`. Only the gateway reads (`auth: 'app'`) also take `App-Id` with
 * `Client-Id` (the wallet scheme, its own codes in their shared list); elsewhere those headers
 * are not credentials and are ignored. Returns the principal, which scopes idempotency keys.
 */
export function authenticate(
  headers: Headers,
  credentials: MockCredentials,
  scheme: Operation['auth'],
): string {
  if (scheme === 'legacy') return authenticateLegacy(headers, credentials);
  const apiKey = header(headers, 'api-key');
  const appId = header(headers, 'app-id');
  const clientId = header(headers, 'client-id');
  if (scheme === 'app' && apiKey !== undefined && (appId ?? clientId) !== undefined) {
    throw new ServiceError(
      400,
      'conflicting_auth_headers',
      'Send either Api-Key or App-Id with Client-Id, not both',
    );
  }
  if (apiKey !== undefined) {
    if (apiKey !== credentials.apiKey) throw invalidApiKey();
    return 'api-key';
  }
  if (scheme === 'key' || (appId === undefined && clientId === undefined)) throw missingApiKey();
  if (clientId === undefined) {
    throw new ServiceError(401, 'missing_client_id', 'App-Id requires a Client-Id header');
  }
  if (appId === undefined) {
    throw new ServiceError(401, 'missing_app_id', 'Client-Id requires an App-Id header');
  }
  if (appId !== credentials.appId || clientId !== credentials.clientId) {
    throw new ServiceError(401, 'invalid_app_id', 'Invalid App-Id or Client-Id');
  }
  return `app:${appId}`;
}

/** The deprecated list's scheme: `X-Api-Key` with the legacy key, or the partner `Api-Key`. */
function authenticateLegacy(headers: Headers, credentials: MockCredentials): string {
  const legacyKey = header(headers, 'x-api-key');
  if (legacyKey !== undefined) {
    if (legacyKey !== credentials.legacyApiKey) throw invalidApiKey();
    return 'legacy-key';
  }
  const apiKey = header(headers, 'api-key');
  if (apiKey !== undefined) {
    if (apiKey !== credentials.apiKey) throw invalidApiKey();
    return 'api-key';
  }
  throw new ServiceError(401, 'missing_api_key', 'Missing API key: send X-Api-Key');
}

function missingApiKey(): ServiceError {
  return new ServiceError(401, 'missing_api_key', 'Missing API key: send Api-Key');
}

function invalidApiKey(): ServiceError {
  return new ServiceError(401, 'invalid_api_key', 'Invalid API key');
}
