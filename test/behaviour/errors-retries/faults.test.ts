import {
  ConnectionError,
  MerchantGateway,
  PaginationError,
  PollTimeoutError,
  RateLimitedError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from 'merchant-gateway';
import {
  createMockGateway,
  type FailNextOptions,
  type MockGateway,
} from 'merchant-gateway/testing';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { BASE_URL, useMsw } from '../../support';
import { legacyItem } from '../../support/list-fixtures';

const mock = createMockGateway();
const server = useMsw(...mock.handlers);

const TIMEOUT_MS = 1_000;
const MAX_RETRIES = 2;
const ASSET = 'eip155:10/erc20:0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85';
const DESTINATION = 'eip155:10:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';

beforeEach(() => {
  mock.reset();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function clientOptions() {
  return {
    baseUrl: BASE_URL,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
    timeoutMs: TIMEOUT_MS,
    maxRetries: MAX_RETRIES,
  };
}

function client(): MerchantGateway {
  return new MerchantGateway(clientOptions());
}

interface Call {
  name: string;
  method: 'GET' | 'POST';
  path: (m: MockGateway) => string;
  run: (c: MerchantGateway, m: MockGateway) => Promise<unknown>;
  /** Whether a failure after which the service may have acted is retried (GET, or a key is sent). */
  repeatable: boolean;
  /** How many of what this call creates exist in the mock. */
  count: (m: MockGateway) => number;
  /** The Idempotency-Key every error of the call carries: the caller's, `generated`, or none. */
  key: string | undefined;
}

const payment = { amount: { unit: 'iso4217/USD', value: '1250' }, referenceId: 'order-1042' };
const firstPaymentId = (m: MockGateway) => m.payments(m.sample.merchantId)[0]?.id as string;

const CALLS: Call[] = [
  {
    name: 'merchants.create',
    method: 'POST',
    path: () => '/v1/merchants',
    run: (c) => c.merchants.create({ merchantName: 'Acme', merchantEmail: 'pay@acme.io' }),
    repeatable: true,
    count: (m) => m.merchants().length,
    key: 'generated',
  },
  {
    name: 'settlements.createCrypto',
    method: 'POST',
    path: (m) => `/v1/merchants/${m.sample.merchantId}/settlements/crypto`,
    run: (c, m) =>
      c.settlements.createCrypto(m.sample.merchantId, [{ asset: ASSET, destination: DESTINATION }]),
    repeatable: true,
    count: (m) => m.getMerchant(m.sample.merchantId)?.settlements.crypto.length ?? 0,
    key: 'generated',
  },
  {
    name: 'payments.create without idempotencyKey',
    method: 'POST',
    path: () => '/v1/payments',
    run: (c) => c.payments.create(payment),
    // A key is generated for the call: a create is as safe to repeat as any other keyed POST.
    repeatable: true,
    count: (m) => m.payments().length,
    key: 'generated',
  },
  {
    name: 'payments.create with idempotencyKey',
    method: 'POST',
    path: () => '/v1/payments',
    run: (c) => c.payments.create(payment, { idempotencyKey: 'order-1042' }),
    repeatable: true,
    count: (m) => m.payments().length,
    key: 'order-1042',
  },
  {
    name: 'payments.get',
    method: 'GET',
    path: (m) => `/v1/gateway/payment/${firstPaymentId(m)}`,
    run: (c, m) => c.payments.get(firstPaymentId(m)),
    repeatable: true,
    count: (m) => m.payments().length,
    key: undefined,
  },
];

type ErrorClass = new (...args: never[]) => Error;

interface Expected {
  error: ErrorClass;
  /** The message, after `METHOD /path`. */
  message: RegExp | ((call: Call) => RegExp);
  attempts: number;
  /** How many things the call created, whatever it answered. */
  created: number;
  /** More to check on the error. */
  also?: Record<string, unknown>;
}

interface Fault {
  name: string;
  /** Queues the fault for the call's requests only. */
  inject: (call: Call) => void;
  expect: (call: Call) => Expected;
}

const ALL = MAX_RETRIES + 1;

/** A 2xx the SDK cannot read: on a POST, the message says the service acted and how to recover. */
const unreadable = (issue: string) => (call: Call) =>
  call.method === 'POST'
    ? new RegExp(
        ` → 20[01]: unexpected response body: ${issue}\\. The service acted on this request \\(it answered 20[01]\\): repeat the call with the same idempotencyKey "[^"]+" to get its result$`,
      )
    : new RegExp(` → 200: unexpected response body: ${issue}$`);
const creates = (call: Call) => (call.method === 'POST' ? 1 : 0);

function failNext(options: FailNextOptions) {
  return (call: Call) =>
    mock.failNext({
      times: 99,
      ...options,
      match: { method: call.method, path: call.path(mock) },
    });
}

/** The service acts on every request, and then the answer is lost as `lose` says. */
function afterActing(
  lose: (response: Response) => Response | Promise<Response>,
  options: { once?: boolean } = {},
) {
  return (call: Call) =>
    server.use(
      http.all(
        `${BASE_URL}${call.path(mock)}`,
        async ({ request }) => {
          const response = await mock.fetch(request);
          return request.method === call.method ? lose(response) : response;
        },
        options,
      ),
    );
}

const HTML = `<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>${'<p>nginx</p>'.repeat(40)}</body></html>`;

/** A response whose body starts, then never finishes. */
function stalled(response: Response): Response {
  const head = new TextEncoder().encode('{"partial":');
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(head);
    },
  });
  // Sized, as a real server streams a known body: msw 3 ends a close-delimited body it stops
  // writing as if it were complete, and undici asserts on that after an abort.
  const headers = new Headers(response.headers);
  headers.set('content-length', '1000');
  return new Response(body, { status: response.status, headers });
}

const FAULTS: Fault[] = [
  {
    name: 'connection reset',
    inject: failNext({ networkError: true }),
    expect: (call) => ({
      error: ConnectionError,
      message: /: connection failed: fetch failed$/,
      attempts: call.repeatable ? ALL : 1,
      created: 0,
    }),
  },
  {
    name: 'timeout (delayMs beyond timeoutMs)',
    inject: failNext({ delayMs: 10 * TIMEOUT_MS }),
    expect: (call) => ({
      error: TimeoutError,
      message: new RegExp(`: no complete response within ${TIMEOUT_MS} ms$`),
      attempts: call.repeatable ? ALL : 1,
      created: 0,
    }),
  },
  {
    name: '429 without Retry-After',
    inject: failNext({ status: 429 }),
    expect: () => ({
      error: RateLimitedError,
      message: / → 429 rate_limited: /,
      attempts: ALL,
      created: 0,
      also: { retryAfterMs: undefined, status: 429 },
    }),
  },
  {
    name: '429 with Retry-After: 2',
    inject: failNext({ status: 429, retryAfter: 2 }),
    expect: () => ({
      error: RateLimitedError,
      message: / → 429 rate_limited: /,
      attempts: ALL,
      created: 0,
      also: { retryAfterMs: 2_000 },
    }),
  },
  {
    name: '429 with Retry-After beyond maxRetryDelayMs',
    inject: failNext({ status: 429, retryAfter: 3_600 }),
    expect: () => ({
      error: RateLimitedError,
      message: / → 429 rate_limited: /,
      attempts: 1,
      created: 0,
      also: { retryAfterMs: 3_600_000 },
    }),
  },
  {
    name: 'rate_limited under 400',
    inject: failNext({ status: 400, code: 'rate_limited' }),
    expect: () => ({
      error: RateLimitedError,
      message: / → 400 rate_limited: /,
      attempts: ALL,
      created: 0,
      also: { status: 400, code: 'rate_limited' },
    }),
  },
  {
    name: 'rate_limited under 500',
    inject: failNext({ status: 500, code: 'rate_limited' }),
    expect: () => ({
      error: RateLimitedError,
      message: / → 500 rate_limited: /,
      attempts: ALL,
      created: 0,
      also: { status: 500, code: 'rate_limited' },
    }),
  },
  {
    name: '500',
    inject: failNext({ status: 500 }),
    expect: (call) => ({
      error: ServerError,
      message: / → 500 internal_error: /,
      attempts: call.repeatable ? ALL : 1,
      created: 0,
    }),
  },
  {
    name: '502 with an HTML body',
    inject: failNext({ status: 502, body: HTML }),
    expect: (call) => ({
      error: ServerError,
      message: / → 502 <html><head><title>502 Bad Gateway<\/title>.*…$/,
      attempts: call.repeatable ? ALL : 1,
      created: 0,
      also: { code: undefined, body: HTML },
    }),
  },
  {
    name: '503 with an empty body',
    inject: failNext({ status: 503, body: '' }),
    expect: (call) => ({
      error: ServerError,
      message: / → 503 \(empty body\)$/,
      attempts: call.repeatable ? ALL : 1,
      created: 0,
      also: { code: undefined, body: '' },
    }),
  },
  {
    name: 'truncated JSON (200)',
    inject: failNext({ status: 200, body: '{"merchant":{"id":"mer_' }),
    expect: () => ({
      error: ResponseValidationError,
      message: unreadable('body is not JSON'),
      attempts: 1,
      created: 0,
    }),
  },
  {
    name: 'JSON of the wrong shape (200)',
    inject: failNext({ status: 200, body: { ok: true, data: [] } }),
    expect: () => ({
      error: ResponseValidationError,
      message: unreadable('\\w.*'),
      attempts: 1,
      created: 0,
    }),
  },
  {
    name: 'a 200 with Content-Type: text/html',
    inject: failNext({ status: 200, body: '<html><body>Welcome</body></html>' }),
    expect: () => ({
      error: ResponseValidationError,
      message: unreadable('body is not JSON'),
      attempts: 1,
      created: 0,
      also: { body: '<html><body>Welcome</body></html>' },
    }),
  },
  {
    name: 'a slow body that exceeds the timeout (after the service acted)',
    inject: afterActing(stalled),
    expect: (call) => ({
      error: TimeoutError,
      message: new RegExp(`: no complete response within ${TIMEOUT_MS} ms$`),
      attempts: call.repeatable ? ALL : 1,
      created: creates(call),
    }),
  },
  {
    name: 'a 500 after the service acted',
    inject: afterActing(() =>
      HttpResponse.json({ code: 'internal_error', message: 'lost' }, { status: 500 }),
    ),
    expect: (call) => ({
      error: ServerError,
      message: / → 500 internal_error: lost$/,
      attempts: call.repeatable ? ALL : 1,
      created: creates(call),
    }),
  },
  {
    name: 'a connection reset after the service acted',
    inject: afterActing(() => HttpResponse.error()),
    expect: (call) => ({
      error: ConnectionError,
      message: /: connection failed: fetch failed$/,
      attempts: call.repeatable ? ALL : 1,
      created: creates(call),
    }),
  },
  {
    name: 'truncated JSON after the service acted',
    inject: afterActing(
      async (response) =>
        new Response((await response.text()).slice(0, 20), {
          status: response.status,
          headers: response.headers,
        }),
    ),
    expect: (call) => ({
      error: ResponseValidationError,
      message: unreadable('body is not JSON'),
      attempts: 1,
      created: creates(call),
    }),
  },
];

/** Runs `promise` to its end, moving fake time on while it waits (retry sleeps, timeouts). */
async function settle(promise: Promise<unknown>): Promise<{ value?: unknown; error?: unknown }> {
  let outcome: { value?: unknown; error?: unknown } | undefined;
  promise.then(
    (value) => {
      outcome = { value };
    },
    (error: unknown) => {
      outcome = { error };
    },
  );
  for (let i = 0; i < 200 && outcome === undefined; i++) await vi.advanceTimersByTimeAsync(500);
  if (outcome === undefined) throw new Error('the call never settled');
  return outcome;
}

const requestsOf = (call: Call) =>
  mock.requests.filter((r) => r.method === call.method && r.path === call.path(mock));
const attempts = (call: Call) => requestsOf(call).length;
const keysSent = (call: Call) => requestsOf(call).map((r) => r.headers['idempotency-key']);

describe.each(FAULTS)('$name', (fault) => {
  test.each(CALLS)('on $name', async (call) => {
    const before = call.count(mock);
    fault.inject(call);
    const { error } = await settle(call.run(client(), mock));
    const expected = fault.expect(call);
    expect(error).toBeInstanceOf(expected.error);
    const { message } = error as Error;
    expect(message.startsWith(`${call.method} ${call.path(mock)}`)).toBe(true);
    expect(message).toMatch(
      typeof expected.message === 'function' ? expected.message(call) : expected.message,
    );
    if (expected.also) expect(error).toMatchObject(expected.also);
    const { idempotencyKey } = error as { idempotencyKey?: string };
    if (call.key === 'generated') {
      expect(idempotencyKey).toBe(keysSent(call)[0]);
      expect(new Set(keysSent(call)).size).toBe(1);
    } else {
      expect(idempotencyKey).toBe(call.key);
    }
    expect(attempts(call)).toBe(expected.attempts);
    expect(call.count(mock) - before).toBe(expected.created);
  });
});

interface Transient {
  name: string;
  /** Fails the call's first request only. */
  inject: (call: Call) => void;
  /** Whether the service acted on the failed request. */
  acted: boolean;
  /** Whether the SDK retries it on this call. */
  retried: (call: Call) => boolean;
  error: ErrorClass;
}

const once = (options: FailNextOptions) => (call: Call) =>
  mock.failNext({ ...options, times: 1, match: { method: call.method, path: call.path(mock) } });

const TRANSIENT: Transient[] = [
  {
    name: 'one connection reset',
    inject: once({ networkError: true }),
    acted: false,
    retried: (call) => call.repeatable,
    error: ConnectionError,
  },
  {
    name: 'one 500',
    inject: once({ status: 500 }),
    acted: false,
    retried: (call) => call.repeatable,
    error: ServerError,
  },
  {
    name: 'one 429',
    inject: once({ status: 429 }),
    acted: false,
    retried: () => true,
    error: RateLimitedError,
  },
  {
    name: 'one 500 after the service acted',
    inject: afterActing(() => new Response(null, { status: 500 }), { once: true }),
    acted: true,
    retried: (call) => call.repeatable,
    error: ServerError,
  },
  {
    name: 'one connection reset after the service acted',
    inject: afterActing(() => Response.error(), { once: true }),
    acted: true,
    retried: (call) => call.repeatable,
    error: ConnectionError,
  },
];

describe.each(TRANSIENT)('$name', (fault) => {
  test.each(CALLS)(
    'on $name is retried away where that is safe, and never creates twice',
    async (call) => {
      const before = call.count(mock);
      fault.inject(call);
      const outcome = await settle(call.run(client(), mock));
      if (fault.retried(call)) {
        expect(outcome.error).toBeUndefined();
        expect(attempts(call)).toBe(2);
        expect(call.count(mock) - before).toBe(creates(call));
      } else {
        expect(outcome.error).toBeInstanceOf(fault.error);
        expect(attempts(call)).toBe(1);
        expect(call.count(mock) - before).toBe(fault.acted ? creates(call) : 0);
      }
    },
  );
});

describe('a cursor that repeats', () => {
  const page = (name: 'payments.list' | 'legacyPayments.list') =>
    name === 'payments.list'
      ? {
          data: [
            {
              paymentId: 'pay_1',
              merchant: { id: mock.sample.merchantId },
              referenceId: 'order-1',
              status: 'succeeded',
              isTerminal: true,
              createdAt: '2026-01-01T00:00:00.000Z',
              lastUpdatedAt: '2026-01-01T00:00:00.000Z',
            },
          ],
          nextCursor: 'c1',
          stats: { totalRevenue: [], totalTransactions: 1, totalCustomers: 1 },
        }
      : {
          data: [{ ...legacyItem(1), merchant_id: mock.sample.merchantId }],
          next_cursor: 'c1',
          stats: {
            total_customers: 1,
            total_transactions: 1,
            total_revenue: { amount: 1, currency: 'USD' },
          },
        };

  test.each([
    ['payments.list', '/v1/merchants/payments', (c: MerchantGateway) => c.payments.list()],
    [
      'legacyPayments.list',
      `/v1/merchants/${mock.sample.merchantId}/payments`,
      (c: MerchantGateway) => c.legacyPayments.list(mock.sample.merchantId),
    ],
  ] as const)('stops %s with a PaginationError after the second page', async (name, path, list) => {
    mock.failNext({ status: 200, body: page(name), times: 99, match: { method: 'GET', path } });
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    const walk = async () => {
      let items = 0;
      for await (const _ of list(new MerchantGateway({ ...clientOptions(), logger: quiet }))) {
        items++;
      }
      return items;
    };
    const { error } = await settle(walk());
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(
      `${name}: the service returned cursor "c1" a second time; stopped instead of looping`,
    );
    expect(mock.requests.filter((r) => r.path === path)).toHaveLength(2);
  });
});

describe('a poll target that never reaches a final status', () => {
  const POLL_TIMEOUT_MS = 4_500;

  test.each([
    ['waitForFinal, given the created payment', 'payments.waitForFinal', false],
    ['watch, given only the id', 'payments.watch', true],
  ] as const)('%s ends in a PollTimeoutError with the last status', async (_, operation, byId) => {
    const c = client();
    const created = await c.payments.create(payment);
    const before = mock.payments().length;
    const options = { timeoutMs: POLL_TIMEOUT_MS, intervalMs: 1_000 };
    const run = byId
      ? (async () => {
          for await (const _ of c.payments.watch(created.paymentId, options)) {
            // every status change
          }
        })()
      : c.payments.waitForFinal(created, options);
    const { error } = await settle(run);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as Error).message).toBe(
      `${operation}: payment ${created.paymentId} not final after ${POLL_TIMEOUT_MS} ms (last status: requires_action)`,
    );
    expect((error as PollTimeoutError).lastStatus?.status).toBe('requires_action');
    // One immediate read, then one read the mock holds until the deadline: two reads in 4.5 s.
    const reads = mock.requests.filter(
      (r) => r.path === `/v1/payments/${created.paymentId}/status`,
    );
    expect(reads.map((r) => r.query)).toEqual([{}, { maxPollMs: String(POLL_TIMEOUT_MS) }]);
    expect(mock.payments().length).toBe(before);
  });
});

describe('payments.create when the answer is lost after the service created the payment', () => {
  test.each([
    ['a dropped connection', () => Response.error()],
    [
      'a 500',
      () => HttpResponse.json({ code: 'internal_error', message: 'lost' }, { status: 500 }),
    ],
  ] as const)(
    'after %s the caller gets that payment and the mock holds exactly one',
    async (_, lose) => {
      const create = CALLS.find((call) => call.name === 'payments.create without idempotencyKey');
      if (!create) throw new Error('no payments.create row');
      const before = new Set(mock.payments().map((p) => p.id));
      afterActing(lose, { once: true })(create);
      const { value, error } = await settle(client().payments.create(payment));
      expect(error).toBeUndefined();
      const created = mock.payments().filter((p) => !before.has(p.id));
      expect(created).toHaveLength(1);
      expect((value as { paymentId: string }).paymentId).toBe(created[0]?.id);
      const keys = keysSent(create);
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
    },
  );

  test('a repeat with the key from the error, after retries ran out, returns the same payment', async () => {
    const create = CALLS.find((call) => call.name === 'payments.create without idempotencyKey');
    if (!create) throw new Error('no payments.create row');
    const before = new Set(mock.payments().map((p) => p.id));
    afterActing(() => Response.error())(create);
    const { error } = await settle(client().payments.create(payment));
    expect(error).toBeInstanceOf(ConnectionError);
    const { idempotencyKey } = error as ConnectionError;
    expect(idempotencyKey).toEqual(expect.any(String));
    server.resetHandlers();
    const { value } = await settle(client().payments.create(payment, { idempotencyKey }));
    const created = mock.payments().filter((p) => !before.has(p.id));
    expect(created).toHaveLength(1);
    expect((value as { paymentId: string }).paymentId).toBe(created[0]?.id);
  });
});
