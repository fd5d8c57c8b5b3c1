/**
 * Verifying one delivery exactly as the service signs it (Standard Webhooks, as Svix implements
 * it): `webhook-*` headers, else `svix-*`; HMAC-SHA256 keyed with the secret's bytes over
 * `{id}.{timestamp}.{raw body}`; valid when any `v1,` entry equals it, compared in constant time;
 * the timestamp within the tolerance either way. Web Crypto only, so it runs on Node, Workers,
 * Deno, Bun and browsers alike.
 */
import { WebhookVerificationError } from './errors';
import { type HmacKey, importSigningKey, secretKeyBytes, signatureOf } from './signature';

/**
 * A delivery's headers as a framework hands them over: a Fetch `Headers`, Node's
 * `IncomingHttpHeaders` (`req.headers`), or a plain record; names in any case.
 */
export type WebhookHeaders =
  | Headers
  | { readonly [name: string]: string | readonly string[] | undefined };

const SETS = [
  {
    prefix: 'webhook',
    id: 'webhook-id',
    timestamp: 'webhook-timestamp',
    signature: 'webhook-signature',
  },
  { prefix: 'svix', id: 'svix-id', timestamp: 'svix-timestamp', signature: 'svix-signature' },
] as const;
const NAMES: ReadonlySet<string> = new Set(SETS.flatMap((s) => [s.id, s.timestamp, s.signature]));

/** What the signature covers, read from one header set. */
export interface SignedHeaders {
  id: string;
  timestamp: string;
  signature: string;
  /** The header names read, for messages (`webhook-timestamp` or `svix-timestamp`). */
  names: (typeof SETS)[number];
}

function isFetchHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as { get?: unknown }).get === 'function';
}

/** The six names the scheme uses, lower-cased, each with its value ('' when absent). */
function lookup(headers: WebhookHeaders): (name: string) => string {
  if (isFetchHeaders(headers)) return (name) => headers.get(name) ?? '';
  const found = new Map<string, string>();
  if (typeof headers === 'object' && headers !== null) {
    for (const key of Object.keys(headers)) {
      const name = key.toLowerCase();
      if (!NAMES.has(name)) continue;
      const value = headers[key];
      const text = typeof value === 'string' ? value : Array.isArray(value) ? value.join(' ') : '';
      if (text !== '') found.set(name, text);
    }
  }
  return (name) => found.get(name) ?? '';
}

/**
 * The id, timestamp and signature of a delivery: the `webhook-*` set when any of it is present,
 * else the `svix-*` set. A missing one is `missing_header`, naming it.
 */
export function readSignedHeaders(headers: WebhookHeaders): SignedHeaders {
  if (typeof headers !== 'object' || headers === null) {
    throw new WebhookVerificationError(
      'missing_header',
      "no headers: pass the delivery's headers as received",
    );
  }
  const get = lookup(headers);
  const names =
    SETS.find(
      (set) => get(set.id) !== '' || get(set.timestamp) !== '' || get(set.signature) !== '',
    ) ?? SETS[0];
  const id = get(names.id);
  const timestamp = get(names.timestamp);
  const signature = get(names.signature);
  const missing = [names.id, names.timestamp, names.signature].filter((name) => get(name) === '');
  if (missing.length > 0) {
    throw new WebhookVerificationError(
      'missing_header',
      `missing header ${missing.join(', ')}${missing.length === 3 ? ' (or svix-*)' : ''}: pass the headers as received, and check that no proxy drops them`,
    );
  }
  return { id, timestamp, signature, names };
}

/**
 * Refuses a timestamp further than `toleranceSeconds` from `nowMs`, either way (`Infinity`: no
 * check), or one that is not whole Unix seconds.
 */
export function checkTimestamp(
  signed: SignedHeaders,
  toleranceSeconds: number,
  nowMs: number,
): void {
  const name = signed.names.timestamp;
  if (!/^\d{1,15}$/.test(signed.timestamp)) {
    throw new WebhookVerificationError('timestamp_out_of_range', `${name} is not Unix seconds`);
  }
  if (toleranceSeconds === Number.POSITIVE_INFINITY) return;
  const off = Math.floor(nowMs / 1000) - Number(signed.timestamp);
  if (Math.abs(off) <= toleranceSeconds) return;
  throw new WebhookVerificationError(
    'timestamp_out_of_range',
    `${name} is ${Math.abs(off)} s in the ${off > 0 ? 'past' : 'future'}, over the tolerance of ${toleranceSeconds} s: check this server's clock (replay stored deliveries with toleranceSeconds: Infinity)`,
  );
}

const encoder = new TextEncoder();

/**
 * The raw body's bytes. A parsed object (what `express.json()` leaves in `req.body`) cannot be
 * verified: the signature covers the bytes as sent, which re-serializing does not give back.
 */
export function bodyBytes(body: unknown): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (ArrayBuffer.isView(body))
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  // By tag rather than instanceof: an ArrayBuffer from another realm (a vm, a worker) is one too.
  if (Object.prototype.toString.call(body) === '[object ArrayBuffer]') {
    return new Uint8Array(body as ArrayBuffer);
  }
  if (typeof body === 'object' && body !== null) {
    // What a JSON parser leaves: it ran before unwrap, so the raw bytes are gone.
    throw new WebhookVerificationError(
      'invalid_payload',
      "the body is a parsed object, not the raw body: a JSON parser ran before unwrap, and the signed bytes do not come back from it. Express: an app-wide express.json() parses the body before the route's express.raw() sees it, so mount the webhook route, with express.raw({ type: 'application/json' }), before app.use(express.json()); Fastify: add a content-type parser with parseAs: 'buffer'; Fetch: pass the Request alone, unwrap(request)",
    );
  }
  throw new WebhookVerificationError(
    'invalid_payload',
    `the body must be the raw body as received (string, Uint8Array/Buffer or ArrayBuffer), not ${String(body)}: no body parser read it (Express: express.raw({ type: 'application/json' }) on the webhook route; Fetch: unwrap(request))`,
  );
}

/** Two strings equal, in a time that depends on their length only, not on where they differ. */
function equalConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Web Crypto keys for checked secrets (see `Webhooks`), imported once per `Webhooks`. */
export function importKeys(secrets: readonly string[]): Promise<HmacKey[]> {
  return Promise.all(
    secrets.map((secret) => importSigningKey(secretKeyBytes(secret) as Uint8Array)),
  );
}

/**
 * Resolves when one `v1` entry of the signature header equals the body signed with one of the
 * keys (each entry compared in constant time); else `invalid_signature`.
 */
export async function checkSignature(
  keys: readonly HmacKey[],
  signed: SignedHeaders,
  body: Uint8Array,
): Promise<void> {
  const entries = signed.signature.split(' ').filter((entry) => entry !== '');
  const v1 = entries.filter((entry) => entry.startsWith('v1,')).map((entry) => entry.slice(3));
  if (v1.length > 0) {
    for (const key of keys) {
      const expected = await signatureOf(key, signed.id, signed.timestamp, body);
      let match = false;
      // Every entry compared, so the time taken does not say which one matched.
      for (const candidate of v1) match = equalConstantTime(candidate, expected) || match;
      if (match) return;
    }
  }
  throw new WebhookVerificationError(
    'invalid_signature',
    `no v1 entry of ${signed.names.signature} (${v1.length} of ${entries.length} entries are v1) matches the body signed with ${keys.length === 1 ? 'the secret' : `any of the ${keys.length} secrets`}: check that it is this endpoint's secret (test and live differ) and that the body is raw, not re-serialized`,
  );
}
