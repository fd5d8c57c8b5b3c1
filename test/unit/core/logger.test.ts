import { Writable } from 'node:stream';
import type { Logger } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { pino } from 'pino';
import { describe, expect, test, vi } from 'vitest';
import winston from 'winston';
import { API_KEY, gateway, merchantGetBody, useMsw } from '../../support';

const server = useMsw(
  http.get('https://gateway.test/v1/merchants/mer_1', () => HttpResponse.json(merchantGetBody)),
);

/** A stream that keeps every line written to it, parsed as JSON. */
function jsonLines(): { stream: Writable; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { stream, lines };
}

const SENT = /^\[merchant-gateway\] → GET \/v1\/merchants\/mer_1 \(attempt 1\)$/;

describe('log lines keep their structured data in real loggers', () => {
  test('pino logs the data as fields and the message as msg', async () => {
    const { stream, lines } = jsonLines();
    const logger = pino({ level: 'debug' }, stream);
    await gateway({ logger, logLevel: 'debug' }).merchants.get('mer_1');
    const sent = lines.find((line) => typeof line.msg === 'string' && SENT.test(line.msg));
    expect(sent).toBeDefined();
    expect(sent?.message).toBe(sent?.msg);
    expect(sent?.headers).toMatchObject({ 'api-key': '***', accept: 'application/json' });
    expect(JSON.stringify(lines)).not.toContain(API_KEY);
  });

  test('winston keeps the data and, inside it, the message', async () => {
    const { stream, lines } = jsonLines();
    const logger = winston.createLogger({
      level: 'debug',
      format: winston.format.json(),
      transports: [new winston.transports.Stream({ stream })],
    });
    await gateway({ logger, logLevel: 'debug' }).merchants.get('mer_1');
    await vi.waitFor(() => expect(lines.length).toBeGreaterThanOrEqual(2));
    const sent = lines
      .map((line) => line.message as Record<string, unknown>)
      .find((data) => typeof data?.message === 'string' && SENT.test(data.message));
    expect(sent).toBeDefined();
    expect(sent?.headers).toMatchObject({ 'api-key': '***', accept: 'application/json' });
    expect(JSON.stringify(lines)).not.toContain(API_KEY);
  });

  test.each([
    ['the default console', {}],
    ['console passed as the logger', { logger: console }],
  ])(
    '%s gets one line per event, the message first, then the data compactly',
    async (_, options) => {
      const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
      await gateway({ logLevel: 'debug', ...options }).merchants.get('mer_1');
      expect(debug.mock.calls.length).toBeGreaterThan(0);
      for (const args of debug.mock.calls) {
        expect(args).toHaveLength(1);
        expect(args[0]).toMatch(/^\[merchant-gateway\] /);
        expect(args[0]).not.toContain('\n');
      }
      const [line] = debug.mock.calls[0] ?? [];
      const match = /^(\[merchant-gateway\] [^{]*?) (\{.*\})$/.exec(line as string);
      expect(match?.[1]).toMatch(SENT);
      // The message is said once, not again inside the data.
      expect((line as string).split('[merchant-gateway]')).toHaveLength(2);
      expect(JSON.parse(match?.[2] ?? '')).toMatchObject({ headers: { 'api-key': '***' } });
      expect(line).not.toContain(API_KEY);
    },
  );

  test('a console line without data is the message alone', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    server.use(
      http.get('https://gateway.test/v1/merchants/mer_1', () =>
        HttpResponse.json({ code: 'internal_error', message: 'boom' }, { status: 500 }),
      ),
    );
    await gateway({ logLevel: 'warn', maxRetries: 1, maxRetryDelayMs: 1 })
      .merchants.get('mer_1')
      .catch(() => {});
    expect(warn.mock.calls[0]).toEqual([
      expect.stringMatching(
        /^\[merchant-gateway\] GET \/v1\/merchants\/mer_1 → 500 .*; retry 1 of 1 in \d+ ms$/,
      ),
    ]);
  });

  test('a line without data still passes an object with the message first', async () => {
    server.use(
      http.get('https://gateway.test/v1/merchants/mer_1', () =>
        HttpResponse.json({ code: 'internal_error', message: 'boom' }, { status: 500 }),
      ),
    );
    const warn = vi.fn<Logger['warn']>();
    const logger: Logger = { debug() {}, info() {}, warn, error() {} };
    await gateway({ logger, logLevel: 'warn', maxRetries: 1, maxRetryDelayMs: 1 })
      .merchants.get('mer_1')
      .catch(() => {});
    const [data, message] = warn.mock.calls[0] ?? [];
    expect(message).toMatch(
      /^\[merchant-gateway\] GET \/v1\/merchants\/mer_1 → 500 .*; retry 1 of 1 in \d+ ms$/,
    );
    expect(data).toStrictEqual({ message });
  });
});
