// What verifying and parsing a delivery runs: loaded by `Webhooks` (webhooks.ts) on its first
// verification, so a client that never receives webhooks does not ship the verifier and the
// event schemas.
import type { WebhookEvent } from './events';
import { parseWebhookEvent } from './parse';
import { readBoundedBody, tooLarge } from './read-request';
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

/** How a delivery is judged: the tolerance of its timestamp and the bound of its body. */
export interface DeliveryLimits {
  toleranceSeconds: number;
  maxBodyBytes: number;
}

/** The bytes of a body given whole, refused when over the bound (a string before encoding it). */
function boundedBytes(body: unknown, maxBodyBytes: number): Uint8Array {
  // Each UTF-16 unit is at least one UTF-8 byte: a string this long is over without encoding it.
  if (typeof body === 'string' && body.length > maxBodyBytes) {
    throw tooLarge(maxBodyBytes, `at least ${body.length}`);
  }
  const bytes = bodyBytes(body);
  if (bytes.byteLength > maxBodyBytes) throw tooLarge(maxBodyBytes, `${bytes.byteLength}`);
  return bytes;
}

/** Checks one delivery; resolves with the bytes that were verified. */
export async function verifyDelivery(
  keys: readonly HmacKey[],
  body: unknown,
  headers: WebhookHeaders,
  limits: DeliveryLimits,
): Promise<Uint8Array> {
  const bytes = boundedBytes(body, limits.maxBodyBytes);
  const signed = readSignedHeaders(headers);
  checkTimestamp(signed, limits.toleranceSeconds, Date.now());
  await checkSignature(keys, signed, bytes);
  return bytes;
}

/**
 * Checks one delivery and returns its event: `body` with `headers`, or a Fetch `Request` alone,
 * judged by its headers and timestamp before its body is read, and read within the bound.
 */
export async function unwrapDelivery(
  keys: readonly HmacKey[],
  body: unknown,
  headers: WebhookHeaders | undefined,
  limits: DeliveryLimits,
): Promise<WebhookEvent> {
  if (headers !== undefined || !isRequest(body)) {
    return parseWebhookEvent(await verifyDelivery(keys, body, headers as WebhookHeaders, limits));
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
