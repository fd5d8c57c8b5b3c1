/** The preview checkout redirects of `POST /v1/payments`, shared by the SDK and the mock. */
import { isHttpsUrl } from './merchants';

/** The contract version that adds `checkout` to `POST /v1/payments` (sent as `WCP-Version`). */
export const CHECKOUT_API_VERSION = '2026-02-19.preview';

/** What `checkoutUrl` accepts, as an issue message says it. */
export const CHECKOUT_URL_RULE =
  'must be an absolute https:// URL (http:// only on localhost, 127.0.0.0/8 or [::1], for local development)';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A `successUrl` or `errorUrl`: the contract says "HTTPS URL" (no pattern). An `http:` URL on a
 * loopback host is accepted too, so a shop running on this machine can be sent the buyer by the
 * mock; a service is free to refuse it, so production code sends https.
 */
export function isCheckoutUrl(value: string): boolean {
  if (isHttpsUrl(value)) return true;
  // The same URI rules with the other scheme, then the host must be this machine.
  if (!/^http:/i.test(value) || !isHttpsUrl(`https:${value.slice(5)}`)) return false;
  return LOOPBACK.test(new URL(value).hostname);
}
