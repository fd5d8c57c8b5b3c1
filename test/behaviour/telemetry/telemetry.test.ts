import { context, createTraceState, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ConfigurationError,
  type LogData,
  MerchantGateway,
  type PaymentCreated,
} from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { idOf, parentOf, setUpOtel, useContextManager } from './otel';

const mock = createMockGateway({ pollInMs: 100 });
const otel = setUpOtel();
const BASE = 'http://127.0.0.1:1';

beforeEach(() => {
  mock.reset();
  otel.reset();
});

function client(extra: Partial<ConstructorParameters<typeof MerchantGateway>[0]> = {}) {
  return new MerchantGateway({
    baseUrl: BASE,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
    fetch: mock.fetch,
    telemetry: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
    ...extra,
  });
}

function create(gateway: MerchantGateway, referenceId = 'order-1'): Promise<PaymentCreated> {
  return gateway.payments.create({
    amount: { unit: 'iso4217/USD', value: '1000' },
    referenceId,
  });
}

/** `merchant_gateway.follower.payments` once it reads `expected` (the engine loads lazily), or after 3 s. */
async function heldCount(from: ReturnType<typeof setUpOtel>, expected = 12): Promise<unknown> {
  let value: unknown;
  for (let i = 0; i < 150; i++) {
    value = (await from.metrics()).get('merchant_gateway.follower.payments')?.dataPoints[0]?.value;
    if (value === expected) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return value;
}

const named = (name: string) => otel.finished().filter((span) => span.name === name);

describe('a retried payments.create', () => {
  it('is one INTERNAL span with one CLIENT span per attempt, the retry counted', async () => {
    mock.failNext({ status: 503, match: { method: 'POST', path: '/v1/payments' } });
    const payment = await create(client());

    const [call] = named('payments.create');
    const attempts = named('POST /v1/payments');
    expect(call?.kind).toBe(SpanKind.INTERNAL);
    expect(call?.attributes['merchant_gateway.payment.id']).toBe(payment.paymentId);
    expect(call?.instrumentationScope.name).toBe('merchant-gateway');
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(attempt)).toBe(call && idOf(call));
      expect(attempt.spanContext().traceId).toBe(call?.spanContext().traceId);
      expect(attempt.attributes).toMatchObject({
        'http.request.method': 'POST',
        'url.template': '/v1/payments',
        'url.full': `${BASE}/v1/payments`,
        'server.address': '127.0.0.1',
        'server.port': 1,
      });
    }
    expect(attempts[0]?.attributes['http.response.status_code']).toBe(503);
    expect(attempts[0]?.attributes['error.type']).toBe('503');
    expect(attempts[0]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[0]?.attributes['http.request.resend_count']).toBeUndefined();
    expect(attempts[1]?.attributes['http.request.resend_count']).toBe(1);
    expect(attempts[1]?.attributes['http.response.status_code']).toBe(201);
    expect(attempts[1]?.attributes['error.type']).toBeUndefined();

    const duration = (await otel.metrics()).get('http.client.request.duration');
    expect(duration?.descriptor.unit).toBe('s');
    const points = duration?.dataPoints ?? [];
    expect(points.map((p) => p.attributes['http.response.status_code']).sort()).toEqual([201, 503]);
    expect(points.every((p) => p.attributes['url.template'] === '/v1/payments')).toBe(true);
    // One series per route and outcome: no payment id, no URL, nothing undefined.
    const failed = points.find((p) => p.attributes['http.response.status_code'] === 503);
    const passed = points.find((p) => p.attributes['http.response.status_code'] === 201);
    expect(Object.keys(failed?.attributes ?? {}).sort()).toEqual([
      'error.type',
      'http.request.method',
      'http.response.status_code',
      'server.address',
      'server.port',
      'url.template',
    ]);
    expect(Object.keys(passed?.attributes ?? {})).not.toContain('error.type');
  });

  it('sends each attempt its own traceparent, and keeps one a hook set', async () => {
    mock.failNext({ status: 500, match: { method: 'POST', path: '/v1/payments' } });
    await create(client());
    const attempts = named('POST /v1/payments');
    const sent = mock.requests.filter((r) => r.method === 'POST').map((r) => r.headers.traceparent);
    expect(sent).toEqual(
      attempts.map((a) => `00-${a.spanContext().traceId}-${a.spanContext().spanId}-01`),
    );

    const own = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const hooked = client({
      hooks: { beforeRequest: [({ request }) => void request.headers.set('traceparent', own)] },
    });
    await hooked.merchants.list();
    expect(mock.requests.at(-1)?.headers.traceparent).toBe(own);
  });

  it('records the idempotency key only when asked to', async () => {
    await create(client());
    expect(
      named('payments.create')[0]?.attributes['merchant_gateway.idempotency_key'],
    ).toBeUndefined();
    const recording = client({
      telemetry: { tracerProvider: otel.tracerProvider, recordIdempotencyKeys: true },
    });
    await recording.payments.create(
      { amount: { unit: 'iso4217/USD', value: '1000' }, referenceId: 'order-2' },
      { idempotencyKey: 'order-2-key' },
    );
    expect(named('payments.create')[1]?.attributes['merchant_gateway.idempotency_key']).toBe(
      'order-2-key',
    );
  });
});

describe('url.template', () => {
  it('names each call by its path template, also for calls made before the spans have loaded', async () => {
    const gateway = client(); // new: its spans load on first use, while these calls wait
    const payment = await create(gateway);
    otel.reset();
    const fresh = client();
    await Promise.all([
      fresh.payments.get(payment.paymentId),
      fresh.merchants.get(mock.sample.merchantId),
      fresh.merchants.list(),
      fresh.payments.status(payment.paymentId),
    ]);
    const templates = otel
      .finished()
      .filter((span) => span.kind === SpanKind.CLIENT)
      .map((span) => span.attributes['url.template'])
      .sort();
    expect(templates).toEqual([
      '/v1/gateway/payment/{paymentId}',
      '/v1/merchants',
      '/v1/merchants/{merchantId}',
      '/v1/payments/{paymentId}/status',
    ]);
    expect(named('payments.get')[0]?.attributes['merchant_gateway.payment.id']).toBe(
      payment.paymentId,
    );
  });
});

describe('a follow', () => {
  it('waitForFinal through an outage and a held read is one span, its reads its children', async () => {
    const gateway = client({ maxRetries: 0 });
    const payment = await create(gateway);
    otel.reset();
    const statusPath = `/v1/payments/${payment.paymentId}/status`;
    mock.failNext({ networkError: true, match: { path: statusPath } });
    const done = gateway.payments.waitForFinal(payment, { timeoutMs: 20_000 });
    // Once a held read is open, the payment succeeds: that read answers it.
    for (let i = 0; i < 200; i++) {
      if (mock.requests.some((r) => r.path === statusPath && r.query.maxPollMs !== undefined)) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    mock.setPaymentStatus(payment.paymentId, 'succeeded');
    await done;

    const [follow] = named('payments.waitForFinal');
    expect(follow?.attributes).toMatchObject({
      'merchant_gateway.payment.id': payment.paymentId,
      'merchant_gateway.payment.status': 'succeeded',
    });
    const reads = named('payments.status');
    expect(reads.length).toBeGreaterThanOrEqual(3);
    for (const read of reads) {
      expect(parentOf(read)).toBe(follow && idOf(follow));
      expect(read.attributes['merchant_gateway.payment.id']).toBe(payment.paymentId);
    }
    const gets = named('GET /v1/payments/{paymentId}/status');
    expect(gets.map((g) => g.attributes['error.type'])).toContain('ConnectionError');
    expect(gets.every((g) => reads.some((r) => idOf(r) === parentOf(g)))).toBe(true);
    expect(gets[0]?.attributes['url.full']).toBe(`${BASE}${statusPath}`);

    const metrics = await otel.metrics();
    const held = metrics
      .get('http.client.request.duration')
      ?.dataPoints.filter((p) => p.attributes['merchant_gateway.held_read'] === true);
    expect(held?.length).toBeGreaterThan(0);
    // Reads of one payment add no series of their own: the payment id stays on the spans.
    const all = metrics.get('http.client.request.duration')?.dataPoints ?? [];
    expect(all.some((p) => 'merchant_gateway.payment.id' in p.attributes)).toBe(false);
    const follows = metrics.get('merchant_gateway.payment.follow.duration');
    expect(follows?.dataPoints).toHaveLength(1);
    expect(follows?.dataPoints[0]?.attributes).toEqual({
      'merchant_gateway.payment.status': 'succeeded',
    });
    expect(follows?.dataPoints[0]?.value).toMatchObject({ count: 1 });
  });

  it('watch ends its span with the last status when the caller stops early', async () => {
    const gateway = client();
    const payment = await create(gateway);
    for await (const update of gateway.payments.watch(payment)) {
      expect(update.status).toBe('requires_action');
      break;
    }
    const [follow] = named('payments.watch');
    expect(follow?.attributes['merchant_gateway.payment.status']).toBe('requires_action');
    expect(follow?.ended).toBe(true);
  });
});

describe('the follower', () => {
  it('counts the payments it holds and measures each one to its final status', async () => {
    // Providers of its own: the histogram's counts start from zero.
    const otel = setUpOtel();
    const gateway = client({
      telemetry: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
    });
    const payments: PaymentCreated[] = [];
    for (let i = 0; i < 12; i++) payments.push(await create(gateway, `order-f${i}`));
    const follower = gateway.payments.follower({ sweepIntervalMs: 100 });
    for (const payment of payments) follower.add(payment);
    // The follower's engine loads on first use (a chunk of its own): its count follows at once.
    expect(await heldCount(otel)).toBe(12);

    for (const payment of payments.slice(0, 8))
      mock.setPaymentStatus(payment.paymentId, 'succeeded');
    for (const payment of payments.slice(8)) mock.setPaymentStatus(payment.paymentId, 'failed');
    let finals = 0;
    for await (const change of follower) {
      if (change.isFinal && ++finals === 12) break;
    }
    const metrics = await otel.metrics();
    expect(metrics.get('merchant_gateway.follower.payments')?.dataPoints[0]?.value).toBe(0);
    const byStatus = Object.fromEntries(
      (metrics.get('merchant_gateway.payment.follow.duration')?.dataPoints ?? []).map((p) => [
        p.attributes['merchant_gateway.payment.status'],
        (p.value as { count: number }).count,
      ]),
    );
    expect(byStatus).toEqual({ succeeded: 8, failed: 4 });
  });

  it('gives back what it still holds when closed', async () => {
    const before =
      ((await otel.metrics()).get('merchant_gateway.follower.payments')?.dataPoints[0]
        ?.value as number) ?? 0;
    const gateway = client();
    const follower = gateway.payments.follower();
    follower.add(await create(gateway, 'order-c1'));
    follower.add(await create(gateway, 'order-c2'));
    follower.remove((await create(gateway, 'order-c3')).paymentId);
    expect(await heldCount(otel, before + 2)).toBe(before + 2);
    follower.close();
    const after = (await otel.metrics()).get('merchant_gateway.follower.payments');
    expect(after?.dataPoints[0]?.value).toBe(before);
  });
});

describe('with the context manager users install', () => {
  let off: (() => void) | undefined;
  afterAll(() => off?.());

  it("makes the caller's active span the parent, and logs carry its trace and span ids", async () => {
    off = useContextManager();
    const lines: LogData[] = [];
    const keep = (data: LogData) => void lines.push(data);
    const gateway = client({
      logger: { debug: keep, info: keep, warn: keep, error: keep },
      logLevel: 'debug',
    });
    const app = otel.tracerProvider.getTracer('shop');
    const checkout = await app.startActiveSpan('checkout', async (span) => {
      await create(gateway);
      span.end();
      return span;
    });
    const [call] = named('payments.create');
    expect(parentOf(call as never)).toBe(checkout.spanContext().spanId);
    expect(call?.spanContext().traceId).toBe(checkout.spanContext().traceId);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.trace_id).toBe(checkout.spanContext().traceId);
      expect(line.span_id).toBe(call?.spanContext().spanId);
    }
    // Without a span of the caller's, a line carries the ids of the SDK's own call.
    lines.length = 0;
    await gateway.merchants.list();
    expect(lines.length).toBeGreaterThan(0);
    expect(
      lines.every((l) => l.trace_id === named('merchants.list')[0]?.spanContext().traceId),
    ).toBe(true);
    context.disable();
    off = undefined;
  });

  it("passes the caller's tracestate on with the traceparent", async () => {
    off = useContextManager();
    const parent = trace.setSpanContext(context.active(), {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
      traceState: createTraceState('vendor=opaque'),
    });
    await context.with(parent, () => client().merchants.list());
    const sent = mock.requests.at(-1)?.headers;
    expect(sent?.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    expect(sent?.tracestate).toBe('vendor=opaque');
    context.disable();
    off = undefined;
  });
});

describe('the telemetry option', () => {
  it('is off without the option, whatever providers are registered globally', async () => {
    trace.setGlobalTracerProvider(otel.tracerProvider);
    try {
      await new MerchantGateway({
        baseUrl: BASE,
        apiKey: mock.credentials.apiKey,
        merchantId: mock.sample.merchantId,
        fetch: mock.fetch,
      }).merchants.list();
      expect(otel.finished()).toHaveLength(0);
      expect(mock.requests.at(-1)?.headers.traceparent).toBeUndefined();
    } finally {
      trace.disable();
    }
  });

  it('refuses a provider that is not one, from the constructor and withOptions', () => {
    const bad = { tracerProvider: {} } as never;
    expect(() => client({ telemetry: bad })).toThrow(ConfigurationError);
    expect(() => client({ telemetry: { meterProvider: { getTracer() {} } } as never })).toThrow(
      /telemetry.meterProvider has no getMeter\(\)/,
    );
    expect(() => client().withOptions({ telemetry: bad })).toThrow(ConfigurationError);
  });

  it('is off with no provider in it, and refuses what is not an object', async () => {
    await client({ telemetry: {} }).merchants.list();
    expect(otel.finished()).toHaveLength(0);
    expect(() => client({ telemetry: 'on' as never })).toThrow(/telemetry must be an object/);
  });

  it('records metrics alone when given only a meter provider', async () => {
    const local = setUpOtel();
    await client({ telemetry: { meterProvider: local.meterProvider } }).merchants.list();
    expect(otel.finished()).toHaveLength(0);
    const points = (await local.metrics()).get('http.client.request.duration')?.dataPoints;
    expect(points?.[0]?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/v1/merchants',
      'http.response.status_code': 200,
    });
    expect(mock.requests.at(-1)?.headers.traceparent).toBeUndefined();
  });

  it('is carried by withOptions, and can be turned off there', async () => {
    const base = client();
    await base.withOptions({ timeoutMs: 5_000 }).merchants.list();
    expect(named('merchants.list')).toHaveLength(1);
    await base.withOptions({ telemetry: undefined }).merchants.list();
    expect(named('merchants.list')).toHaveLength(1);
  });
});
