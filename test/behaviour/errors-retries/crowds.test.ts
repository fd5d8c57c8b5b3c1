import { getEventListeners } from 'node:events';
import { MerchantGateway } from 'merchant-gateway';
import { afterEach, describe, expect, test } from 'vitest';
import { createdBody, paymentParams } from '../../support';
import { API_KEY, hostile } from '../../support/hostile-server';

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

const created = createdBody;
const payment = paymentParams;

describe('crowds', () => {
  test('1,000 concurrent calls sharing one AbortSignal, with retry waits, print no MaxListenersExceededWarning', async () => {
    const seen = new Map<string, number>();
    const signal = new AbortController().signal;
    let mostListeners = 0;
    const server = await hostile((request, response) => {
      request.resume();
      // Node 22 no longer warns for an AbortSignal (Node 20, and EventTargets elsewhere, do):
      // what would trigger the warning is the number of listeners, so that is what is counted.
      mostListeners = Math.max(mostListeners, getEventListeners(signal, 'abort').length);
      const key = String(request.headers['idempotency-key']);
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      // Every first attempt is rate limited: each call then sleeps on the shared signal too.
      if (n === 1) {
        response.writeHead(429, { 'retry-after-ms': '50', 'content-type': 'application/json' });
        response.end('{"code":"rate_limited","message":"later"}');
        return;
      }
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify(created));
    });
    closeServer = server.close;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      // Retries enough for 1,000 connections at once on a loaded machine (one full run met
      // ECONNRESETs past the default two): this test counts listeners, not connection failures.
      const gateway = new MerchantGateway({ baseUrl: server.url, apiKey: API_KEY, maxRetries: 6 });
      const results = await Promise.all(
        Array.from({ length: 1_000 }, (_, i) =>
          gateway.payments.create(payment, { signal, idempotencyKey: `key-${i}` }),
        ),
      );
      expect(results).toHaveLength(1_000);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    expect(mostListeners).toBeLessThanOrEqual(1);
  }, 60_000);

  test('clients told to come back at one time are spread over a window after it, never before', async () => {
    const firstAt = new Map<string, number>();
    const retryAt: number[] = [];
    const server = await hostile((request, response) => {
      request.resume();
      const key = String(request.headers['idempotency-key']);
      const first = firstAt.get(key);
      if (first === undefined) {
        firstAt.set(key, Date.now());
        response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        response.end('{"code":"rate_limited","message":"later"}');
        return;
      }
      retryAt.push(Date.now() - first);
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify(created));
    });
    closeServer = server.close;
    // The wait each client chose, from its retry line: what the SDK decides, which a loaded
    // machine cannot stretch (the arrivals below it can: a busy event loop delivers late).
    const waits: number[] = [];
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      error: () => undefined,
      warn: (_data: unknown, message: string) => {
        const ms = / in (\d+) ms$/.exec(message)?.[1];
        if (ms !== undefined) waits.push(Number(ms));
      },
    };
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        new MerchantGateway({
          baseUrl: server.url,
          apiKey: API_KEY,
          maxRetryDelayMs: 1_500,
          logger,
          logLevel: 'warn',
        }).payments.create(payment, { idempotencyKey: `spread-${i}` }),
      ),
    );
    expect(retryAt).toHaveLength(100);
    expect(waits).toHaveLength(100);
    // Never before the time the service named, even by a millisecond of early delivery.
    expect(Math.min(...retryAt)).toBeGreaterThanOrEqual(1_000);
    // Each wait within [Retry-After, maxRetryDelayMs], and spread, not all in one burst.
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(1_500);
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(100);
  }, 30_000);
});
