import {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  type FollowReadError,
  InvalidRequestError,
  type LogData,
  type Logger,
  NotFoundError,
  PollTimeoutError,
  RateLimitedError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from 'merchant-gateway';
import { describe, expect, it, vi } from 'vitest';
import { API_KEY } from '../../support';
import {
  created,
  gateway,
  HttpResponse,
  PAYMENT_ID,
  result,
  settle,
  useScriptedGateway,
} from './helpers';

const mock = useScriptedGateway();

const unavailable = (headers: Record<string, string> = {}) =>
  HttpResponse.json({ code: 'unavailable', message: 'restarting' }, { status: 503, headers });
const ok = (status: string) => HttpResponse.json(result(status));

/** Fails the first `count` reads with `failure()`, then answers `then` (default: succeeded). */
function failFirst(count: number, failure: () => Response, then = 'succeeded') {
  mock.state.script = (_read, n) => (n <= count ? failure() : ok(then));
}

/** Collects what the client logs at warn and above. */
function logLines() {
  const lines: { level: string; message: string; data: LogData }[] = [];
  const at =
    (level: string) =>
    (data: LogData, message: string): void => {
      lines.push({ level, message, data });
    };
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
  return { lines, logger };
}

describe('a follow outlives transient failures', () => {
  it('reads again after a 503, backing off by doubling the pace per failure in a row', async () => {
    failFirst(4, unavailable);
    const errors: FollowReadError[] = [];
    const done = gateway({ maxRetries: 0 }).payments.waitForFinal(created({ pollInMs: 1000 }), {
      onError: (error) => errors.push(error),
    });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded', isFinal: true });
    expect(mock.reads).toEqual([0, 1000, 3000, 7000, 15_000]);
    expect(errors).toHaveLength(4);
    for (const error of errors) expect(error).toBeInstanceOf(ServerError);
  });

  it('never waits more than 30 s between failed reads', async () => {
    failFirst(9, unavailable);
    const done = gateway({ maxRetries: 0 }).payments.waitForFinal(created({ pollInMs: 1000 }));

    await vi.advanceTimersByTimeAsync(300_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    const gaps = mock.reads.slice(1).map((at, i) => at - (mock.reads[i] ?? 0));
    expect(gaps).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it('starts the backoff over after a read succeeds', async () => {
    const answers = [unavailable, unavailable, () => ok('processing'), unavailable];
    mock.state.script = (_read, n) => (answers[n - 1] ?? (() => ok('succeeded')))();
    const done = gateway({ maxRetries: 0 }).payments.waitForFinal(created({ pollInMs: 1000 }));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    // 503, 503 (1 s, then 2 s), processing; its held read fails (a first failure again: 1 s).
    expect(mock.reads).toEqual([0, 1000, 3000, 3000, 4000]);
    expect(mock.kinds).toBe('iiihi');
  });

  it('honours a Retry-After on a 503, even past the 30 s cap', async () => {
    failFirst(1, () => unavailable({ 'Retry-After': '45' }));
    const done = gateway({ maxRetries: 0 }).payments.waitForFinal(created({ pollInMs: 1000 }));

    await vi.advanceTimersByTimeAsync(120_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 45_000]);
  });

  it('honours Retry-After on rate limiting when it asks for more than the backoff', async () => {
    failFirst(2, () =>
      HttpResponse.json(
        { code: 'rate_limited', message: 'slow down' },
        { status: 429, headers: { 'Retry-After': '3' } },
      ),
    );
    const errors: FollowReadError[] = [];
    const done = gateway({ maxRetries: 0 }).payments.waitForFinal(created({ pollInMs: 1000 }), {
      onError: (error) => errors.push(error),
    });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 3000, 6000]);
    expect(errors.map((e) => e.constructor)).toEqual([RateLimitedError, RateLimitedError]);
  });

  it('outlives connections that fail, after the transport has spent its own retries', async () => {
    failFirst(3, () => HttpResponse.error());
    const errors: FollowReadError[] = [];
    const done = gateway({ maxRetries: 2 }).payments.waitForFinal(created({ pollInMs: 1000 }), {
      onError: (error) => errors.push(error),
    });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    // Three attempts (0, +500, +1000 ms) made one failed read; the follow then waits 1 s.
    expect(mock.reads).toEqual([0, 500, 1500, 2500]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ConnectionError);
  });

  it('outlives a read that times out', async () => {
    mock.state.script = (_read, n) => (n === 1 ? new Promise<Response>(() => {}) : ok('failed'));
    const errors: FollowReadError[] = [];
    const done = gateway({ maxRetries: 0, timeoutMs: 2000 }).payments.waitForFinal(PAYMENT_ID, {
      onError: (error) => errors.push(error),
    });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'failed', isFinal: true });
    expect(mock.reads).toEqual([0, 3000]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TimeoutError);
  });

  it('logs one redacted warn line per failed read', async () => {
    // A proxy page that echoes the request's headers, key included.
    failFirst(2, () => new HttpResponse(`bad gateway for Api-Key: ${API_KEY}`, { status: 502 }));
    const { lines, logger } = logLines();
    const done = gateway({ maxRetries: 0, logger, logLevel: 'warn' }).payments.waitForFinal(
      created(),
    );

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(lines.map((l) => l.level)).toEqual(['warn', 'warn']);
    expect(lines[0]?.message).toMatch(
      /^\[merchant-gateway\] payments\.waitForFinal: GET \/v1\/payments\/pay_1\/status → 502 .*; still following \(failure 1 in a row\), next read in 1000 ms$/,
    );
    expect(lines[1]?.message).toMatch(/\(failure 2 in a row\), next read in 2000 ms$/);
    expect(lines[1]?.data).toMatchObject({ paymentId: PAYMENT_ID, failures: 2, waitMs: 2000 });
    expect(JSON.stringify(lines)).not.toContain(API_KEY);
  });

  it('works the same for watch, which yields only statuses, never failures', async () => {
    const answers = [
      () => ok('requires_action'),
      unavailable,
      () => HttpResponse.error(),
      () => ok('processing'),
    ];
    mock.state.script = (_read, n) => (answers[n - 1] ?? (() => ok('succeeded')))();
    const errors: string[] = [];
    const statuses: string[] = [];
    const done = (async () => {
      const options = { onError: (e: FollowReadError) => errors.push(e.name) };
      for await (const update of gateway({ maxRetries: 0 }).payments.watch(created(), options)) {
        statuses.push(update.status);
      }
    })();

    await vi.advanceTimersByTimeAsync(60_000);

    await done;
    expect(statuses).toEqual(['requires_action', 'processing', 'succeeded']);
    expect(errors).toEqual(['ServerError', 'ConnectionError']);
  });
});

describe('a permanent answer ends a follow at once', () => {
  const permanent: Array<[string, () => Response, new (...args: never[]) => Error]> = [
    [
      '400',
      () => HttpResponse.json({ code: 'params_validation', message: 'no' }, { status: 400 }),
      InvalidRequestError,
    ],
    [
      '401',
      () => HttpResponse.json({ code: 'invalid_api_key', message: 'no' }, { status: 401 }),
      AuthenticationError,
    ],
    [
      '403',
      () => HttpResponse.json({ code: 'forbidden', message: 'no' }, { status: 403 }),
      ApiError,
    ],
    [
      '404',
      () => HttpResponse.json({ code: 'payment_not_found', message: 'gone' }, { status: 404 }),
      NotFoundError,
    ],
    [
      '409',
      () => HttpResponse.json({ code: 'conflict', message: 'no' }, { status: 409 }),
      ConflictError,
    ],
    [
      'a body that breaks the schema',
      () => HttpResponse.json({ status: 42 }),
      ResponseValidationError,
    ],
  ];

  it.each(permanent)(
    'rejects with the error of a %s after a transient failure, reading no more',
    async (_, answer, type) => {
      const answers = [unavailable, answer];
      mock.state.script = (_read, n) => (answers[n - 1] ?? (() => ok('succeeded')))();
      const errors: FollowReadError[] = [];
      const done = settle(
        gateway({ maxRetries: 0 }).payments.waitForFinal(created(), {
          onError: (error) => errors.push(error),
        }),
      );

      await vi.advanceTimersByTimeAsync(60_000);

      const error = await done.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect((error as { status?: number }).status).toBe(
        _ === 'a body that breaks the schema' ? 200 : Number(_),
      );
      expect(mock.reads).toEqual([0, 1000]);
      expect(errors).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0);
    },
  );

  it('rejects with what onError throws', async () => {
    failFirst(1, unavailable);
    const mine = new Error('stop following');
    const done = settle(
      gateway({ maxRetries: 0 }).payments.waitForFinal(created(), {
        onError: () => {
          throw mine;
        },
      }),
    );

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).rejects.toBe(mine);
    expect(mock.reads).toEqual([0]);
  });
});

describe('PollTimeoutError after failures', () => {
  it('carries the last read’s failure as cause, with the payment id and the last status', async () => {
    mock.state.script = (_read, n) => (n === 1 ? ok('processing') : unavailable());
    const done = settle(
      gateway({ maxRetries: 0 }).payments.waitForFinal(created(), { timeoutMs: 20_000 }),
    );

    await vi.advanceTimersByTimeAsync(20_000);

    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    const timeout = error as PollTimeoutError;
    expect(timeout.paymentId).toBe(PAYMENT_ID);
    expect(timeout.lastStatus).toMatchObject({ status: 'processing' });
    expect(timeout.cause).toBeInstanceOf(ServerError);
    expect(timeout.cause).toMatchObject({ status: 503 });
    expect(timeout.message).toBe(
      'payments.waitForFinal: payment pay_1 not final after 20000 ms (last status: processing)',
    );
    expect(JSON.parse(JSON.stringify(timeout))).toMatchObject({
      name: 'PollTimeoutError',
      paymentId: PAYMENT_ID,
      lastStatus: { status: 'processing' },
      cause: { name: 'ServerError', message: expect.stringContaining('503') },
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('has no cause when the last read succeeded', async () => {
    const answers = [unavailable, () => ok('processing')];
    mock.state.script = (_read, n) => (answers[n - 1] ?? (() => ok('processing')))();
    const done = settle(
      gateway({ maxRetries: 0 }).payments.waitForFinal(created(), { timeoutMs: 5000 }),
    );

    await vi.advanceTimersByTimeAsync(5000);

    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).cause).toBeUndefined();
    expect((error as PollTimeoutError).lastStatus).toMatchObject({ status: 'processing' });
  });

  it('keeps the client’s key out of the cause, in the error and its JSON', async () => {
    mock.state.script = () => new HttpResponse(`upstream refused key ${API_KEY}`, { status: 502 });
    const done = settle(
      gateway({ maxRetries: 0 }).payments.waitForFinal(created(), { timeoutMs: 5000 }),
    );

    await vi.advanceTimersByTimeAsync(5000);

    const error = (await done.catch((e: unknown) => e)) as PollTimeoutError;
    expect(error.cause).toBeInstanceOf(ServerError);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
    expect(JSON.stringify(error.cause)).not.toContain(API_KEY);
    expect((error.cause as ServerError).message).not.toContain(API_KEY);
  });
});

describe('held reads and intermediaries', () => {
  /** Held reads are cut after `cutAfterMs` with a 504, as a proxy cutting idle requests does. */
  function proxyCutting(cutAfterMs: number) {
    mock.state.script = async (read) => {
      if (read.maxPollMs === undefined) return ok('requires_action');
      if (read.maxPollMs < cutAfterMs) {
        await new Promise((resolve) => setTimeout(resolve, read.maxPollMs));
        return ok('requires_action');
      }
      await new Promise((resolve) => setTimeout(resolve, cutAfterMs));
      return new HttpResponse('<html>504 Gateway Time-out</html>', { status: 504 });
    };
  }

  it('asks every later held read of the client for less than the cut, once the cut repeats', async () => {
    proxyCutting(25_000);
    const client = gateway();
    const errors: FollowReadError[] = [];
    const first = settle(
      client.payments.waitForFinal(created(), {
        timeoutMs: 120_000,
        onError: (e) => errors.push(e),
      }),
    );

    await vi.advanceTimersByTimeAsync(120_000);

    await expect(first).rejects.toBeInstanceOf(PollTimeoutError);
    const held = mock.state.reads.filter((r) => r.maxPollMs !== undefined);
    // Cut twice at 25 s (one attempt each: the transport does not repeat a held read): a cut
    // that repeats at a similar duration is an intermediary's, then 24 s each (the last one asks
    // for the time left before the deadline).
    expect(held.map((r) => r.maxPollMs)).toEqual([30_000, 30_000, 24_000, 24_000, 20_000]);
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toMatchObject({ name: 'ServerError', status: 504 });
    expect(mock.state.reads.slice(0, 3).map((r) => [r.at, r.maxPollMs])).toEqual([
      [0, undefined],
      [0, 30_000],
      [26_000, undefined],
    ]);

    // The client learned it: another follow of it asks for 24 s from its first held read.
    mock.state.reads = [];
    const second = settle(client.payments.waitForFinal(created(), { timeoutMs: 1000 }));
    await vi.advanceTimersByTimeAsync(1000);
    await expect(second).rejects.toBeInstanceOf(PollTimeoutError);
    expect(mock.state.reads.map((r) => r.maxPollMs)).toEqual([undefined, 1000]);
    mock.state.reads = [];
    const third = settle(client.payments.waitForFinal(created(), { timeoutMs: 60_000 }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(mock.state.reads.map((r) => r.maxPollMs)).toEqual([undefined, 24_000]);
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(third).rejects.toBeInstanceOf(PollTimeoutError);
  });

  it('does not lower the hold for a held read that fails at once', async () => {
    const answers = [() => ok('requires_action'), unavailable];
    mock.state.script = (_read, n) => (answers[n - 1] ?? (() => ok('requires_action')))();
    const done = settle(gateway().payments.waitForFinal(created(), { timeoutMs: 3000 }));

    await vi.advanceTimersByTimeAsync(3000);

    await expect(done).rejects.toBeInstanceOf(PollTimeoutError);
    const held = mock.state.reads.filter((r) => r.maxPollMs !== undefined);
    expect(held.map((r) => r.maxPollMs)).toEqual([3000, 2000]);
  });

  it('keeps holding after a held read that failed: a failure is not an early answer', async () => {
    mock.timeline([
      [0, 'requires_action'],
      [40_000, 'succeeded'],
    ]);
    const holding = mock.state.script;
    mock.state.script = (read, n) => (n === 2 ? unavailable() : holding(read, n));
    const done = gateway({ maxRetries: 0 }).payments.waitForFinal(created());

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    // The held read failed at once; the next pair is immediate + held again, not one a second.
    expect(mock.kinds).toBe('ihihih');
    expect(mock.reads).toEqual([0, 0, 1000, 1000, 31_000, 31_000]);
  });
});
