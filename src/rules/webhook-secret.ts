/** The service's webhook secret and timestamp rules (facts: docs/webhooks.md). */

/** How far a delivery's timestamp may be from the receiver's clock, either way, by default. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** What every endpoint secret the service shows starts with: `whsec_` then base64 key bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * The base64 text of an endpoint secret (after `whsec_`; a bare base64 secret is taken too, as
 * the reference libraries take it), or `undefined` when it is not base64 of at least one byte.
 */
export function webhookSecretBase64(secret: string): string | undefined {
  const text = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(text) && text.length % 4 !== 1 ? text : undefined;
}
