import type { MockCredentials } from '../types';
import { ServiceError } from './responses';

/** The `WCP-Version` value the mock implements. */
export const API_VERSION = '2026-02-18';
/** Every `WCP-Version` the mock answers: the stable one and the preview that adds `checkout`. */
const API_VERSIONS: readonly string[] = [API_VERSION, '2026-02-19.preview'];

/** Header values must be ASCII; anything else is rejected before any other check. */
export function checkHeaders(headers: Headers): void {
  for (const [name, value] of headers) {
    if (!isAscii(value)) {
      throw new ServiceError(400, 'header_not_ascii', `Header ${name} must contain ASCII only`, {
        details: { header: name },
      });
    }
  }
  const version = headers.get('wcp-version');
  if (version !== null && !API_VERSIONS.includes(version)) {
    throw new ServiceError(400, 'unknown_api_version', `Unknown WCP-Version ${version}`, {
      details: { supported: API_VERSIONS },
    });
  }
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
 * The default security: `Api-Key`, or `App-Id` with `Client-Id`, never both. Returns the
 * authenticated principal, which scopes idempotency keys.
 */
export function authenticate(headers: Headers, credentials: MockCredentials): string {
  const apiKey = header(headers, 'api-key');
  const appId = header(headers, 'app-id');
  const clientId = header(headers, 'client-id');
  if (apiKey !== undefined && (appId !== undefined || clientId !== undefined)) {
    throw new ServiceError(
      400,
      'conflicting_auth_headers',
      'Send either Api-Key or App-Id with Client-Id, not both',
    );
  }
  if (apiKey !== undefined) {
    if (apiKey !== credentials.apiKey) throw unauthorized();
    return 'api-key';
  }
  if (appId === undefined && clientId === undefined) {
    throw new ServiceError(
      401,
      'missing_auth_headers',
      'Authentication required: send Api-Key, or App-Id with Client-Id',
    );
  }
  if (clientId === undefined) {
    throw new ServiceError(401, 'missing_client_id', 'App-Id requires a Client-Id header');
  }
  if (appId === undefined) {
    throw new ServiceError(401, 'missing_app_id', 'Client-Id requires an App-Id header');
  }
  if (appId !== credentials.appId || clientId !== credentials.clientId) throw unauthorized();
  return `app:${appId}`;
}

/** The deprecated list's scheme: `X-Api-Key` with the legacy key, or the partner `Api-Key`. */
export function authenticateLegacy(headers: Headers, credentials: MockCredentials): string {
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

function unauthorized(): ServiceError {
  return new ServiceError(401, 'unauthorized', 'Invalid credentials');
}

function invalidApiKey(): ServiceError {
  return new ServiceError(401, 'invalid_api_key', 'Invalid API key');
}
