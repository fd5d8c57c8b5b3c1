// No API key, in any encoding, in any span or metric of a run that meets every error class, even
// where the service echoes the key back or the caller passes it as an id.
import { Buffer } from 'node:buffer';
import { createMockGateway } from 'merchant-gateway/testing';
import { expect, it } from 'vitest';
import { partnerOverFetch } from '../../support';
import { setUpOtel } from './otel';

const KEY = 'sk_live_T0P/SECRET+k3y=partner';
const mock = createMockGateway({ credentials: { apiKey: KEY }, pollInMs: 100 });
const otel = setUpOtel();

const forms = [
  KEY,
  encodeURIComponent(KEY),
  encodeURIComponent(KEY).toLowerCase(),
  Buffer.from(KEY).toString('base64'),
  Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
  Buffer.from(KEY).toString('base64url'),
];

it('no span, attribute, status or metric attribute carries the key across every error class', async () => {
  const gateway = partnerOverFetch(mock, {
    baseUrl: 'http://127.0.0.1:1',
    apiKey: KEY,
    maxRetries: 0,
    timeoutMs: 200,
    telemetry: {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
      recordIdempotencyKeys: true,
    },
  });
  const echo = `key ${KEY} / ${encodeURIComponent(KEY)} / ${Buffer.from(KEY).toString('base64')}`;
  const seen: string[] = [];
  const attempt = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      seen.push((error as Error).name);
    }
  };
  for (const status of [400, 401, 404, 409, 429, 500]) {
    mock.failNext({ status, message: echo, headers: { 'x-echo': KEY } });
    await attempt(() => gateway.merchants.list());
  }
  mock.failNext({ networkError: true });
  await attempt(() => gateway.merchants.list());
  mock.failNext({ delayMs: 1_000 });
  await attempt(() => gateway.merchants.list());
  mock.failNext({ status: 200, body: { unexpected: KEY } });
  await attempt(() => gateway.merchants.list());
  // The key given where an id goes: in the URL (percent-encoded) and the payment id attribute.
  await attempt(() => gateway.payments.get(KEY));
  await attempt(() => gateway.payments.waitForFinal(KEY, { timeoutMs: 2_000 }));
  await attempt(() =>
    gateway.payments.create(
      { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'order-s' },
      { idempotencyKey: KEY },
    ),
  );
  expect(seen).toEqual(
    expect.arrayContaining([
      'InvalidRequestError',
      'AuthenticationError',
      'NotFoundError',
      'ConflictError',
      'RateLimitedError',
      'ServerError',
      'ConnectionError',
      'TimeoutError',
      'ResponseValidationError',
    ]),
  );

  const texts: string[] = [];
  const spans = otel.finished();
  expect(spans.length).toBeGreaterThan(10);
  for (const span of spans) {
    texts.push(span.name, span.status.message ?? '', JSON.stringify(span.attributes));
    for (const event of span.events) texts.push(event.name, JSON.stringify(event.attributes));
  }
  const metrics = await otel.metrics();
  expect(metrics.size).toBeGreaterThan(0);
  for (const metric of metrics.values()) {
    for (const point of metric.dataPoints) texts.push(JSON.stringify(point.attributes));
  }
  // The messages did reach the spans, scrubbed.
  expect(texts.join('\n')).toContain('***');
  for (const text of texts) {
    for (const form of forms) expect(text).not.toContain(form);
  }
});
