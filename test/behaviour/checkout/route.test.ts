// gateway.buyer.route(): the server half of a PSP's own checkout, served by a real node:http
// server and as a Fetch handler, in front of the mock over real HTTP. A page pays a payment
// through it with a viem account signing the option's typed data, and the key never shows.
import type { CheckoutRoute, MerchantGateway } from 'merchant-gateway';
import { BuyerClient } from 'merchant-gateway/buyer';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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
  ({ server, gateway, route, host, close } = await routeOnMock(mock, {}, { allowCancel: true }));
});
afterAll(() => close?.());

type Send = (method: string, target: string, call?: Call) => Promise<Answer>;
const hosts: [string, () => Send][] = [
  ['node()', () => (method, target, call) => rawCall(host.url, method, target, call)],
  ['fetch()', () => (method, target, call) => fetchCall(route, method, target, call)],
];

interface Action {
  type: string;
  data: { chain_id?: string; method?: string; params?: unknown[]; data?: string };
}

describe.each(hosts)('the route through %s', { timeout: 30_000 }, (_name, sender) => {
  test('a page pays a USDT payment through the five calls, and the key shows in no answer', {
    timeout: 60_000,
  }, async () => {
    const send = sender();
    const paymentId = await openPayment(gateway, `route-${_name}`);
    const account = privateKeyToAccount(generatePrivateKey());
    const base = `/api/wcp/payment/${paymentId}`;
    const answers: Answer[] = [];
    const ok = async (method: string, target: string, call?: Call) => {
      const answer = await send(method, target, call);
      answers.push(answer);
      expect(answer.status, answer.text).toBe(200);
      return answer.json as Record<string, unknown>;
    };

    const view = await ok('GET', base);
    expect(view).toMatchObject({ status: 'requires_action' });

    // Ethereum: the sample merchant takes USDT there, whose option carries a build action.
    const offered = await ok('POST', `${base}/options`, {
      body: { accounts: [`eip155:1:${account.address}`] },
    });
    const [option] = offered.options as { id: string; actions: Action[] }[];
    expect(option?.actions[0]?.type).toBe('build');

    const built = await ok('POST', `${base}/fetch`, {
      body: { optionId: option?.id, data: option?.actions[0]?.data.data },
    });
    const [action] = built.actions as Action[];
    expect(action?.data.method).toBe('eth_signTypedData_v4');
    const [, typed] = (action?.data.params ?? []) as [string, string];
    const signature = await account.signTypedData(JSON.parse(typed));

    const confirmed = await ok('POST', `${base}/confirm?maxPollMs=5000`, {
      body: { optionId: option?.id, results: [{ type: 'walletRpc', data: [signature] }] },
    });
    expect(['processing', 'succeeded']).toContain(confirmed.status);

    let status = confirmed;
    for (let i = 0; i < 20 && status.isFinal !== true; i++) {
      status = await ok('GET', `${base}/status?maxPollMs=5000`);
    }
    expect(status).toMatchObject({ status: 'succeeded', isFinal: true });
    const paid = await gateway.buyer.get(paymentId);
    expect(paid.buyer?.accountCaip10.toLowerCase()).toBe(
      `eip155:1:${account.address}`.toLowerCase(),
    );

    for (const answer of answers) {
      expectNoSecret(answer, mock.credentials.apiKey);
      expectOwnHeadersOnly(answer);
    }
  });

  test("nothing of the browser's request reaches the service: cookies, Authorization, its own headers", async () => {
    const send = sender();
    const paymentId = await openPayment(gateway, `route-headers-${_name}`);
    const browser = {
      cookie: 'session=s3cr3t-session',
      authorization: 'Bearer page-token',
      'x-custom': 'from-the-page',
      'x-forwarded-for': '203.0.113.9',
      origin: 'https://shop.example',
      'user-agent': 'PageAgent/1.0',
      'idempotency-key': 'page-chosen-key',
      'api-key': 'page-chosen-api-key',
    };
    const before = mock.requests.length;
    const read = await send('GET', `/api/wcp/payment/${paymentId}`, { headers: browser });
    const quoted = await send('POST', `/api/wcp/payment/${paymentId}/options`, {
      headers: browser,
      body: { accounts: [`eip155:8453:${privateKeyToAccount(generatePrivateKey()).address}`] },
    });
    expect([read.status, quoted.status]).toEqual([200, 200]);
    const received = mock.requests.slice(before);
    expect(received.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/gateway/payment/${paymentId}`,
      `POST /v1/gateway/payment/${paymentId}/options`,
    ]);
    for (const { headers } of received) {
      for (const name of [
        'cookie',
        'authorization',
        'x-custom',
        'x-forwarded-for',
        'origin',
        'idempotency-key',
      ]) {
        expect(headers, name).not.toHaveProperty(name);
      }
      expect(headers['user-agent']).not.toBe('PageAgent/1.0');
      // The client's own key, as the mock logs it, and not the page's.
      expect(headers['api-key']).toBe('***');
      expect(JSON.stringify(headers)).not.toMatch(/s3cr3t|page-token|from-the-page|page-chosen/);
    }
  });

  test('a maxPollMs past 30,000 is clamped to it, never refused', async () => {
    const send = sender();
    const paymentId = await openPayment(gateway, `route-poll-${_name}`);
    mock.setPaymentStatus(paymentId, 'succeeded');
    const before = mock.requests.length;
    const answer = await send('GET', `/api/wcp/payment/${paymentId}/status?maxPollMs=600000`);
    expect(answer.status).toBe(200);
    const zero = await send('GET', `/api/wcp/payment/${paymentId}/status?maxPollMs=0`);
    expect(zero.status).toBe(200);
    const sent = mock.requests.slice(before).map((r) => r.query.maxPollMs);
    expect(sent).toEqual(['30000', undefined]);
  });

  test('cancel is served with allowCancel, through buyer.cancel', async () => {
    const send = sender();
    const paymentId = await openPayment(gateway, `route-cancel-${_name}`);
    const answer = await send('POST', `/api/wcp/payment/${paymentId}/cancel`);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ paymentId, status: 'cancelled' });
  });

  test('a service 4xx keeps its status, code and message; nothing of its response else', async () => {
    const send = sender();
    const answer = await send('GET', '/api/wcp/payment/pay_doesNotExist1');
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({
      error: { code: 'payment_not_found', message: expect.any(String) },
    });
    expectOwnHeadersOnly(answer);
    expectNoSecret(answer, mock.credentials.apiKey);
  });
});

test('the buyer entry has the same route, on a BuyerClient with the app scheme', async () => {
  const buyer = new BuyerClient({
    baseUrl: server.url,
    appId: mock.credentials.appId,
    clientId: mock.credentials.clientId,
  });
  const paymentId = await openPayment(gateway, 'route-buyer-entry');
  const answer = await fetchCall(buyer.route(), 'GET', `/api/wcp/payment/${paymentId}`);
  expect(answer.status).toBe(200);
  expect(answer.json).toMatchObject({ status: 'requires_action' });
});
