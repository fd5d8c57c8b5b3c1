import { describe, expect, it } from 'vitest';
import { type ErrorBody, TRANSPORTS, useMockGateway } from '../../../support/mock-harness';

describe.each(TRANSPORTS)('failNext over %s', (transport) => {
  const h = useMockGateway(transport);
  const getMerchant = () =>
    h.call<ErrorBody>(`/v1/merchants/${h.mock.sample.merchantId}`, { headers: h.auth });

  it('answers the next request with the injected status and a { code, message } body', async () => {
    h.mock.failNext({ status: 500 });
    const failed = await getMerchant();
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ code: 'internal_error', message: expect.any(String) });
    expect((await getMerchant()).status).toBe(200);
  });

  it('applies before auth, with the given code and message', async () => {
    h.mock.failNext({ status: 503, code: 'maintenance', message: 'Back soon' });
    const res = await h.call<ErrorBody>('/v1/merchants/whatever');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 'maintenance', message: 'Back soon' });
  });

  it('sends Retry-After in seconds for an injected rate limit', async () => {
    h.mock.failNext({ status: 429, retryAfter: 2 });
    const res = await getMerchant();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.body.code).toBe('rate_limited');
  });

  it('sends a raw body as it is, such as a proxy HTML page', async () => {
    h.mock.failNext({ status: 502, body: '<html><body>Bad Gateway</body></html>' });
    const res = await getMerchant();
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.body).toBe('<html><body>Bad Gateway</body></html>');
    expect(res.headers.get('x-request-id')).toBeNull();
  });

  it('sends an empty body for an empty string, and an object body as JSON', async () => {
    h.mock.failNext({ status: 503, body: '' });
    h.mock.failNext({ status: 400, body: { code: 'rate_limited', message: 'slow down' } });
    const empty = await getMerchant();
    expect(empty.status).toBe(503);
    expect(empty.body).toBeUndefined();
    const custom = await getMerchant();
    expect(custom.status).toBe(400);
    expect(custom.body).toEqual({ code: 'rate_limited', message: 'slow down' });
  });

  it('drops the connection for a network error, so fetch rejects with a TypeError', async () => {
    h.mock.failNext({ networkError: true });
    await expect(getMerchant()).rejects.toBeInstanceOf(TypeError);
    expect((await getMerchant()).status).toBe(200);
  });

  it('fails as many requests as times says, then answers normally', async () => {
    h.mock.failNext({ status: 502, times: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await getMerchant()).status);
    expect(statuses).toEqual([502, 502, 502, 200]);
  });

  it('consumes faults first in, first out', async () => {
    h.mock.failNext({ status: 500 });
    h.mock.failNext({ status: 429 });
    expect((await getMerchant()).status).toBe(500);
    expect((await getMerchant()).status).toBe(429);
    expect((await getMerchant()).status).toBe(200);
  });

  it('applies only to requests matching method and path', async () => {
    h.mock.failNext({ status: 500, match: { method: 'post', path: /^\/v1\/payments$/ } });
    expect((await getMerchant()).status).toBe(200);
    const res = await h.call('/v1/payments', {
      method: 'POST',
      headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId },
      body: { referenceId: 'r', amount: { unit: 'iso4217/USD', value: '100' } },
    });
    expect(res.status).toBe(500);
    expect(h.mock.payments(h.mock.sample.merchantId)).toHaveLength(1000);
  });

  it('delays a normal answer by delayMs', async () => {
    h.mock.failNext({ delayMs: 60 });
    const started = performance.now();
    expect((await getMerchant()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('records fault-injected requests like any other', async () => {
    h.mock.failNext({ status: 500 });
    await getMerchant();
    expect(h.mock.requests).toHaveLength(1);
    expect(h.mock.requests[0]?.path).toBe(`/v1/merchants/${h.mock.sample.merchantId}`);
  });

  it('forgets pending faults on reset()', async () => {
    h.mock.failNext({ status: 500, times: 5 });
    h.mock.reset();
    expect((await getMerchant()).status).toBe(200);
  });
});

describe('failNext arguments', () => {
  const h = useMockGateway('fetch');

  it('throws for options that could never produce an answer', () => {
    expect(() => h.mock.failNext({})).toThrow(TypeError);
    expect(() => h.mock.failNext({ status: 99 })).toThrow(RangeError);
    expect(() => h.mock.failNext({ status: 500, times: 0 })).toThrow(RangeError);
  });

  it('stops waiting when the client aborts a delayed request', async () => {
    h.mock.failNext({ delayMs: 10_000 });
    const started = performance.now();
    await expect(
      h.mock.fetch(`https://gateway.test/v1/merchants/${h.mock.sample.merchantId}`, {
        headers: h.auth,
        signal: AbortSignal.timeout(30),
      }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
