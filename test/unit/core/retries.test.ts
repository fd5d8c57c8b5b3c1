import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  ServerError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  recorder as anyRecorder,
  BASE_URL,
  createdBody,
  gateway,
  merchantBody,
  merchantGetBody,
  paymentParams,
  useMsw,
} from '../../support';

const server = useMsw();
// A fake clock is exact only with one connection per request (see lastOnConnection).
const recorder: typeof anyRecorder = (respond) => anyRecorder(respond, { oneConnectionEach: true });
const MERCHANTS = `${BASE_URL}/v1/merchants`;
const PAYMENTS = `${BASE_URL}/v1/payments`;
const newMerchant = { merchantName: 'Acme', merchantEmail: 'pay@acme.io' };
const newPayment = paymentParams;

// p-retry loads at a process's first retry, in real time: loaded before the fake clock starts,
// every test's first wait is on that clock from its first millisecond.
beforeAll(async () => {
  await import('p-retry');
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets pending timers and the I/O they start run, `ms` at a time. */
async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

describe('idempotency keys', () => {
  test('every attempt of one merchants.create carries the same generated UUID v4 key', async () => {
    const r = recorder((_, n) =>
      n < 3
        ? new HttpResponse(null, { status: 503 })
        : HttpResponse.json(merchantBody, { status: 201 }),
    );
    server.use(http.post(MERCHANTS, r.resolver));
    const done = gateway().merchants.create(newMerchant);
    await advance(20_000);
    await expect(done).resolves.toMatchObject({ id: 'mer_1' });
    const keys = r.seen.map((req) => req.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  test('a UUID v4 key is generated where crypto.randomUUID is missing', async () => {
    vi.stubGlobal('crypto', {
      getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto),
    });
    const r = recorder(() => HttpResponse.json(merchantBody, { status: 201 }));
    server.use(http.post(MERCHANTS, r.resolver));
    await gateway().merchants.create(newMerchant);
    expect(r.seen[0]?.headers.get('idempotency-key')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  test('two calls get two different keys', async () => {
    const r = recorder(() => HttpResponse.json(merchantBody, { status: 201 }));
    server.use(http.post(MERCHANTS, r.resolver));
    await gateway().merchants.create(newMerchant);
    await gateway().merchants.create(newMerchant);
    expect(r.seen[0]?.headers.get('idempotency-key')).not.toBe(
      r.seen[1]?.headers.get('idempotency-key'),
    );
  });

  test("the caller's key is sent as given on every attempt", async () => {
    const r = recorder((_, n) =>
      n === 1
        ? new HttpResponse(null, { status: 500 })
        : HttpResponse.json(createdBody, { status: 201 }),
    );
    server.use(http.post(PAYMENTS, r.resolver));
    const done = gateway().payments.create(newPayment, { idempotencyKey: 'order-1' });
    await advance(10_000);
    await done;
    expect(r.seen.map((req) => req.headers.get('idempotency-key'))).toEqual(['order-1', 'order-1']);
  });

  test('payments.create sends a generated key when given none, so it can be retried', async () => {
    const r = recorder(() => HttpResponse.json(createdBody, { status: 201 }));
    server.use(http.post(PAYMENTS, r.resolver));
    await gateway().payments.create(newPayment);
    expect(r.seen[0]?.headers.get('idempotency-key')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('rate limiting is retried on every call', () => {
  test.each([400, 429, 500])('a rate_limited body under status %i is retried', async (status) => {
    const r = recorder((_, n) =>
      n === 1
        ? HttpResponse.json({ code: 'rate_limited', message: 'slow down' }, { status })
        : HttpResponse.json(createdBody, { status: 201 }),
    );
    server.use(http.post(PAYMENTS, r.resolver));
    const done = gateway().payments.create(newPayment);
    await advance(10_000);
    await expect(done).resolves.toMatchObject({ paymentId: 'pay_1' });
    expect(r.seen).toHaveLength(2);
  });

  test('Retry-After: 2 waits two seconds before the retry', async () => {
    // No jitter on top of the service's wait: it is slept exactly.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const r = recorder((_, n) =>
      n === 1
        ? HttpResponse.json(
            { code: 'rate_limited', message: 'wait' },
            { status: 429, headers: { 'Retry-After': '2' } },
          )
        : HttpResponse.json(merchantGetBody),
    );
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const done = gateway().merchants.get('mer_1');
    await advance(1_990);
    expect(r.seen).toHaveLength(1);
    await advance(20);
    await done;
    expect(r.seen).toHaveLength(2);
  });

  test('an HTTP-date Retry-After and retry-after-ms are honoured', async () => {
    // No jitter on top of the service's wait: it is slept exactly.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    // HTTP dates have whole seconds: start on one so the wait is exactly 3 s.
    vi.setSystemTime(new Date('2026-03-01T12:00:00.000Z'));
    const r = recorder((_, n) => {
      if (n === 1) {
        const at = new Date(Date.now() + 3_000).toUTCString();
        return new HttpResponse(null, { status: 429, headers: { 'Retry-After': at } });
      }
      if (n === 2)
        return new HttpResponse(null, { status: 429, headers: { 'retry-after-ms': '1500' } });
      return HttpResponse.json(merchantGetBody);
    });
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const done = gateway().merchants.get('mer_1');
    await advance(2_000);
    expect(r.seen).toHaveLength(1);
    await advance(1_000); // t = 3 s
    expect(r.seen).toHaveLength(2);
    await advance(1_490);
    expect(r.seen).toHaveLength(2);
    await advance(20); // t = 4.51 s
    await done;
    expect(r.seen).toHaveLength(3);
  });

  // HTTP dates are the server's clock: read against its Date header, skew between the clocks
  // neither stretches a short wait past maxRetryDelayMs nor turns it into an immediate retry.
  test.each([20, 45, 59, 61, -30])(
    'a server clock %i s off asking for "its now + 1 s" is waited 1 s',
    async (skewSeconds) => {
      vi.spyOn(Math, 'random').mockReturnValue(0);
      vi.setSystemTime(new Date('2026-03-01T12:00:00.000Z'));
      const r = recorder((_, n) => {
        if (n > 1) return HttpResponse.json(merchantGetBody);
        const serverNow = Date.now() + skewSeconds * 1000;
        return new HttpResponse(null, {
          status: 429,
          headers: {
            date: new Date(serverNow).toUTCString(),
            'retry-after': new Date(serverNow + 1_000).toUTCString(),
          },
        });
      });
      server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
      const done = gateway({ maxRetryDelayMs: 60_000 }).merchants.get('mer_1');
      done.catch(() => {});
      await advance(990);
      expect(r.seen).toHaveLength(1);
      await advance(20);
      expect(r.seen).toHaveLength(2);
      await expect(done).resolves.toMatchObject({ id: 'mer_1' });
    },
  );

  test('without a usable Date header an HTTP-date Retry-After is read against this clock', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    vi.setSystemTime(new Date('2026-03-01T12:00:00.000Z'));
    const r = recorder((_, n) =>
      n > 1
        ? HttpResponse.json(merchantGetBody)
        : new HttpResponse(null, {
            status: 429,
            headers: {
              date: 'not a date',
              'retry-after': new Date(Date.now() + 2_000).toUTCString(),
            },
          }),
    );
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const done = gateway().merchants.get('mer_1');
    await advance(1_990);
    expect(r.seen).toHaveLength(1);
    await advance(20);
    await expect(done).resolves.toMatchObject({ id: 'mer_1' });
  });

  test('a Retry-After beyond maxRetryDelayMs throws at once with retryAfterMs', async () => {
    const r = recorder(() =>
      HttpResponse.json(
        { code: 'rate_limited', message: 'later' },
        { status: 429, headers: { 'Retry-After': '120' } },
      ),
    );
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const error = await gateway({ maxRetryDelayMs: 60_000 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(120_000);
    expect(r.seen).toHaveLength(1);
  });

  test('without Retry-After it backs off exponentially, at most maxRetries times', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const r = recorder(() => new HttpResponse(null, { status: 429 }));
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const done = gateway({ maxRetries: 3 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    await advance(499);
    expect(r.seen).toHaveLength(1);
    await advance(1); // 500 ms
    expect(r.seen).toHaveLength(2);
    await advance(1_000); // then 1 s
    expect(r.seen).toHaveLength(3);
    await advance(2_000); // then 2 s
    expect(r.seen).toHaveLength(4);
    expect(await done).toBeInstanceOf(RateLimitedError);
  });

  test('a Retry-After shorter than the backoff waits the backoff: no wait is shorter than either', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const r = recorder((_, n) =>
      n === 1
        ? new HttpResponse(null, { status: 429, headers: { 'retry-after-ms': '100' } })
        : HttpResponse.json(merchantGetBody),
    );
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const done = gateway().merchants.get('mer_1');
    await advance(490);
    expect(r.seen).toHaveLength(1);
    await advance(20); // the backoff's first wait, 500 ms
    await expect(done).resolves.toMatchObject({ id: 'mer_1' });
    expect(r.seen).toHaveLength(2);
  });

  test('a later retry that asks past maxRetryDelayMs throws at once with retryAfterMs', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const r = recorder((_, n) =>
      n === 1
        ? new HttpResponse(null, { status: 503 })
        : new HttpResponse(null, { status: 429, headers: { 'Retry-After': '120' } }),
    );
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const done = gateway({ maxRetries: 3, maxRetryDelayMs: 60_000 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    await advance(510);
    expect(r.seen).toHaveLength(2);
    const error = await done;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(120_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(r.seen).toHaveLength(2);
  });

  test('backoff waits are randomized up to twice their base, and capped at 8 s', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const r = recorder(() => new HttpResponse(null, { status: 503 }));
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const done = gateway({ maxRetries: 5 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    // Bases 0.5, 1, 2, 4, 8 s; doubled 1, 2, 4, 8, then 8 again (the cap), not 16.
    const waits = [1_000, 2_000, 4_000, 8_000, 8_000];
    for (const [i, wait] of waits.entries()) {
      await advance(wait - 10);
      expect(r.seen).toHaveLength(i + 1);
      await advance(10);
      expect(r.seen).toHaveLength(i + 2);
    }
    expect(await done).toBeInstanceOf(ServerError);
  });
});

describe('failures that may have acted are retried only where repeating is safe', () => {
  test('a 500 on payments.create given no key is retried with the one key generated for the call', async () => {
    const r = recorder((_, n) =>
      n === 1
        ? HttpResponse.json({ code: 'internal_error', message: 'boom' }, { status: 500 })
        : HttpResponse.json(createdBody, { status: 201 }),
    );
    server.use(http.post(PAYMENTS, r.resolver));
    const done = gateway().payments.create(newPayment);
    await advance(10_000);
    await expect(done).resolves.toMatchObject({ paymentId: 'pay_1' });
    const keys = r.seen.map((req) => req.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  test('a connection failure on payments.create given no key is retried, and the last error carries the key', async () => {
    const r = recorder(() => HttpResponse.error());
    server.use(http.post(PAYMENTS, r.resolver));
    const done = gateway({ maxRetries: 1 })
      .payments.create(newPayment)
      .catch((e: unknown) => e);
    await advance(10_000);
    const error = await done;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(r.seen).toHaveLength(2);
    expect((error as ConnectionError).idempotencyKey).toBe(
      r.seen[0]?.headers.get('idempotency-key'),
    );
  });

  test('a 502 on a POST with a key, a GET and a PATCH is retried up to maxRetries', async () => {
    const r = recorder(() => new HttpResponse('<html>Bad Gateway</html>', { status: 502 }));
    server.use(
      http.post(PAYMENTS, r.resolver),
      http.get(`${MERCHANTS}/mer_1`, r.resolver),
      http.patch(`${MERCHANTS}/mer_1`, r.resolver),
    );
    const client = gateway({ maxRetries: 2 });
    const calls = [
      client.payments.create(newPayment, { idempotencyKey: 'k-1' }),
      client.merchants.get('mer_1'),
      client.merchants.update('mer_1', { merchantName: 'New' }),
    ].map((p) => p.catch((e: unknown) => e));
    await advance(30_000);
    for (const error of await Promise.all(calls)) expect(error).toBeInstanceOf(ServerError);
    expect(r.seen).toHaveLength(9);
  });

  test('a connection failure on a GET is retried and can then succeed', async () => {
    const r = recorder((_, n) =>
      n === 1 ? HttpResponse.error() : HttpResponse.json(merchantGetBody),
    );
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const done = gateway().merchants.get('mer_1');
    await advance(5_000);
    await expect(done).resolves.toMatchObject({ id: 'mer_1' });
    expect(r.seen).toHaveLength(2);
  });

  test.each([
    [400, 'params_validation', InvalidRequestError],
    [401, 'invalid_api_key', AuthenticationError],
    [404, 'not_found', NotFoundError],
    [409, 'idempotency_conflict', ConflictError],
  ])('a %i is never retried', async (status, code, ErrorClass) => {
    const r = recorder(() => HttpResponse.json({ code, message: 'no' }, { status }));
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver), http.post(MERCHANTS, r.resolver));
    const client = gateway();
    const errors = await Promise.all([
      client.merchants.get('mer_1').catch((e: unknown) => e),
      client.merchants.create(newMerchant).catch((e: unknown) => e),
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(ErrorClass);
    expect(r.seen).toHaveLength(2);
  });

  test('maxRetries: 0 on the call makes a single attempt', async () => {
    const r = recorder(() => new HttpResponse(null, { status: 503 }));
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const error = await gateway()
      .merchants.get('mer_1', { maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(r.seen).toHaveLength(1);
  });
});

describe('cancellation', () => {
  test('an abort during a backoff sleep rejects at once with the signal reason', async () => {
    const r = recorder(
      () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': '30' } }),
    );
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const controller = new AbortController();
    const reason = { why: 'user left the page' };
    const done = gateway()
      .merchants.get('mer_1', { signal: controller.signal })
      .catch((e: unknown) => e);
    await advance(1_000);
    expect(r.seen).toHaveLength(1);
    controller.abort(reason);
    await expect(done).resolves.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    expect(r.seen).toHaveLength(1);
  });

  test('an already aborted signal sends nothing', async () => {
    const r = recorder(() => HttpResponse.json(merchantGetBody));
    server.use(http.get(`${MERCHANTS}/mer_1`, r.resolver));
    const reason = new Error('cancelled');
    const error = await gateway()
      .merchants.get('mer_1', { signal: AbortSignal.abort(reason) })
      .catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(r.seen).toHaveLength(0);
  });
});
