import { describe, expect, it } from 'vitest';
import { GATEWAY_ERROR_CODES, gatewayCodeFor } from '../../../src/rules/gateway-errors';

describe('the gateway’s ErrorCode enum', () => {
  it('has the 35 codes of the published contract, and no not_found', () => {
    expect(GATEWAY_ERROR_CODES).toHaveLength(35);
    expect(GATEWAY_ERROR_CODES).not.toContain('not_found');
  });

  it.each([
    [404, 'not_found', 'payment_not_found'],
    [429, 'slow_down', 'rate_limited'],
    [502, 'bad_gateway', 'internal_error'],
    [405, 'method_not_allowed', 'invalid_params'],
    [413, 'payload_too_large', 'invalid_params'],
    [400, 'quote_expired', 'quote_expired'],
  ])('words %i %s as %s', (status, code, expected) => {
    expect(gatewayCodeFor(status, code)).toBe(expected);
  });
});
