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

/**
 * Checks one delivery and returns its event: `body` with `headers`, or a Fetch `Request` alone
 * (read once).
 */
export async function unwrapDelivery(
  keys: readonly HmacKey[],
  body: unknown,
  headers: WebhookHeaders | undefined,
  toleranceSeconds: number,
): Promise<WebhookEvent> {
  const read =
    headers === undefined && isRequest(body)
      ? await readRequest(body)
      : { body, headers: headers as WebhookHeaders };
  return parseWebhookEvent(await verifyDelivery(keys, read.body, read.headers, toleranceSeconds));
}

function isRequest(value: unknown): value is Request {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Request).arrayBuffer === 'function' &&
    typeof (value as Request).headers?.get === 'function'
  );
}

/** A Fetch `Request` read once: its raw body's bytes and its headers. */
async function readRequest(request: Request): Promise<{ body: Uint8Array; headers: Headers }> {
  if (request.bodyUsed) {
    throw new WebhookVerificationError(
      'invalid_payload',
      "the request's body was already read: pass that raw body and the headers instead, unwrap(body, request.headers)",
    );
  }
  return { body: new Uint8Array(await request.arrayBuffer()), headers: request.headers };
}
