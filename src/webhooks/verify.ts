/**
 * The verifier, loaded by `Webhooks` (webhooks.ts) on its first verification, so a client that
 * never receives webhooks does not ship it or the event schemas. It checks one delivery exactly
 * as the service signs it (Standard Webhooks, as Svix implements it): `webhook-*` headers, else
 * `svix-*`; HMAC-SHA256 keyed with the secret's bytes over `{id}.{timestamp}.{raw body}`; valid
 * when any `v1,` entry equals it, compared in constant time; the timestamp within the tolerance
 * either way; then parses the event.
 */
import * as z from 'zod/mini';
import { toIssues } from '../core/validate';
import { WebhookVerificationError } from './errors';
import { type WebhookEvent, WebhookEventSchema } from './events';
import { readBoundedBody, tooLarge } from './read-request';
import { importSigningKey, secretKeyBytes, signatureOf } from './signature';

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

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : Array.isArray(value) ? value.join(' ') : '';
}

/** The six names the scheme uses, lower-cased, each with its value ('' when absent). */
function lookup(headers: WebhookHeaders): (name: string) => string {
  if (isFetchHeaders(headers)) return (name) => headers.get(name) ?? '';
  const record = headers as Record<string, unknown>;
  // Node's `req.headers` is lower-cased already: the three names read directly, no scan.
  const own = (name: string) => Object.hasOwn(record, name);
  if (own(SETS[0].id) && own(SETS[0].timestamp) && own(SETS[0].signature)) {
    return (name) => (own(name) ? textOf(record[name]) : '');
  }
  const found = new Map<string, string>();
  for (const key of Object.keys(record)) {
    const name = key.toLowerCase();
    if (!NAMES.has(name)) continue;
    const text = textOf(record[key]);
    if (text !== '') found.set(name, text);
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
 * The raw body as text or bytes (a string is kept: HMAC and JSON.parse take it without a copy).
 * A parsed object (what `express.json()` leaves in `req.body`) cannot be verified: the signature
 * covers the bytes as sent, which re-serializing does not give back.
 */
function rawBody(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
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

interface NodeHmac {
  update(data: string | Uint8Array): NodeHmac;
  digest(encoding: 'base64'): string;
}
/** The part of `node:crypto` used here, typed locally: the package's types do not need Node's. */
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: Uint8Array): NodeHmac;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

/** `node:crypto` when `process.getBuiltinModule` gives it (read per key, so a test can hide it). */
function builtinCrypto(): NodeCrypto | undefined {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  return host.process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
}

/**
 * One secret made ready to sign: what a `v1,` entry holds for `{id}.{timestamp}.{body}`,
 * synchronously on the `node:crypto` path. The key bytes are decoded (or the Web Crypto key
 * imported) once, here, not per delivery.
 */
type Signer = (
  id: string,
  timestamp: string,
  body: string | Uint8Array,
) => string | Promise<string>;

/** A `Signer` for `keyBytes`: `node:crypto`'s HMAC when `builtin` is given, else Web Crypto's. */
function signerFor(keyBytes: Uint8Array, builtin = builtinCrypto()): Signer {
  if (builtin !== undefined) {
    // Each part fed in turn: the body is never copied into a joined buffer or string.
    return (id, timestamp, body) => {
      const hmac = builtin.createHmac('sha256', keyBytes);
      hmac.update(id);
      hmac.update('.');
      hmac.update(timestamp);
      hmac.update('.');
      return hmac.update(body).digest('base64');
    };
  }
  const key = importSigningKey(keyBytes);
  return async (id, timestamp, body) => signatureOf(await key, id, timestamp, body);
}

/** Two strings equal, in a time that depends on their length only, not on where they differ. */
function equalConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A key for each checked secret (see `Webhooks`): decoded or imported once per `Webhooks`. */
export interface VerifyKey {
  sign: Signer;
  equal: (a: string, b: string) => boolean;
}

/** Keys for checked secrets, on `node:crypto` where the runtime gives it, else Web Crypto. */
export function webhookKeys(secrets: readonly string[]): VerifyKey[] {
  const builtin = builtinCrypto();
  // timingSafeEqual over the texts' bytes, after the length check it needs.
  const equal =
    builtin === undefined
      ? equalConstantTime
      : (a: string, b: string) => {
          const left = encoder.encode(a);
          const right = encoder.encode(b);
          return left.length === right.length && builtin.timingSafeEqual(left, right);
        };
  return secrets.map((secret) => ({
    sign: signerFor(secretKeyBytes(secret) as Uint8Array, builtin),
    equal,
  }));
}

function noMatch(keys: readonly VerifyKey[], signed: SignedHeaders, v1: number, all: number) {
  return new WebhookVerificationError(
    'invalid_signature',
    `no v1 entry of ${signed.names.signature} (${v1} of ${all} entries are v1) matches the body signed with ${keys.length === 1 ? 'the secret' : `any of the ${keys.length} secrets`}: check that it is this endpoint's secret (test and live differ) and that the body is raw, not re-serialized`,
  );
}

/**
 * When one `v1` entry of the signature header equals the body signed with one of the keys (each
 * entry compared in constant time): nothing, synchronously on the `node:crypto` path; else
 * `invalid_signature`.
 */
function checkSignature(
  keys: readonly VerifyKey[],
  signed: SignedHeaders,
  body: string | Uint8Array,
): void | Promise<void> {
  const entries = signed.signature.split(' ').filter((entry) => entry !== '');
  const v1 = entries.filter((entry) => entry.startsWith('v1,')).map((entry) => entry.slice(3));
  const matches = (key: VerifyKey, expected: string) => {
    let match = false;
    // Every entry compared, so the time taken does not say which one matched.
    for (const candidate of v1) match = key.equal(candidate, expected) || match;
    return match;
  };
  const from = (index: number): void | Promise<void> => {
    for (let i = index; i < keys.length && v1.length > 0; i++) {
      const key = keys[i] as VerifyKey;
      const expected = key.sign(signed.id, signed.timestamp, body);
      if (typeof expected !== 'string') {
        return expected.then((text) => (matches(key, text) ? undefined : from(i + 1)));
      }
      if (matches(key, expected)) return;
    }
    throw noMatch(keys, signed, v1.length, entries.length);
  };
  return from(0);
}

/** How a delivery is judged: the tolerance of its timestamp and the bound of its body. */
export interface DeliveryLimits {
  toleranceSeconds: number;
  maxBodyBytes: number;
}

/** The body given whole, refused when over the bound (a string measured only when it may be). */
function boundedBody(body: unknown, maxBodyBytes: number): string | Uint8Array {
  const raw = rawBody(body);
  if (typeof raw === 'string') {
    // A UTF-16 unit is 1 to 3 UTF-8 bytes: a short string is within the bound unencoded.
    if (raw.length > maxBodyBytes) throw tooLarge(maxBodyBytes, `at least ${raw.length}`);
    if (raw.length * 3 <= maxBodyBytes) return raw;
    const size = encoder.encode(raw).byteLength;
    if (size > maxBodyBytes) throw tooLarge(maxBodyBytes, `${size}`);
    return raw;
  }
  if (raw.byteLength > maxBodyBytes) throw tooLarge(maxBodyBytes, `${raw.byteLength}`);
  return raw;
}

/** Checks one delivery; gives the body that was verified (synchronously on `node:crypto`). */
export function verifyDelivery(
  keys: readonly VerifyKey[],
  body: unknown,
  headers: WebhookHeaders,
  limits: DeliveryLimits,
): string | Uint8Array | Promise<string | Uint8Array> {
  const raw = boundedBody(body, limits.maxBodyBytes);
  const signed = readSignedHeaders(headers);
  checkTimestamp(signed, limits.toleranceSeconds, Date.now());
  const checked = checkSignature(keys, signed, raw);
  return checked === undefined ? raw : checked.then(() => raw);
}

/**
 * Checks one delivery and gives its event: `body` with `headers`, or a Fetch `Request` alone,
 * judged by its headers and timestamp before its body is read, and read within the bound.
 */
export async function unwrapDelivery(
  keys: readonly VerifyKey[],
  body: unknown,
  headers: WebhookHeaders | undefined,
  limits: DeliveryLimits,
): Promise<WebhookEvent> {
  if (headers !== undefined || !isRequest(body)) {
    const verified = verifyDelivery(keys, body, headers as WebhookHeaders, limits);
    // Parsed at once when verified synchronously (node:crypto): no extra turn of the event loop.
    return verified instanceof Promise
      ? parseWebhookEvent(await verified)
      : parseWebhookEvent(verified);
  }
  const signed = readSignedHeaders(body.headers);
  checkTimestamp(signed, limits.toleranceSeconds, Date.now());
  const bytes = await readBoundedBody(body, limits.maxBodyBytes);
  await checkSignature(keys, signed, bytes);
  return parseWebhookEvent(bytes);
}

function isRequest(value: unknown): value is Request {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Request).arrayBuffer === 'function' &&
    typeof (value as Request).headers?.get === 'function'
  );
}

// fatal: a body that is not UTF-8 is not the service's JSON (a lenient decode would hide that).
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The event in a verified body: JSON, with the envelope's five fields, and for a documented
 * payment type a snapshot that matches. Anything else is `invalid_payload`, naming the field
 * and never quoting the body (a JSON.parse message would).
 */
function parseWebhookEvent(body: string | Uint8Array): WebhookEvent {
  let json: unknown;
  try {
    json = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is not JSON in UTF-8');
  }
  const result = z.safeParse(WebhookEventSchema, json);
  if (result.success) return result.data;
  const issues = toIssues(result.error);
  const list = issues.map((i) => (i.field === '' ? i.message : `${i.field} ${i.message}`));
  throw new WebhookVerificationError(
    'invalid_payload',
    `the event does not have the service's shape: ${list.join('; ')}`,
    { issues },
  );
}
