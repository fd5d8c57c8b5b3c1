/**
 * One webhook delivery per the Standard Webhooks specification (standardwebhooks.com): the
 * service's envelope as body, its `evt_…` id as `webhook-id`, the `v1` HMAC-SHA256 signature of the
 * SDK's signer and one POST with a 10 s limit.
 */
import { signWebhook, WEBHOOK_SECRET_PREFIX } from 'merchant-gateway/webhooks';
import type { RelayEvent } from './envelope';

export type { RelayEvent } from './envelope';

/** How long a receiver has to answer one delivery before it counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** A `--secret` that is not `whsec_` + base64 of 24 to 64 bytes (the specification's range). */
export class SecretFormatError extends Error {
  override readonly name = 'SecretFormatError';
}

/** The HMAC key behind a `whsec_…` secret; the message never repeats the secret. */
export function secretKey(secret: string): Buffer {
  const body = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : undefined;
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

/** The exact body POSTed: the service's envelope. */
export function bodyOf(event: RelayEvent): string {
  return JSON.stringify(event);
}

/** What one attempt came to: delivered, to try again, or the receiver is gone (410). */
export type AttemptOutcome = { ok: true } | { ok: false; gone: boolean; reason: string };

/** POSTs one event once; a 2xx within `timeoutMs` is a delivery, 410 ends deliveries. */
export async function attempt(
  url: string,
  secret: string,
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
        // The SDK's one signer (the mock's too): webhook-id is the envelope's id.
        ...(await signWebhook({ secret, id: event.id, timestamp: Date.now() / 1000, body })),
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
