import { ConnectionError, RequestValidationError, TimeoutError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import {
  API_KEY,
  answerMerchantGets,
  BASE_URL,
  gateway,
  MERCHANT_URL,
  merchantBody,
  merchantGetBody,
  recorder,
  useMsw,
} from '../../support';

const server = useMsw();

describe('timeouts', () => {
  test('an attempt with no response within timeoutMs is a TimeoutError, retried on a GET', async () => {
    const r = recorder(() => new Promise<Response>(() => {}));
    server.use(http.get(MERCHANT_URL, r.resolver));
    // Long enough for a loaded machine to deliver each attempt to the handler before it times out.
    const error = await gateway({ timeoutMs: 400, maxRetries: 1 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      /^GET \/v1\/merchants\/mer_1: after 2 attempts in \d+ ms: no complete response within 400 ms$/,
    );
    expect(r.seen).toHaveLength(2);
  });

  test('a body that arrives too slowly also times out', async () => {
    server.use(
      http.get(MERCHANT_URL, () => {
        const stream = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"merchant":'));
            // never closes: the rest of the body never comes
          },
        });
        // Sized, as a real server streams a known body: msw 3 ends a close-delimited body it
        // stops writing as if it were complete, and undici asserts on that after an abort.
        return new HttpResponse(stream, {
          headers: { 'content-type': 'application/json', 'content-length': '1000' },
        });
      }),
    );
    const error = await gateway({ timeoutMs: 50, maxRetries: 0 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  test('a custom fetch that ignores the signal cannot hold a body read past the timeout', async () => {
    // A fetch of the user's (a proxy agent, a test double) that never errors its body on abort:
    // the SDK's own reader is cancelled when the attempt times out, or by the caller's signal.
    let cancelled: unknown;
    const fetch = async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"merchant":'));
          },
          cancel(reason) {
            cancelled = reason;
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    const timedOut = await gateway({ fetch, timeoutMs: 50, maxRetries: 0 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(cancelled).toBeInstanceOf(Error);
    const caller = new AbortController();
    const aborted = gateway({ fetch, maxRetries: 0 })
      .merchants.get('mer_1', { signal: caller.signal })
      .catch((e: unknown) => e);
    setTimeout(() => caller.abort(new Error('user gave up')), 30);
    expect(await aborted).toEqual(new Error('user gave up'));
  });

  test('the call timeoutMs overrides the client one', async () => {
    server.use(http.get(MERCHANT_URL, () => new Promise<Response>(() => {})));
    const started = Date.now();
    const error = await gateway({ timeoutMs: 60_000, maxRetries: 0 })
      .merchants.get('mer_1', { timeoutMs: 20 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('cancellation in flight', () => {
  test('aborting during a request rejects with the signal reason and does not retry', async () => {
    const r = recorder(() => new Promise<Response>(() => {}));
    server.use(http.get(MERCHANT_URL, r.resolver));
    const controller = new AbortController();
    const done = gateway()
      .merchants.get('mer_1', { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(r.seen).toHaveLength(1));
    controller.abort('stop');
    expect(await done).toBe('stop');
    expect(r.seen).toHaveLength(1);
  });
});

describe('requests as sent', () => {
  test('bodies are JSON with a JSON content type', async () => {
    const r = recorder(() => HttpResponse.json(merchantBody, { status: 201 }));
    server.use(http.post(`${BASE_URL}/v1/merchants`, r.resolver));
    await gateway().merchants.create({ merchantName: 'Acme', merchantEmail: 'pay@acme.io' });
    expect(r.seen[0]?.headers.get('content-type')).toBe('application/json');
    expect(await r.seen[0]?.json()).toEqual({ merchantName: 'Acme', merchantEmail: 'pay@acme.io' });
  });

  test.each([
    ['a CR LF in a call header', { headers: { 'X-Note': 'a\r\nInjected: 1' } }],
    ['a non-ASCII call header', { headers: { 'X-Note': 'café' } }],
    ['a bad header name', { headers: { 'Bad Name': 'x' } }],
  ])('%s is a RequestValidationError and nothing is sent', async (_, options) => {
    const r = answerMerchantGets(server);
    const error = await gateway()
      .merchants.get('mer_1', options)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(r.seen).toHaveLength(0);
  });

  test('a key with a line break is refused before sending, without quoting the key', async () => {
    const r = answerMerchantGets(server);
    const key = 'sk_SECRET\r\nX-Evil: 1';
    const error = await gateway({ apiKey: key })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      { field: 'headers.Api-Key', message: expect.stringContaining('no CR, LF') },
    ]);
    expect(String(error)).not.toContain('SECRET');
    expect(r.seen).toHaveLength(0);
  });

  test.each([
    ['', 'must not be empty'],
    ['.', 'must not be empty'],
    ['..', 'must not be empty'],
    ['a\nb', 'control characters'],
  ])('the path id %j is refused before sending', async (id, message) => {
    const error = await gateway()
      .merchants.get(id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]).toMatchObject({ field: 'merchantId' });
    expect((error as Error).message).toContain(message);
  });

  test.each([
    ['../merchants', '/v1/merchants/..%2Fmerchants'],
    ['a/b', '/v1/merchants/a%2Fb'],
    ['%2e%2e', '/v1/merchants/%252e%252e'],
    ['mer 1?x=#', '/v1/merchants/mer%201%3Fx%3D%23'],
  ])('the path id %j is percent-encoded and stays on its path', async (id, expected) => {
    const r = recorder(() => HttpResponse.json(merchantGetBody));
    server.use(http.get(`${BASE_URL}/v1/merchants/:id`, r.resolver));
    await gateway().merchants.get(id);
    expect(new URL(r.seen[0]?.url ?? '').pathname).toBe(expected);
  });

  test('invalid per-call timeoutMs or maxRetries are refused', async () => {
    for (const options of [
      { timeoutMs: 0 },
      { timeoutMs: Number.NaN },
      { maxRetries: -1 },
      { maxRetries: 1.5 },
    ]) {
      const error = await gateway()
        .merchants.get('mer_1', options)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
    }
  });

  test('the api key never appears in the URL', async () => {
    const r = answerMerchantGets(server);
    await gateway().merchants.get('mer_1');
    expect(r.seen[0]?.url).not.toContain(API_KEY);
  });
});
