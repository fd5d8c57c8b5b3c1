import {
  ApiError,
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  type KnownErrorCode,
  NotFoundError,
  RateLimitedError,
  ServerError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { gateway, MERCHANT_URL, useMsw } from '../../support';

const server = useMsw();

type ErrorClass = typeof ApiError;

// Every code the published contract names, with the status it is declared under (or the one the
// service is seen to use), and the class the SDK's rule gives it: the code first, then the status.
// docs/errors.md's table of every code (and the README's short one) is this table.
const CODES: [KnownErrorCode, number, ErrorClass][] = [
  ['invalid_params', 400, InvalidRequestError],
  ['params_validation', 400, InvalidRequestError],
  ['missing_idempotency_key', 400, InvalidRequestError],
  ['header_not_ascii', 400, InvalidRequestError],
  ['invalid_api_version', 400, InvalidRequestError],
  ['unknown_api_version', 400, InvalidRequestError],
  ['api_version_downgrade', 400, InvalidRequestError],
  ['payment_not_succeeded', 400, InvalidRequestError],
  ['invalid_state', 400, InvalidRequestError],
  ['payment_expired', 400, InvalidRequestError],
  ['quote_expired', 400, InvalidRequestError],
  ['missing_api_key', 401, AuthenticationError],
  ['invalid_api_key', 401, AuthenticationError],
  ['missing_merchant_api_key', 401, AuthenticationError],
  ['missing_merchant_id', 401, AuthenticationError],
  ['not_sandbox_api_key', 401, AuthenticationError],
  ['api_key_not_found', 401, AuthenticationError],
  ['unauthorized', 401, AuthenticationError],
  ['conflicting_auth_headers', 401, AuthenticationError],
  ['missing_auth_headers', 401, AuthenticationError],
  ['missing_app_id', 401, AuthenticationError],
  ['missing_client_id', 401, AuthenticationError],
  ['invalid_app_id', 401, AuthenticationError],
  ['forbidden', 403, ApiError],
  ['sanctioned_user', 403, ApiError],
  ['not_found', 404, NotFoundError],
  ['merchant_not_found', 404, NotFoundError],
  ['payment_not_found', 404, NotFoundError],
  ['partner_not_found', 404, NotFoundError],
  ['customer_not_found', 404, NotFoundError],
  ['wallet_not_found', 404, NotFoundError],
  ['executor_not_found', 404, NotFoundError],
  ['idempotency_conflict', 409, ConflictError],
  ['settlement_asset_conflict', 409, ConflictError],
  ['version_conflict', 409, ConflictError],
  ['merchant_exists', 409, ConflictError],
  ['already_refunded', 409, ConflictError],
  ['rate_limited', 429, RateLimitedError],
  ['internal_error', 500, ServerError],
  ['bad_gateway', 502, ServerError],
];

async function errorFor(status: number, code: string): Promise<ApiError> {
  server.use(http.get(MERCHANT_URL, () => HttpResponse.json({ code, message: 'no' }, { status })));
  return (await gateway({ maxRetries: 0, maxRetryDelayMs: 0 })
    .merchants.get('mer_1')
    .catch((e: unknown) => e)) as ApiError;
}

describe('every code the contract names maps to its class', () => {
  test.each(CODES)('%s under %i', async (code, status, Class) => {
    const error = await errorFor(status, code);
    expect(error).toBeInstanceOf(Class);
    expect(error.constructor).toBe(Class);
    expect(error.code).toBe(code);
  });

  // The contract's rule: the code first, then the status.
  test.each<[string, number, ErrorClass]>([
    ['rate_limited', 400, RateLimitedError],
    ['internal_error', 400, ServerError],
    ['bad_gateway', 499, ServerError],
    ['payment_not_found', 400, NotFoundError],
    ['missing_api_key', 400, AuthenticationError],
    ['params_validation', 422, InvalidRequestError],
    ['already_refunded', 400, InvalidRequestError],
    ['a_code_from_tomorrow', 409, ConflictError],
    ['a_code_from_tomorrow', 418, ApiError],
  ])('%s under %i is a %O', async (code, status, Class) => {
    const error = await errorFor(status, code);
    expect(error.constructor).toBe(Class);
    expect(error.code).toBe(code);
  });
});
