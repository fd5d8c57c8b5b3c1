// `instanceof` on the error classes reads a brand, not the class's identity (issue 41.1): an error
// from another copy of the modules (here a second load of the source, as a second bundle would
// be) is an instance of this copy's classes, its own class and ancestors only; a user's own
// subclass keeps the ordinary prototype check; the brand shows in no JSON or inspect output.
// test/behaviour/errors-retries/error-family.test.ts shows the same on the built package.
import { inspect } from 'node:util';
import {
  ApiError,
  ConnectionError,
  MerchantGatewayError,
  PayError,
  RateLimitedError,
  TimeoutError,
} from 'merchant-gateway';
import { WebhookVerificationError } from 'merchant-gateway/webhooks';
import { describe, expect, test, vi } from 'vitest';

const API = {
  method: 'GET',
  path: '/v1/x',
  status: 429,
  code: 'rate_limited',
  message: 'm',
  details: undefined,
  issues: undefined,
  requestId: undefined,
  headers: {},
  body: undefined,
  retryAfterMs: undefined,
};

describe('error classes are judged by brand', () => {
  test('errors of a second copy of the modules are instances of this copy, by class', async () => {
    vi.resetModules();
    const other = await import('../../../src/core/errors/api-error');
    const otherBase = await import('../../../src/core/errors/base');
    const otherWebhooks = await import('../../../src/webhooks/errors');
    expect(other.RateLimitedError).not.toBe(RateLimitedError); // really another copy

    const limited = new other.RateLimitedError(API);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect(limited).toBeInstanceOf(ApiError);
    expect(limited).toBeInstanceOf(MerchantGatewayError);
    expect(limited instanceof ConnectionError).toBe(false);
    expect(limited instanceof PayError).toBe(false);

    const timeout = new otherBase.TimeoutError('t');
    expect(timeout).toBeInstanceOf(TimeoutError);
    expect(timeout).toBeInstanceOf(ConnectionError);
    expect(timeout instanceof ApiError).toBe(false);

    const refused = new otherWebhooks.WebhookVerificationError('invalid_payload', 'x');
    expect(refused).toBeInstanceOf(WebhookVerificationError);
    expect(refused).toBeInstanceOf(MerchantGatewayError);
    expect(refused instanceof ApiError).toBe(false);
    // And the other way round: this copy's errors are the other copy's.
    expect(new ApiError(API)).toBeInstanceOf(otherBase.MerchantGatewayError);
    expect(new ApiError(API) instanceof other.RateLimitedError).toBe(false);
  });

  test('what is not one of the errors is an instance of none', () => {
    for (const value of [
      null,
      undefined,
      'ApiError',
      1,
      {},
      new Error('x'),
      { name: 'ApiError' },
    ]) {
      expect(value instanceof MerchantGatewayError).toBe(false);
      expect(value instanceof ApiError).toBe(false);
    }
  });

  test("a user's subclass without a brand keeps the prototype check", () => {
    class MyError extends ApiError {}
    const mine = new MyError(API);
    expect(mine).toBeInstanceOf(MyError);
    expect(mine).toBeInstanceOf(ApiError);
    expect(mine).toBeInstanceOf(MerchantGatewayError);
    expect(new ApiError(API) instanceof MyError).toBe(false);
    expect(new RateLimitedError(API) instanceof MyError).toBe(false);
  });

  test('the brand is hidden: not in JSON, keys or inspect', () => {
    const error = new RateLimitedError(API);
    expect(Object.keys(error)).not.toContain('merchant-gateway.error');
    expect(JSON.stringify(error)).not.toContain('MerchantGatewayError');
    expect(inspect(error)).not.toContain('merchant-gateway.error');
  });
});
