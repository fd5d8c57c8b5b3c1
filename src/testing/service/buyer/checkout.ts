/** The preview `checkout` field of `POST /v1/payments`: checked, then kept beside the payment. */
import { CHECKOUT_API_VERSION, CHECKOUT_URL_RULE, isCheckoutUrl } from '../../../rules/checkout';
import type { PaymentRecord } from '../../state/records';
import type { Issue } from '../http/responses';

export interface CheckoutUrls {
  successUrl: string;
  errorUrl: string;
}

/** Kept beside the records (like cancellations), so `reset()` forgets them with the payments. */
const checkouts = new WeakMap<PaymentRecord, CheckoutUrls>();

export function checkoutOf(payment: PaymentRecord): CheckoutUrls | undefined {
  return checkouts.get(payment);
}

export function setCheckout(payment: PaymentRecord, urls: CheckoutUrls | undefined): void {
  if (urls) checkouts.set(payment, urls);
}

/**
 * `checkout` of a create body: absent or null, or `{ successUrl, errorUrl }` under
 * `WCP-Version: 2026-02-19.preview`. Without that version the mock refuses it, where a service on
 * 2026-02-18 would drop it silently and the buyer would never be sent back: a test should see that.
 */
export function checkCheckout(
  issues: Issue[],
  value: unknown,
  apiVersion: string | null,
): CheckoutUrls | undefined {
  if (value === undefined || value === null) return undefined;
  if (apiVersion !== CHECKOUT_API_VERSION) {
    issues.push({
      field: 'checkout',
      message: `is a ${CHECKOUT_API_VERSION} field: send WCP-Version: ${CHECKOUT_API_VERSION}`,
    });
    return undefined;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    issues.push({
      field: 'checkout',
      message: 'must be an object { successUrl, errorUrl } or null',
    });
    return undefined;
  }
  const given = value as Record<string, unknown>;
  const urls: Partial<CheckoutUrls> = {};
  for (const field of ['successUrl', 'errorUrl'] as const) {
    const url = given[field];
    if (typeof url !== 'string') {
      issues.push({ field: `checkout.${field}`, message: 'is required: a string' });
    } else if (!isCheckoutUrl(url)) {
      issues.push({ field: `checkout.${field}`, message: CHECKOUT_URL_RULE });
    } else {
      urls[field] = url;
    }
  }
  return urls.successUrl !== undefined && urls.errorUrl !== undefined
    ? { successUrl: urls.successUrl, errorUrl: urls.errorUrl }
    : undefined;
}
