/**
 * The service's webhook signature (Standard Webhooks, as Svix implements it): HMAC-SHA256 keyed
 * with the secret's base64-decoded bytes after `whsec_`, over `{id}.{timestamp}.{raw body}`,
 * written `v1,<base64>`, in Web Crypto (the verifier, verify.ts, uses `node:crypto` where it can).
 * One signer for the mock and the relay, so what they send is what the verifier accepts; it loads
 * with the entry, so it stays small.
 */

import { WEBHOOK_SECRET_PREFIX, webhookSecretBase64 } from '../rules/webhook-secret';

// The Web Crypto types by what the global `crypto` gives: the project's lib is ES2022 without
// the DOM, so the DOM names `CryptoKey` and `BufferSource` are not in scope.
type Subtle = typeof crypto.subtle;
/** A Web Crypto key (the DOM's `CryptoKey`). */
export type HmacKey = Awaited<ReturnType<Subtle['importKey']>>;
type Bytes = Parameters<Subtle['sign']>[2];

const encoder = new TextEncoder();

/** The raw body as the receiver got it: text, bytes, or an ArrayBuffer. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/**
 * The key bytes of a `whsec_…` secret (a bare base64 secret is taken too, as the reference
 * libraries take it), or `undefined` when it is not base64 of at least one byte.
 */
export function secretKeyBytes(secret: string): Uint8Array | undefined {
  const text = webhookSecretBase64(secret);
  if (text === undefined) return undefined;
  const binary = atob(text.padEnd(Math.ceil(text.length / 4) * 4, '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.length > 0 ? bytes : undefined;
}

/** A Web Crypto HMAC-SHA256 key for signing and verifying. */
export function importSigningKey(keyBytes: Uint8Array): Promise<HmacKey> {
  return crypto.subtle.importKey(
    'raw',
    keyBytes as Bytes,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

/** `{id}.{timestamp}.` followed by the body's exact bytes (for Web Crypto, which takes one buffer). */
function signedContent(id: string, timestamp: string, body: string | Uint8Array): Uint8Array {
  if (typeof body === 'string') return encoder.encode(`${id}.${timestamp}.${body}`);
  const head = encoder.encode(`${id}.${timestamp}.`);
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i] as number);
  return btoa(binary);
}

/** The base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with a Web Crypto key. */
export async function signatureOf(
  key: HmacKey,
  id: string,
  timestamp: string,
  body: string | Uint8Array,
): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, signedContent(id, timestamp, body) as Bytes);
  return toBase64(new Uint8Array(mac));
}

export interface SignInput {
  /** The endpoint's `whsec_…` secret. */
  secret: string;
  /** The message id (`webhook-id`), the same on every attempt of one delivery. */
  id: string;
  /** Unix seconds of this attempt (`webhook-timestamp`). */
  timestamp: number;
  /** The exact body that will be sent. */
  body: string;
}

/** The three headers of one delivery attempt, signed with the endpoint's secret. */
export async function signWebhook(input: SignInput): Promise<Record<string, string>> {
  const keyBytes = secretKeyBytes(input.secret);
  if (keyBytes === undefined) throw new TypeError('secret: must be whsec_ followed by base64');
  const key = await importSigningKey(keyBytes);
  const timestamp = String(Math.floor(input.timestamp));
  const signature = await signatureOf(key, input.id, timestamp, input.body);
  return {
    'webhook-id': input.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}

/** A fresh `whsec_…` secret of 24 random bytes (the service's secrets are of this form). */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${toBase64(crypto.getRandomValues(new Uint8Array(24)))}`;
}
