/**
 * The gateway's `ErrorCode` enum (published contract 2026-02-18): the only codes the payment
 * operations and the buyer's Gateway API answer with. Strict clients (the official wallet SDK)
 * refuse any other code ("unknown variant"), so the mock never sends one on those routes.
 */
export const GATEWAY_ERROR_CODES = [
  'rate_limited',
  'invalid_params',
  'params_validation',
  'payment_not_found',
  'idempotency_conflict',
  'internal_error',
  'invalid_api_key',
  'unauthorized',
  'forbidden',
  'invalid_state',
  'payment_expired',
  'quote_expired',
  'missing_api_key',
  'missing_merchant_api_key',
  'missing_merchant_id',
  'header_not_ascii',
  'not_sandbox_api_key',
  'merchant_not_found',
  'merchant_exists',
  'api_key_not_found',
  'partner_not_found',
  'customer_not_found',
  'wallet_not_found',
  'executor_not_found',
  'missing_app_id',
  'missing_client_id',
  'invalid_app_id',
  'conflicting_auth_headers',
  'missing_auth_headers',
  'invalid_api_version',
  'unknown_api_version',
  'api_version_downgrade',
  'sanctioned_user',
  'payment_not_succeeded',
  'already_refunded',
] as const;
export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

const CODES: ReadonlySet<string> = new Set(GATEWAY_ERROR_CODES);

function isGatewayErrorCode(code: string): code is GatewayErrorCode {
  return CODES.has(code);
}

/**
 * The enum code for an answer whose own code is not in the enum: 404 is `payment_not_found` (the
 * gateway names everything by its payment), 429 `rate_limited`, 5xx `internal_error`, any other
 * 4xx `invalid_params`.
 */
export function gatewayCodeFor(status: number, code: string): GatewayErrorCode {
  if (isGatewayErrorCode(code)) return code;
  if (status === 404) return 'payment_not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'internal_error';
  return 'invalid_params';
}
