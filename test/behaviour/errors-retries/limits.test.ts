import { gzipSync } from 'node:zlib';
import {
  ApiError,
  ConnectionError,
  MerchantGateway,
  ResponseTooLargeError,
  ResponseValidationError,
} from 'merchant-gateway';
import { afterEach, describe, expect, test } from 'vitest';
import { API_KEY, gc, hostile } from '../../support/hostile-server';

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

async function serve(
  status: number,
  body: string | Buffer,
  headers: Record<string, string | number> = {},
) {
  let requests = 0;
  const server = await hostile((_, response) => {
    requests += 1;
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(body);
  });
  closeServer = server.close;
  return { url: server.url, requests: () => requests };
}

const client = (url: string, options = {}) =>
  new MerchantGateway({ baseUrl: url, apiKey: API_KEY, maxRetries: 0, ...options });

describe('response size limits', () => {
  test('a 2xx body past maxResponseBytes rejects with ResponseTooLargeError', async () => {
    const { url } = await serve(200, `{"merchant":"${'x'.repeat(11 * 2 ** 20)}"}`);
    const error = await client(url)
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseTooLargeError).maxBytes).toBe(10 * 2 ** 20);
  });

  test('the limit counts decoded bytes: a small gzip that expands past it is cut', async () => {
    const zipped = gzipSync(Buffer.alloc(50 * 2 ** 20, 0x20));
    expect(zipped.length).toBeLessThan(2 ** 20);
    const { url } = await serve(200, zipped, { 'content-encoding': 'gzip' });
    const before = process.memoryUsage().arrayBuffers;
    const error = await client(url, { maxResponseBytes: 2 ** 20 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(20 * 2 ** 20);
  });

  test('an error body past 64 KiB is kept up to it, marked as cut, whatever maxResponseBytes allows', async () => {
    const message = 'm'.repeat(3 * 2 ** 20);
    const { url } = await serve(500, JSON.stringify({ code: 'internal_error', message }));
    const error = (await client(url, { maxResponseBytes: 2 ** 20 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.bodyTruncated).toBe(true);
    expect(typeof error.body).toBe('string');
    expect((error.body as string).length).toBe(64 * 1024);
    expect(error.message.length).toBeLessThan(2_100);
  });

  test('an error body under a smaller maxResponseBytes is cut at that limit', async () => {
    const { url } = await serve(500, 'e'.repeat(10_000));
    const error = (await client(url, { maxResponseBytes: 1000 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.bodyTruncated).toBe(true);
    expect(error.body).toBe('e'.repeat(1000));
  });

  test('an error body is not read past 64 KiB: a 5xx page that never ends still fails at once', async () => {
    const server = await hostile((_, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      // 256 KiB, then the connection stays open: only a reader that stops at 64 KiB returns.
      response.write('<p>proxy error</p>'.padEnd(256 * 1024, '.'));
    });
    closeServer = server.close;
    const started = Date.now();
    const error = (await client(server.url, { timeoutMs: 10_000 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.bodyTruncated).toBe(true);
    expect((error.body as string).length).toBe(64 * 1024);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 15_000);

  test('a hundred calls failing at once against 1 MiB 5xx pages keep at most 64 KiB each', async () => {
    const { url } = await serve(503, `<html>${'x'.repeat(2 ** 20)}</html>`, {
      'content-type': 'text/html',
    });
    const gateway = client(url);
    gc();
    const before = process.memoryUsage().heapUsed;
    const errors = (await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        gateway.merchants.get(`mer_${i}`).catch((e: unknown) => e),
      ),
    )) as ApiError[];
    gc();
    const held = process.memoryUsage().heapUsed - before;
    for (const error of errors) {
      expect(error.bodyTruncated).toBe(true);
      expect(Buffer.byteLength(error.body as string)).toBeLessThanOrEqual(64 * 1024);
    }
    // 100 x 64 KiB is 6.25 MiB of body text; 100 x 1 MiB would be 100 MiB.
    expect(held).toBeLessThan(20 * 2 ** 20);
    expect(errors).toHaveLength(100);
  }, 30_000);

  test('a huge service message is cut in the error message and in every retry log line', async () => {
    const message = 'm'.repeat(5 * 2 ** 20);
    const { url, requests } = await serve(
      503,
      JSON.stringify({ code: 'internal_error', message }),
      { 'retry-after-ms': '1' },
    );
    const lines: string[] = [];
    const logger = {
      debug() {},
      info() {},
      // pino's order: the data (with the message in it), then the message.
      warn: (data: object, line: string) => lines.push(line, JSON.stringify(data)),
      error() {},
    };
    const error = (await client(url, { maxRetries: 2, logger, logLevel: 'warn' })
      .merchants.get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(requests()).toBe(3);
    expect(error.message.length).toBeLessThan(2_100);
    expect(error.bodyTruncated).toBe(true);
    expect((error.body as string).length).toBe(64 * 1024);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line.length).toBeLessThan(2_200);
  }, 60_000);

  test('JSON.stringify survives an error with 100,000-deep details', async () => {
    const depth = 100_000;
    const details = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const { url } = await serve(
      400,
      `{"code":"invalid_params","message":"no","details":${details}}`,
    );
    const error = await client(url)
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(() => JSON.stringify(error)).not.toThrow();
    expect(() => JSON.stringify((error as ApiError).details)).not.toThrow();
    expect(() => JSON.stringify((error as ApiError).body)).not.toThrow();
  });
});

describe('failures a retry cannot cure are not retried', () => {
  test('100 KB of response headers ("Headers Overflow") is tried once, even on a GET', async () => {
    const { url, requests } = await serve(200, '{}', { 'x-big': 'a'.repeat(100_000) });
    const error = await client(url, { maxRetries: 2 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/overflow/i);
    expect(requests()).toBe(1);
  });
});

describe('maxResponseBytes is checked when the client is built', () => {
  test.each([0, -1, 1.5, Number.NaN, '10' as unknown as number])(
    'a limit of %s throws ConfigurationError',
    (maxResponseBytes) => {
      expect(
        () =>
          new MerchantGateway({
            baseUrl: 'https://gateway.test',
            apiKey: API_KEY,
            maxResponseBytes,
          }),
      ).toThrow(/maxResponseBytes must be a positive whole number of bytes/);
    },
  );
});
