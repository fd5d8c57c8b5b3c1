import {
  AuthenticationError,
  NotFoundError,
  type PaymentCreated,
  type PollOptions,
  RequestValidationError,
} from 'merchant-gateway';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { created, gateway, PAYMENT_ID, result, settle, useScriptedGateway } from './helpers';

const mock = useScriptedGateway();

function rateLimited(retryAfterSeconds: number): Response {
  return HttpResponse.json(
    { code: 'rate_limited', message: 'slow down' },
    { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } },
  );
}

describe('rate limiting while polling', () => {
  /** The first read is rate limited with `retryAfterS`, the next succeeds: when each read came. */
  async function readsAfterRateLimit(
    retryAfterS: number,
    follow: () => Promise<unknown>,
    waitMs = 60_000,
  ): Promise<number[]> {
    mock.state.script = (_read, n) =>
      n === 1 ? rateLimited(retryAfterS) : HttpResponse.json(result('succeeded'));
    const done = follow();
    await vi.advanceTimersByTimeAsync(waitMs);
    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    return mock.reads;
  }

  it('waits at least Retry-After before reading again once the transport gives up', async () => {
    const follow = () =>
      gateway({ maxRetries: 0 }).payments.waitForFinal(created({ pollInMs: 1000 }));
    expect(await readsAfterRateLimit(5, follow)).toEqual([0, 5000]);
  });

  it('keeps the normal wait when Retry-After asks for less', async () => {
    const follow = () =>
      gateway({ maxRetries: 0 }).payments.waitForFinal(created({ pollInMs: 2000 }));
    expect(await readsAfterRateLimit(1, follow)).toEqual([0, 2000]);
  });

  it('honours a Retry-After longer than the client will sleep, beyond the 30 s wait cap', async () => {
    const follow = () => gateway().payments.waitForFinal(PAYMENT_ID);
    expect(await readsAfterRateLimit(90, follow, 120_000)).toEqual([0, 90_000]);
  });
});

describe('errors that end the wait', () => {
  it('rejects with AuthenticationError on 401 without reading again', async () => {
    mock.state.script = () =>
      HttpResponse.json({ code: 'invalid_api_key', message: 'no such key' }, { status: 401 });
    const done = settle(gateway().payments.waitForFinal(PAYMENT_ID));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).rejects.toBeInstanceOf(AuthenticationError);
    expect(mock.reads).toEqual([0]);
  });

  it('rejects with NotFoundError on 404 without reading again', async () => {
    mock.state.script = (_read, n) =>
      n === 1
        ? HttpResponse.json(result('requires_action'))
        : HttpResponse.json({ code: 'payment_not_found', message: 'gone' }, { status: 404 });
    const done = settle(gateway().payments.waitForFinal(PAYMENT_ID));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).rejects.toBeInstanceOf(NotFoundError);
    expect(mock.reads).toEqual([0, 0]);
  });
});

describe('input checks', () => {
  const bad: Array<[string, unknown, PollOptions | undefined]> = [
    ['an empty id', '', undefined],
    ['a missing payment', undefined, undefined],
    ['a payment without a string paymentId', { paymentId: 42 }, undefined],
    ['a zero timeout', PAYMENT_ID, { timeoutMs: 0 }],
    ['a negative interval', PAYMENT_ID, { intervalMs: -5 }],
    ['an endless timeout', PAYMENT_ID, { timeoutMs: Number.POSITIVE_INFINITY }],
    ['a NaN interval', PAYMENT_ID, { intervalMs: Number.NaN }],
    ['a timeout past what a timer can hold', PAYMENT_ID, { timeoutMs: 2 ** 31 }],
    ['an onError that is not a function', PAYMENT_ID, { onError: 'log' as never }],
  ];

  it.each(bad)('rejects %s with RequestValidationError before any read', async (_, input, opts) => {
    const done = gateway().payments.waitForFinal(input as PaymentCreated, opts);

    await expect(done).rejects.toBeInstanceOf(RequestValidationError);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(mock.reads).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('names the offending option in the error', async () => {
    const done = gateway().payments.waitForFinal(PAYMENT_ID, { intervalMs: 0 });

    await expect(done).rejects.toMatchObject({
      issues: [{ field: 'intervalMs', message: 'must be a positive number of milliseconds' }],
    });
  });
});
