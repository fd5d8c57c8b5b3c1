/**
 * One webhook delivery per the Standard Webhooks specification (standardwebhooks.com): the event
 * body, its stable id, the `v1` HMAC-SHA256 signature and one POST with a 10 s limit.
 */
import { createHash, createHmac } from 'node:crypto';
import type { PaymentStatusChange } from 'merchant-gateway';

/** How long a receiver has to answer one delivery before it counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** One event to deliver: the change, when the relay saw it, and its stable id. */
export interface RelayEvent {
  /** `webhook-id`: the same for the same change of the same payment, across retries and restarts. */
  id: string;
  /** When the relay learned of the change (ISO 8601): the body's `timestamp`, fixed once. */
  timestamp: string;
  data: PaymentStatusChange;
}

/** A `--secret` that is not `whsec_` + base64 of 24 to 64 bytes (the specification's range). */
export class SecretFormatError extends Error {
  override readonly name = 'SecretFormatError';
}

/** The HMAC key behind a `whsec_…` secret; the message never repeats the secret. */
export function secretKey(secret: string): Buffer {
  const body = secret.startsWith('whsec_') ? secret.slice(6) : undefined;
  if (body === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0) {
    throw new SecretFormatError(
      '--secret must be whsec_ followed by the base64 of 24 to 64 random bytes (e.g. whsec_ + `openssl rand -base64 32`)',
    );
  }
  const key = Buffer.from(body, 'base64');
  if (key.length < 24 || key.length > 64) {
    throw new SecretFormatError(
      `--secret must decode to 24 to 64 bytes, not ${key.length} (whsec_ + \`openssl rand -base64 32\`)`,
    );
  }
  return key;
}

/** The event id of a payment reaching a status: a payment reaches each status at most once. */
export function eventId(paymentId: string, status: string): string {
  const digest = createHash('sha256').update(`${paymentId}\n${status}`).digest('base64url');
  return `msg_${digest.slice(0, 32)}`;
}

/** An event for a status change, stamped now. */
export function eventOf(change: PaymentStatusChange, now = Date.now()): RelayEvent {
  return {
    id: eventId(change.paymentId, change.status),
    timestamp: new Date(now).toISOString(),
    data: change,
  };
}

/** The body POSTed: `{ type: "payment.<status>", timestamp, data }`. */
function bodyOf(event: RelayEvent): string {
  return JSON.stringify({
    type: `payment.${event.data.status}`,
    timestamp: event.timestamp,
    data: event.data,
  });
}

/** The three Standard Webhooks headers of one attempt (a fresh timestamp and signature each). */
function signedHeaders(
  key: Buffer,
  id: string,
  body: string,
  nowMs = Date.now(),
): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}

/** What one attempt came to: delivered, to try again, or the receiver is gone (410). */
export type AttemptOutcome = { ok: true } | { ok: false; gone: boolean; reason: string };

/** POSTs one event once; a 2xx within `timeoutMs` is a delivery, 410 ends deliveries. */
export async function attempt(
  url: string,
  key: Buffer,
  event: RelayEvent,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<AttemptOutcome> {
  const body = bodyOf(event);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'merchant-gateway-relay',
        ...signedHeaders(key, event.id, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The receiver's answer is not read beyond its status; cancel frees the connection.
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300) return { ok: true };
    return { ok: false, gone: response.status === 410, reason: `HTTP ${response.status}` };
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
    return { ok: false, gone: false, reason };
  }
}
