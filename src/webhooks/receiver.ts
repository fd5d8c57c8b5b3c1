// What verifying and parsing a delivery runs: loaded by `Webhooks` (webhooks.ts) on its first
// verification, so a client that never receives webhooks does not ship the verifier and the
// event schemas.
import { WebhookVerificationError } from './errors';
import type { WebhookEvent } from './events';
import { parseWebhookEvent } from './parse';
import type { HmacKey } from './signature';
import {
  bodyBytes,
  checkSignature,
  checkTimestamp,
  importKeys,
  readSignedHeaders,
  type WebhookHeaders,
} from './verify';

export { importKeys };

/** Checks one delivery; resolves with the bytes that were verified. */
export async function verifyDelivery(
  keys: readonly HmacKey[],
  body: unknown,
  headers: WebhookHeaders,
  toleranceSeconds: number,
): Promise<Uint8Array> {
  const bytes = bodyBytes(body);
  const signed = readSignedHeaders(headers);
  checkTimestamp(signed, toleranceSeconds, Date.now());
  await checkSignature(keys, signed, bytes);
  return bytes;
}

/** Checks one delivery and returns its event. */
export async function unwrapDelivery(
  keys: readonly HmacKey[],
  body: unknown,
  headers: WebhookHeaders,
  toleranceSeconds: number,
): Promise<WebhookEvent> {
  return parseWebhookEvent(await verifyDelivery(keys, body, headers, toleranceSeconds));
}

/** A Fetch `Request` read once: its raw body's bytes and its headers. */
export async function readRequest(
  request: Request,
): Promise<{ body: Uint8Array; headers: Headers }> {
  if (request.bodyUsed) {
    throw new WebhookVerificationError(
      'invalid_payload',
      "the request's body was already read: pass that raw body and the headers instead, unwrap(body, request.headers)",
    );
  }
  return { body: new Uint8Array(await request.arrayBuffer()), headers: request.headers };
}
