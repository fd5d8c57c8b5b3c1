// A page that leaves before its answer (a closed tab, a dropped phone connection): the route's held
// status read of the service stops with it, on both hosts, instead of holding a connection to the
// service for up to 30 s; nothing is logged as a failure. A confirm, once asked for, is not stopped.
import { request as httpRequest } from 'node:http';
import { createMockGateway } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { openPayment, routeOnMock } from './support';

const mock = createMockGateway({ pollInMs: 100 });
/** Every request the client sent the service: its path and the signal it was sent with. */
const upstream: { path: string; signal: AbortSignal }[] = [];
const logged: string[] = [];
let setup: Awaited<ReturnType<typeof routeOnMock>>;

beforeAll(async () => {
  setup = await routeOnMock(mock, {
    fetch: (input, init) => {
      const request = new Request(input, init);
      upstream.push({ path: new URL(request.url).pathname, signal: request.signal });
      return fetch(request);
    },
    logLevel: 'warn',
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (_data: unknown, message: string) => void logged.push(`warn ${message}`),
      error: (_data: unknown, message: string) => void logged.push(`error ${message}`),
    },
  });
});
afterAll(() => setup?.close());

/** The client's read of `paymentId`'s status, once the route has started it. */
async function heldRead(paymentId: string): Promise<AbortSignal> {
  const path = `/v1/gateway/payment/${paymentId}/status`;
  await vi.waitUntil(() => upstream.some((sent) => sent.path === path), { timeout: 10_000 });
  return upstream.find((sent) => sent.path === path)?.signal as AbortSignal;
}

describe('a page that leaves during a held status read', { timeout: 60_000 }, () => {
  test('node(): the route stops its read of the service when the connection closes', async () => {
    const paymentId = await openPayment(setup.gateway, 'leave-node');
    const { hostname, port } = new URL(setup.host.url);
    const page = httpRequest({
      host: hostname,
      port,
      method: 'GET',
      path: `/api/wcp/payment/${paymentId}/status?maxPollMs=30000`,
    });
    page.on('error', () => undefined);
    page.end();
    const read = await heldRead(paymentId);
    expect(read.aborted).toBe(false); // held by the service, 30 s
    page.destroy();
    // Well before the 30 s the service would hold it.
    await vi.waitUntil(() => read.aborted, { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logged).toEqual([]);
  });

  test('fetch(): the route stops its read of the service when the request is aborted', async () => {
    const paymentId = await openPayment(setup.gateway, 'leave-fetch');
    const page = new AbortController();
    const answered = setup.route.fetch(
      new Request(`http://psp.example/api/wcp/payment/${paymentId}/status?maxPollMs=30000`, {
        signal: page.signal,
      }),
    );
    const read = await heldRead(paymentId);
    expect(read.aborted).toBe(false);
    page.abort();
    await vi.waitUntil(() => read.aborted, { timeout: 10_000 });
    // The Fetch handler never rejects: the host gets an answer it will not be able to send.
    expect((await answered).status).toBe(499);
    expect(logged).toEqual([]);
  });

  test('a read the page waits for is not stopped', async () => {
    const paymentId = await openPayment(setup.gateway, 'leave-none');
    const answer = await setup.route.fetch(
      new Request(`http://psp.example/api/wcp/payment/${paymentId}/status?maxPollMs=200`),
    );
    expect(answer.status).toBe(200);
    expect((await heldRead(paymentId)).aborted).toBe(false);
  });
});
