import { MerchantGateway, TimeoutError } from 'merchant-gateway';
import { afterEach, describe, expect, test } from 'vitest';
import { API_KEY, gc, hostile } from '../../support/hostile-server';

const CHUNK = Buffer.alloc(64 * 1024, 0x20);
let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

/**
 * A 200 whose JSON body streams about 6 MB/s and never ends; records when the client's socket
 * closes and how many bytes the server wrote after `mark()`.
 */
async function endlessBody() {
  const state = { closedAt: 0, written: 0, writtenAtMark: 0 };
  const server = await hostile((_, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"merchant":"');
    const timer = setInterval(() => {
      if (!response.destroyed) response.write(CHUNK, () => (state.written += CHUNK.length));
    }, 10);
    response.socket?.on('close', () => {
      clearInterval(timer);
      state.closedAt = Date.now();
    });
  });
  closeServer = server.close;
  return { url: server.url, state };
}

/** Forces a GC every 20 ms while `promise` runs: the GC that detaches a Request's signal. */
async function withGc<T>(promise: Promise<T>): Promise<T> {
  const timer = setInterval(gc, 20);
  try {
    return await promise;
  } finally {
    clearInterval(timer);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('an abandoned body is released at once, with GCs during the read', () => {
  test.each(['timeout', 'abort'] as const)(
    'after a %s, the server sees the socket closed within 1 s and memory stays flat',
    async (how) => {
      const { url, state } = await endlessBody();
      const gateway = new MerchantGateway({ baseUrl: url, apiKey: API_KEY, maxRetries: 0 });
      const controller = new AbortController();
      const reason = new Error('caller left');
      const call = gateway.merchants.get('mer_1', {
        ...(how === 'timeout' ? { timeoutMs: 400 } : { signal: controller.signal }),
      });
      if (how === 'abort') setTimeout(() => controller.abort(reason), 400);
      const error = await withGc(call.catch((e: unknown) => e));
      const rejectedAt = Date.now();
      if (how === 'timeout') expect(error).toBeInstanceOf(TimeoutError);
      else expect(error).toBe(reason);

      gc();
      const before = process.memoryUsage().arrayBuffers;
      await withGc(sleep(1_500));
      gc();
      const after = process.memoryUsage().arrayBuffers;

      expect(state.closedAt).toBeGreaterThan(0);
      expect(state.closedAt - rejectedAt).toBeLessThan(1_000);
      // At ~6 MB/s, a body still downloading would add ~9 MB in these 1.5 s.
      expect(after - before).toBeLessThan(2 * 2 ** 20);
    },
    30_000,
  );
});
