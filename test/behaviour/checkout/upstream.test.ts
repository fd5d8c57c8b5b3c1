// When the service fails behind the checkout route: its 4xx keep their status, code and message
// (redacted, nothing else of its response), and a 5xx, a dropped connection, a timeout or an
// unreadable 2xx are 502 `upstream_error`; a confirm whose answer is lost says its outcome is
// unknown, and the service saw exactly one confirm.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CheckoutRoute } from 'merchant-gateway';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostile } from '../../support/hostile-server';
import {
  type Answer,
  type Call,
  expectNoSecret,
  expectOwnHeadersOnly,
  fetchCall,
  openPayment,
  rawCall,
  routeOnMock,
  type serveRoute,
} from './support';

const mock = createMockGateway({ pollInMs: 100 });
let server: MockServer;
let gateway: MerchantGateway;
let route: CheckoutRoute;
let host: Awaited<ReturnType<typeof serveRoute>>;
let close: () => Promise<void>;

beforeAll(async () => {
  const client = { maxRetries: 1, timeoutMs: 2_000 };
  ({ server, gateway, route, host, close } = await routeOnMock(mock, client));
});
afterAll(() => close?.());

type Send = (method: string, target: string, call?: Call) => Promise<Answer>;
const confirmsOf = (paymentId: string) =>
  mock.requests.filter(
    (r) => r.method === 'POST' && r.path === `/v1/gateway/payment/${paymentId}/confirm`,
  );
const errorOf = (answer: Answer) =>
  (answer.json as { error: { code: string; message: string } }).error;

function checked(answer: Answer): Answer {
  expectNoSecret(answer, mock.credentials.apiKey);
  expectOwnHeadersOnly(answer);
  return answer;
}

describe.each<[string, () => Send]>([
  ['node()', () => (method, target, call) => rawCall(host.url, method, target, call)],
  ['fetch()', () => (method, target, call) => fetchCall(route, method, target, call)],
])('behind the route through %s', { timeout: 30_000 }, (name, sender) => {
  test('a 5xx on a read, after the client has retried it, is 502 upstream_error', {
    timeout: 20_000,
  }, async () => {
    const paymentId = await openPayment(gateway, `up-5xx-${name}`);
    mock.failNext({
      status: 503,
      times: 2,
      match: { method: 'GET', path: '/v1/gateway/payment/' },
    });
    const answer = checked(await sender()('GET', `/api/wcp/payment/${paymentId}`));
    expect(answer.status).toBe(502);
    expect(errorOf(answer)).toEqual({
      code: 'upstream_error',
      message: expect.stringContaining('try again'),
    });
  });

  test('a dropped connection and a timeout are 502 upstream_error', {
    timeout: 30_000,
  }, async () => {
    const paymentId = await openPayment(gateway, `up-drop-${name}`);
    mock.failNext({ networkError: true, times: 2, match: { path: '/v1/gateway/payment/' } });
    const dropped = checked(await sender()('GET', `/api/wcp/payment/${paymentId}/status`));
    expect([dropped.status, errorOf(dropped).code]).toEqual([502, 'upstream_error']);
    // A client of its own with a short timeout: the one slow answer outlasts it.
    const impatient = new MerchantGateway({
      baseUrl: server.url,
      apiKey: mock.credentials.apiKey,
      maxRetries: 0,
      timeoutMs: 300,
    }).buyer.route();
    mock.failNext({ delayMs: 3_000, match: { path: '/v1/gateway/payment/' } });
    const slow = checked(await fetchCall(impatient, 'GET', `/api/wcp/payment/${paymentId}`));
    expect([slow.status, errorOf(slow).code]).toEqual([502, 'upstream_error']);
  });

  test('a 2xx the SDK cannot read is 502 upstream_error, not the body it came with', async () => {
    const paymentId = await openPayment(gateway, `up-garbage-${name}`);
    mock.failNext({
      status: 200,
      body: { leaked: 'internal' },
      match: { path: '/v1/gateway/payment/' },
    });
    const answer = checked(await sender()('GET', `/api/wcp/payment/${paymentId}`));
    expect([answer.status, errorOf(answer).code]).toEqual([502, 'upstream_error']);
    expect(answer.text).not.toContain('internal');
  });

  test("a 4xx keeps its status, code and message, the key redacted, and none of the service's headers or request id", async () => {
    const paymentId = await openPayment(gateway, `up-4xx-${name}`);
    mock.failNext({
      status: 400,
      code: 'invalid_params',
      message: `key ${mock.credentials.apiKey} (${encodeURIComponent(mock.credentials.apiKey)}) is not allowed here`,
      headers: { 'x-request-id': 'req_from_service_1', 'set-cookie': 'svc=1', 'x-internal': 'yes' },
      match: { path: '/v1/gateway/payment/' },
    });
    const answer = checked(await sender()('GET', `/api/wcp/payment/${paymentId}`));
    expect(answer.status).toBe(400);
    expect(errorOf(answer).code).toBe('invalid_params');
    expect(errorOf(answer).message).toMatch(/^key \*\*\* \(\*\*\*\) is not allowed here$/);
    expect(answer.text).not.toContain('req_from_service_1');
    expect(answer.headers).not.toHaveProperty('set-cookie');
  });

  test('a 2xx that echoes the key (a misbehaving service or proxy) reaches the page without it', async () => {
    const paymentId = await openPayment(gateway, `up-echo-${name}`);
    const view = await gateway.buyer.get(paymentId);
    const key = mock.credentials.apiKey;
    mock.failNext({
      status: 200,
      body: { ...view, note: `sent with ${key}`, [key]: encodeURIComponent(key) },
      match: { path: '/v1/gateway/payment/' },
    });
    const answer = checked(await sender()('GET', `/api/wcp/payment/${paymentId}`));
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: view.status, note: 'sent with ***' });
  });

  test('rate limiting the client will not wait out is 429 rate_limited, without Retry-After', async () => {
    const paymentId = await openPayment(gateway, `up-429-${name}`);
    mock.failNext({ status: 429, retryAfter: 3600, match: { path: '/v1/gateway/payment/' } });
    const answer = checked(await sender()('GET', `/api/wcp/payment/${paymentId}`));
    expect([answer.status, errorOf(answer).code]).toEqual([429, 'rate_limited']);
    expect(answer.headers).not.toHaveProperty('retry-after');
  });

  test('a confirm answered 5xx is 502 saying the outcome is unknown, and is not sent again', async () => {
    const paymentId = await openPayment(gateway, `up-confirm-5xx-${name}`);
    // One fault: a second confirm, were it sent, would reach the mock and show in its log.
    mock.failNext({ status: 500, match: { method: 'POST', path: '/confirm' } });
    const answer = checked(
      await sender()('POST', `/api/wcp/payment/${paymentId}/confirm`, {
        body: { optionId: 'opt_1', results: [{ type: 'walletRpc', data: ['0x00'] }] },
      }),
    );
    expect([answer.status, errorOf(answer).code]).toEqual([502, 'upstream_error']);
    expect(errorOf(answer).message).toMatch(/outcome is unknown.*status/);
    expect(confirmsOf(paymentId)).toHaveLength(1);
  });
});

/** A proxy in front of the mock that lets every request through, but loses each confirm's answer. */
async function losingConfirms() {
  return hostile((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(key)) {
          headers[key] = value;
        }
      }
      const body = Buffer.concat(chunks);
      const answer = await fetch(`${server.url}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const text = await answer.text();
      // The service acted on the confirm; its answer never arrives.
      if (req.url?.includes('/confirm')) {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(text);
    })();
  });
}

test('a confirm whose answer is lost: 502 upstream_error, the page told to read the status, one confirm sent, and the status then shows it paid', {
  timeout: 30_000,
}, async () => {
  const proxy = await losingConfirms();
  try {
    const behind = new MerchantGateway({
      baseUrl: proxy.url,
      apiKey: mock.credentials.apiKey,
      maxRetries: 3,
    });
    const lossy = behind.buyer.route();
    const paymentId = await openPayment(gateway, 'up-confirm-lost');
    const account = privateKeyToAccount(generatePrivateKey());
    const base = `/api/wcp/payment/${paymentId}`;
    const offered = await fetchCall(lossy, 'POST', `${base}/options`, {
      body: { accounts: [`eip155:8453:${account.address}`] },
    });
    const [option] = (
      offered.json as { options: { id: string; actions: { data: { params: string[] } }[] }[] }
    ).options;
    const typed = option?.actions[0]?.data.params[1] ?? '';
    const signature = await account.signTypedData(JSON.parse(typed));

    const answer = checked(
      await fetchCall(lossy, 'POST', `${base}/confirm`, {
        body: { optionId: option?.id, results: [{ type: 'walletRpc', data: [signature] }] },
      }),
    );
    expect([answer.status, errorOf(answer).code]).toEqual([502, 'upstream_error']);
    expect(errorOf(answer).message).toContain("read the payment's status");
    expect(confirmsOf(paymentId)).toHaveLength(1);

    const status = await fetchCall(lossy, 'GET', `${base}/status?maxPollMs=5000`);
    expect(['processing', 'succeeded']).toContain((status.json as { status: string }).status);
  } finally {
    await proxy.close();
  }
});
