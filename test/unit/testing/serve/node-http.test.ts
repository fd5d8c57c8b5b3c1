import { request as httpRequest } from 'node:http';
import { createMockGateway } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('listen()', () => {
  const mock = createMockGateway();
  let server: Awaited<ReturnType<typeof mock.listen>>;
  beforeAll(async () => {
    server = await mock.listen();
  });
  afterAll(() => server.close());

  it('serves on a loopback URL, with any path prefix before /v1/', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/api/gateway/v1/merchants/${mock.sample.merchantId}`, {
      headers: { 'Api-Key': mock.credentials.apiKey },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers 404 not_found for a path outside the interface', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });

  it('answers 405 with Allow for a known path and the wrong method', async () => {
    const res = await fetch(`${server.url}/v1/payments`, {
      method: 'PUT',
      headers: { 'Api-Key': mock.credentials.apiKey },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, GET');
  });

  it('rejects a raw non-ASCII header byte sequence on a payment read with 400 header_not_ascii', async () => {
    const { port } = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `/v1/gateway/payment/${mock.payments()[0]?.id}`,
          headers: { 'Api-Key': 'k\u00e9y' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
  });

  it('stops a delayed answer when the client gives up, and keeps serving', async () => {
    mock.failNext({ delayMs: 10_000 });
    const started = performance.now();
    await expect(
      fetch(`${server.url}/v1/merchants/${mock.sample.merchantId}`, {
        headers: { 'Api-Key': mock.credentials.apiKey },
        signal: AbortSignal.timeout(50),
      }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    const res = await fetch(`${server.url}/v1/merchants/${mock.sample.merchantId}`, {
      headers: { 'Api-Key': mock.credentials.apiKey },
    });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('frees the port on close()', async () => {
    const other = await mock.listen();
    await other.close();
    await expect(fetch(`${other.url}/v1/merchants`)).rejects.toBeInstanceOf(TypeError);
  });
});

describe('listen({ host })', () => {
  const mock = createMockGateway();
  const get = (url: string) =>
    fetch(`${url}/v1/merchants/${mock.sample.merchantId}`, {
      headers: { 'Api-Key': mock.credentials.apiKey },
    });

  it('binds every IPv4 interface for 0.0.0.0 and names 127.0.0.1 in its url', async () => {
    const server = await mock.listen({ host: '0.0.0.0' });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await get(server.url)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  /** Listening on `host`, the mock names [::1] in its url and answers there. */
  async function expectServedOnIpv6Loopback(host: string): Promise<void> {
    const server = await mock.listen({ host });
    try {
      expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect((await get(server.url)).status).toBe(200);
    } finally {
      await server.close();
    }
  }

  it('binds every IPv6 interface for :: and names [::1] in its url', async () => {
    await expectServedOnIpv6Loopback('::');
  });

  it('takes an IPv6 address with or without brackets and writes it bracketed in the url', async () => {
    for (const host of ['::1', '[::1]']) await expectServedOnIpv6Loopback(host);
  });

  it('rejects when the port is taken', async () => {
    const first = await mock.listen();
    try {
      const { port } = new URL(first.url);
      await expect(mock.listen({ port: Number(port) })).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      await first.close();
    }
  });
});

describe('mock.handlers', () => {
  it('loads msw on first read and gives the same handlers on every read, sync or async', async () => {
    const mock = createMockGateway();
    const handlers = mock.handlers;
    expect(handlers).toHaveLength(1);
    expect(mock.handlers).toBe(handlers);
    expect(await mock.loadHandlers()).toBe(handlers);
  });

  it('can be loaded with a dynamic import first, then read synchronously', async () => {
    const mock = createMockGateway();
    const handlers = await mock.loadHandlers();
    expect(mock.handlers).toBe(handlers);
  });
});
