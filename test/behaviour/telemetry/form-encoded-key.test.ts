// A key holding characters that URLSearchParams encodes unlike encodeURIComponent (`~ ! ' ( )` and
// the space) is redacted in the form the SDK itself writes it (issue 37.3): the key in a list's
// query (the span's url.full) and echoed by the service form-encoded (the error message, the span
// status, the log lines), with a real OpenTelemetry SDK.

import { createMockGateway } from 'merchant-gateway/testing';
import { expect, it } from 'vitest';
import { partnerOverFetch } from '../../support';
import { setUpOtel } from './otel';

const KEY = "sk_live_k~!'() x*partner";
const mock = createMockGateway({ credentials: { apiKey: KEY } });
const otel = setUpOtel();

const form = new URLSearchParams({ k: KEY }).toString().slice(2);
const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
const forms = [
  KEY,
  encodeURIComponent(KEY),
  lower(encodeURIComponent(KEY)),
  form,
  lower(form),
  JSON.stringify(KEY).slice(1, -1),
];

it('a key in a query and echoed form-encoded shows in no span, metric, error or log line', async () => {
  expect(form).not.toBe(encodeURIComponent(KEY)); // the case this test is about
  const lines: string[] = [];
  const log = (...args: unknown[]) => {
    lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  };
  const gateway = partnerOverFetch(mock, {
    baseUrl: 'http://127.0.0.1:1',
    apiKey: KEY,
    maxRetries: 0,
    logLevel: 'debug',
    logger: { debug: log, info: log, warn: log, error: log },
    telemetry: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
  });
  const errors: string[] = [];
  const attempt = async (run: () => Promise<unknown>) => {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    if (error) errors.push(error.message, JSON.stringify(error), String(error.stack));
  };

  // The key as a cursor: URLSearchParams writes it into the query form-encoded.
  mock.failNext({ status: 400, message: `cursor=${form} is not a cursor of this list` });
  await attempt(() => gateway.payments.list({ cursor: KEY }));
  // A service that echoes what it was sent as a form body.
  mock.failNext({ status: 500, message: `echo: apiKey=${form}&q=${lower(form)}` });
  await attempt(() => gateway.merchants.list({ limit: 1 }));
  mock.failNext({ status: 404, message: `no payment "${JSON.stringify(KEY).slice(1, -1)}"` });
  await attempt(() => gateway.payments.get('pay_missing'));

  const texts: string[] = [...errors, ...lines];
  const spans = otel.finished();
  expect(spans.length).toBeGreaterThanOrEqual(3);
  for (const span of spans) {
    texts.push(span.name, span.status.message ?? '', JSON.stringify(span.attributes));
    for (const event of span.events) texts.push(event.name, JSON.stringify(event.attributes));
  }
  for (const metric of (await otel.metrics()).values()) {
    for (const point of metric.dataPoints) texts.push(JSON.stringify(point.attributes));
  }
  const all = texts.join('\n');
  // The query and the echoes did reach the spans, the errors and the logs, scrubbed.
  expect(spans.some((s) => String(s.attributes['url.full']).includes('cursor=***'))).toBe(true);
  expect(errors.join('\n')).toContain('cursor=***');
  expect(all).toContain('apiKey=***&q=***');
  for (const shape of forms) expect(all).not.toContain(shape);
});
