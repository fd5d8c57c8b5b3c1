import type { ZodMiniType } from 'zod/mini';
import { isSafeHeaderValue } from '../../rules/headers';
import { RequestValidationError, type ValidationIssue } from '../errors/base';
import type { RequestSpec, TransportConfig } from './spec';

/** Headers only the SDK sets: a custom header or a hook never changes them. */
export const SDK_OWNED = [
  'api-key',
  'x-api-key',
  'app-id',
  'client-id',
  'merchant-id',
  'idempotency-key',
];

export function checkHeaders(operation: string, headers: Record<string, string>): void {
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      issues.push({ field: 'headers', message: 'a header name is not a valid token' });
    } else if (typeof value !== 'string' || !isSafeHeaderValue(value)) {
      // The value is never quoted: it may be a key.
      issues.push({
        field: `headers.${name}`,
        message: 'must be printable ASCII (no CR, LF, other control or non-ASCII characters)',
      });
    }
  }
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
}

/**
 * Later sources win, whatever the case of a name: fetch joins `api-key` and `Api-Key` into one
 * `a, b` value, so a custom header must replace the SDK's auth, Merchant-Id or Idempotency-Key
 * outright or not at all (the SDK's own come last).
 */
function mergeHeaders(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const byName = new Map<string, [string, string]>();
  for (const source of sources) {
    // Object.entries reads own properties only: nothing inherited becomes a header.
    for (const [name, value] of Object.entries(source ?? {})) {
      byName.set(name.toLowerCase(), [name, value]);
    }
  }
  return Object.fromEntries(byName.values());
}

/** `headers` with lowercase names (the form fetch sends them in), later sources winning. */
function lowercased(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) out[name.toLowerCase()] = value;
  }
  return out;
}

/** What every call of one auth scheme starts from, merged and checked once per client. */
export interface SchemeHeaders {
  /** `accept`, the client's headers, then the scheme's auth: lowercase name → value. */
  base: Record<string, string>;
  /** The auth headers' lowercase names: a call's own headers never replace them. */
  auth: ReadonlySet<string>;
  /** False when the client's headers break a rule: every call then takes the full check, which names it. */
  clean: boolean;
}

export function schemeHeaders(
  config: TransportConfig,
  auth: Record<string, string>,
): SchemeHeaders {
  let clean = true;
  try {
    checkHeaders('', mergeHeaders(config.headers, auth));
  } catch {
    clean = false;
  }
  return {
    base: lowercased({ accept: 'application/json' }, config.headers, auth),
    auth: new Set(Object.keys(auth).map((name) => name.toLowerCase())),
    clean,
  };
}

/**
 * The headers a call sends (lowercase names), checked. Without headers of the call's own and
 * with clean client headers, only what changes per call is merged and checked.
 */
export function callHeaders(
  config: TransportConfig,
  scheme: SchemeHeaders,
  spec: Pick<RequestSpec<ZodMiniType, unknown>, 'operation' | 'headers' | 'auth' | 'body'>,
  headersOfCall: Record<string, string> | undefined,
  idempotencyKey: string | undefined,
): Record<string, string> {
  const { operation } = spec;
  let headers: Record<string, string>;
  if (headersOfCall === undefined && scheme.clean) {
    headers = { ...scheme.base };
    if (spec.headers !== undefined) {
      checkHeaders(operation, spec.headers);
      for (const [name, value] of Object.entries(spec.headers)) {
        const lower = name.toLowerCase();
        if (!scheme.auth.has(lower)) headers[lower] = value;
      }
    }
  } else {
    const sent = mergeHeaders(
      config.headers,
      headersOfCall,
      spec.headers,
      spec.auth === 'legacy' ? config.legacyAuthHeaders : config.authHeaders,
      idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey },
      spec.body === undefined ? undefined : { 'content-type': 'application/json' },
    );
    checkHeaders(operation, sent);
    return lowercased({ accept: 'application/json' }, sent);
  }
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

/** The SDK's own headers as a call sends them: set again after every beforeRequest hook. */
export function pinnedHeaders(headers: Record<string, string>): [string, string][] {
  return SDK_OWNED.flatMap((name): [string, string][] => {
    // Own names only: an inherited `merchant-id` is no header of this call.
    const value = Object.hasOwn(headers, name) ? headers[name] : undefined;
    return value === undefined ? [] : [[name, value]];
  });
}
