// What each host form of the checkout route does with its own request: node() hands a path
// outside basePath to next(), matches Express's originalUrl, takes a body a framework already
// parsed; and both forms stop reading a body past maxBodyBytes (the rest is never read).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { CheckoutRoute } from 'merchant-gateway';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serve } from '../../support/servers';
import { expectNoSecret, expectOwnHeadersOnly, openPayment, rawCall } from './support';

const mock = createMockGateway({ pollInMs: 100 });
const LIMIT = 4096;
let server: MockServer;
let gateway: MerchantGateway;
let route: CheckoutRoute;
let paymentId: string;
const account = 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';

beforeAll(async () => {
  server = await mock.listen();
  gateway = new MerchantGateway({
    baseUrl: server.url,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
  });
  route = gateway.buyer.route({ maxBodyBytes: LIMIT });
  paymentId = await openPayment(gateway, 'route-hosts');
});
afterAll(() => server?.close());

/** A node:http server whose handler is the test's own, closed after `body` runs. */
async function withHost(
  handler: (
    req: IncomingMessage & { body?: unknown; originalUrl?: string },
    res: ServerResponse,
  ) => void,
  body: (url: string) => Promise<void>,
) {
  const host = await serve(handler);
  try {
    await body(host.url);
  } finally {
    await host.close();
  }
}

describe('node()', { timeout: 30_000 }, () => {
  test('a path outside basePath goes to next(); one under it never does', async () => {
    const before = mock.requests.length;
    await withHost(
      (req, res) => {
        void route.node(req, res, () => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('the host page');
        });
      },
      async (url) => {
        for (const target of [
          '/',
          '/shop/cart',
          '/api/wcpx/payment/pay_1',
          '/api/wc',
          '/API/WCP/payment/pay_1',
        ]) {
          const answer = await rawCall(url, 'GET', target);
          expect([target, answer.status, answer.text]).toEqual([target, 200, 'the host page']);
        }
        const under = await rawCall(url, 'GET', '/api/wcp/nothing');
        expect([under.status, (under.json as { error: { code: string } }).error.code]).toEqual([
          404,
          'not_found',
        ]);
      },
    );
    expect(mock.requests.length).toBe(before);
  });

  test('mounted as Express mounts it, the route matches req.originalUrl, not the cut req.url', async () => {
    await withHost(
      (req, res) => {
        req.originalUrl = req.url ?? '/';
        req.url = req.url?.slice('/api/wcp'.length) ?? '/';
        void route.node(req, res);
      },
      async (url) => {
        const read = await rawCall(url, 'GET', `/api/wcp/payment/${paymentId}`);
        expect(read.status).toBe(200);
        const dots = await rawCall(url, 'GET', '/api/wcp/payment/..');
        expect(dots.status).toBe(400);
      },
    );
  });

  test.each([
    ['an object (express.json())', (text: string) => JSON.parse(text)],
    ['a Buffer (express.raw())', (text: string) => Buffer.from(text)],
    ['a string (express.text())', (text: string) => text],
  ])('takes req.body a framework already read: %s', async (_kind, parsed) => {
    await withHost(
      (req, res) => {
        let text = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => {
          text += chunk;
        });
        req.on('end', () => {
          req.body = parsed(text);
          void route.node(req, res);
        });
      },
      async (url) => {
        const quoted = await rawCall(url, 'POST', `/api/wcp/payment/${paymentId}/options`, {
          body: { accounts: [account] },
        });
        expect(quoted.status, quoted.text).toBe(200);
        expect((quoted.json as { options: unknown[] }).options).toHaveLength(1);
        const before = mock.requests.length;
        const refused = await rawCall(url, 'POST', `/api/wcp/payment/${paymentId}/options`, {
          body: { accounts: ['nope'] },
        });
        expect(refused.status).toBe(400);
        expect((refused.json as { error: { message: string } }).error.message).toContain(
          'accounts.0',
        );
        const typed = await rawCall(url, 'POST', `/api/wcp/payment/${paymentId}/options`, {
          body: JSON.stringify({ accounts: [account] }),
          headers: { 'content-type': 'text/plain' },
        });
        expect(typed.status).toBe(415);
        expect(mock.requests.length).toBe(before);
      },
    );
  });

  test('a body past maxBodyBytes is 413 and the rest is never read: the connection closes', {
    timeout: 30_000,
  }, async () => {
    const host = await serve((req, res) => void route.node(req, res));
    const before = mock.requests.length;
    try {
      const { port } = new URL(host.url);
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      let closed = false;
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
      });
      const ended = new Promise<void>((resolve) => {
        socket.on('close', () => {
          closed = true;
          resolve();
        });
        socket.on('error', () => undefined);
      });
      socket.write(
        `POST /api/wcp/payment/${paymentId}/options HTTP/1.1\r\nHost: shop.example\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
      );
      // 64 MiB offered in 64 KiB chunks, as fast as the socket takes them: a server that kept
      // reading would take them all.
      const offered = 64 * 1024 * 1024;
      const piece = Buffer.alloc(64 * 1024, 'x');
      const frame = Buffer.concat([
        Buffer.from(`${piece.length.toString(16)}\r\n`),
        piece,
        Buffer.from('\r\n'),
      ]);
      let written = 0;
      while (!closed && written < offered) {
        written += piece.length;
        if (!socket.write(frame)) {
          await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), ended]);
        }
      }
      await ended;
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      expect(received).toContain('payload_too_large');
      expect(received.toLowerCase()).toContain('connection: close');
      // What the socket buffers take (a few MiB on loopback), far from all of it.
      expect(written).toBeLessThan(16 * 1024 * 1024);
      expectNoSecret(
        { status: 413, headers: {}, text: received, json: undefined },
        mock.credentials.apiKey,
      );
    } finally {
      await host.close();
    }
    expect(mock.requests.length).toBe(before);
  });

  test('a declared length past maxBodyBytes is 413 before a byte of the body is read', async () => {
    const host = await serve((req, res) => void route.node(req, res));
    try {
      const answer = await rawCall(host.url, 'POST', `/api/wcp/payment/${paymentId}/options`, {
        body: { accounts: [account], pad: 'x'.repeat(LIMIT) },
      });
      expect(answer.status).toBe(413);
      expect(answer.headers.connection).toBe('close');
      expectOwnHeadersOnly(answer);
    } finally {
      await host.close();
    }
  });
});

describe('fetch()', { timeout: 30_000 }, () => {
  /** A body of endless 16 KiB chunks that counts what was pulled and whether it was cancelled. */
  function endless() {
    const seen = { pulled: 0, cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        seen.pulled += 16 * 1024;
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return { body, seen };
  }

  const post = (target: string, body: ReadableStream<Uint8Array>) =>
    route.fetch(
      new Request(`http://psp.example${target}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
    );

  test('a body growing past maxBodyBytes is 413, and the stream is cancelled there', async () => {
    const { body, seen } = endless();
    const answer = await post(`/api/wcp/payment/${paymentId}/options`, body);
    expect(answer.status).toBe(413);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(LIMIT + 3 * 16 * 1024);
  });

  test('a body no answer needs is cancelled unread', async () => {
    const { body, seen } = endless();
    const answer = await post(`/api/wcp/payment/${paymentId}/refund`, body);
    expect(answer.status).toBe(404);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(2 * 16 * 1024);
  });
});

describe('odd requests and failures of our own', { timeout: 30_000 }, () => {
  test('a body whose sender goes away mid-way is a 400, and nothing is sent', async () => {
    const before = mock.requests.length;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"accounts": ['));
        controller.error(new Error('the page went away'));
      },
    });
    const answer = await route.fetch(
      new Request(`http://psp.example/api/wcp/payment/${paymentId}/options`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
    );
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(
      'cut short',
    );
    expect(mock.requests.length).toBe(before);
  });

  test('a request object of a framework of its own: no url reaches next(), chunks that are not bytes are a 400', async () => {
    const written: { status?: number; body?: string } = {};
    const res = {
      headersSent: false,
      writeHead(status: number) {
        written.status = status;
      },
      end(body: string) {
        written.body = body;
      },
      once() {},
    };
    let passed = false;
    await route.node({ headers: {}, destroy() {}, async *[Symbol.asyncIterator]() {} }, res, () => {
      passed = true;
    });
    expect(passed).toBe(true);
    const objects = {
      method: 'POST',
      url: `/api/wcp/payment/${paymentId}/options`,
      headers: { 'content-type': 'application/json' },
      complete: true,
      destroy() {},
      async *[Symbol.asyncIterator]() {
        yield { not: 'bytes' };
      },
    };
    await route.node(objects, res);
    expect(written.status).toBe(400);
    expect(written.body).toContain('unreadable');
  });

  test('a query with an empty pair is read as if it were not there', async () => {
    await withHost(
      (req, res) => void route.node(req, res),
      async (url) => {
        const answer = await rawCall(
          url,
          'GET',
          `/api/wcp/payment/${paymentId}/status?&maxPollMs=0&`,
        );
        expect(answer.status).toBe(200);
      },
    );
  });
});
