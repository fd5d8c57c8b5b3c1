import { ConnectionError, ServerError, TimeoutError } from 'merchant-gateway';
import { describe, expect, it } from 'vitest';
import { HoldLimit, isIdleCut } from '../../../src/follow/hold-limit';

function proxyAnswer(status: number): ServerError {
  return new ServerError({
    method: 'GET',
    path: '/v1/payments/pay_1/status',
    status,
    code: undefined,
    message: `${status} from a proxy`,
    details: undefined,
    issues: undefined,
    requestId: undefined,
    headers: {},
    body: '<html></html>',
    retryAfterMs: undefined,
  });
}
const gatewayTimeout = () => proxyAnswer(504);
const badGateway = () => proxyAnswer(502);
const reset = () => new ConnectionError('socket hang up');

describe('what a held read that failed says about an intermediary', () => {
  it('a 504 or a dropped connection is an idle cut; a 502 or this client’s own timeout is not', () => {
    expect(isIdleCut(gatewayTimeout())).toBe(true);
    expect(isIdleCut(reset())).toBe(true);
    expect(isIdleCut(badGateway())).toBe(false);
    expect(isIdleCut(new TimeoutError('timed out'))).toBe(false);
  });
});

describe('the hold limit of a client', () => {
  it('is not lowered by one cut, a 502 after 12 s, or cuts of unlike lengths', () => {
    const limit = new HoldLimit();
    limit.failed(12_000, badGateway());
    limit.failed(12_000, badGateway());
    expect(limit.limitMs).toBe(30_000);
    limit.failed(6_000, reset());
    expect(limit.limitMs).toBe(30_000);
    limit.failed(14_000, reset());
    expect(limit.limitMs).toBe(30_000);
  });

  it('is lowered below a cut that repeats at a like length, never under 1 s', () => {
    const limit = new HoldLimit();
    limit.failed(25_200, gatewayTimeout());
    limit.failed(25_000, gatewayTimeout());
    expect(limit.limitMs).toBe(24_000);
    const short = new HoldLimit();
    short.failed(2_000, reset());
    short.failed(2_100, reset());
    expect(short.limitMs).toBe(1_000);
    expect(short.cap(30_000)).toBe(1_000);
  });

  it('forgets a cut once a held read lasted well past it', () => {
    const limit = new HoldLimit();
    limit.failed(6_000, reset());
    limit.held(20_000, 20_000);
    limit.failed(6_000, reset());
    expect(limit.limitMs).toBe(30_000);
  });

  it('rises again after full holds at the limit, and falls back at once if the cut comes back', () => {
    const limit = new HoldLimit();
    limit.failed(25_000, gatewayTimeout());
    limit.failed(25_000, gatewayTimeout());
    expect(limit.limitMs).toBe(24_000);
    // An answer on a change before the limit says nothing.
    limit.held(3_000, 24_000);
    for (let i = 0; i < 3; i++) limit.held(24_000, 24_000);
    expect(limit.limitMs).toBe(24_000);
    limit.held(24_000, 24_000);
    expect(limit.limitMs).toBe(27_000);
    limit.failed(25_000, gatewayTimeout());
    expect(limit.limitMs).toBe(24_000);
    // The next rise waits twice as many full holds.
    for (let i = 0; i < 7; i++) limit.held(24_000, 24_000);
    expect(limit.limitMs).toBe(24_000);
    limit.held(24_000, 24_000);
    expect(limit.limitMs).toBe(27_000);
  });
});
