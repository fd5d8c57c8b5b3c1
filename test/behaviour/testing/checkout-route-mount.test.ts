// The route the mock's checkout page calls (`{prefix}/pay/api/wcp/…`), over the mock's real HTTP:
// the SDK's own gateway.buyer.route with the mock's key, cancel allowed, another site refused.
import { request as httpRequest } from 'node:http';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const mock = createMockGateway();
let server: MockServer;

beforeAll(async () => {
  server = await mock.listen();
});
afterAll(() => server?.close());

async function openPayment(): Promise<string> {
  const gateway = new MerchantGateway({
    baseUrl: server.url,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
  });
  const amount = { unit: 'iso4217/USD', value: '1250' };
  return (await gateway.payments.create({ amount, referenceId: 'route-mount' })).paymentId;
}

/** What reached the service (the mock's own log) while `step` ran. */
async function reached(step: () => Promise<void>): Promise<string[]> {
  const before = mock.requests.length;
  await step();
  return mock.requests.slice(before).map((request) => `${request.method} ${request.path}`);
}

describe("the mock's checkout route", () => {
  it('reads the payment as its buyer sees it, with no key in the request or the answer', async () => {
    const id = await openPayment();
    let body = '';
    const calls = await reached(async () => {
      const response = await fetch(`${server.url}/pay/api/wcp/payment/${id}`);
      expect(response.status).toBe(200);
      body = await response.text();
      expect([...response.headers.keys()].join()).not.toContain('api-key');
    });
    expect(JSON.parse(body)).toMatchObject({ status: 'requires_action' });
    expect(body).not.toContain(mock.credentials.apiKey);
    expect(calls).toEqual([`GET /v1/gateway/payment/${id}`]);
  });

  it('serves cancel, as the page offers Cancel', async () => {
    const id = await openPayment();
    const response = await fetch(`${server.url}/pay/api/wcp/payment/${id}/cancel`, {
      method: 'POST',
    });
    expect(response.status).toBe(200);
    expect(mock.getPayment(id)?.status).toBe('cancelled');
  });

  it('refuses a call another site makes through the browser, and sends nothing', async () => {
    const id = await openPayment();
    const calls = await reached(async () => {
      const response = await fetch(`${server.url}/pay/api/wcp/payment/${id}/cancel`, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'forbidden' } });
    });
    expect(calls).toEqual([]);
    expect(mock.getPayment(id)?.status).toBe('requires_action');
  });

  it.each([
    '/pay/api/wcp/v1/merchants',
    '/pay/api/wcp/payment/%252E%252E%252Fv1%252Fmerchants',
    '/pay/api/wcp/payment/pay_1%2F..%2F..%2Fmerchants',
  ])("%s is the route's own 404: nothing else of the mock is reachable under it", async (path) => {
    const calls = await reached(async () => {
      const response = await fetch(`${server.url}${path}`);
      expect([400, 404]).toContain(response.status);
      expect(await response.json()).toHaveProperty('error.code');
    });
    expect(calls).toEqual([]);
  });

  it('lives under the path prefix the mock was reached with', async () => {
    const id = await openPayment();
    const response = await fetch(`${server.url}/api/pay/api/wcp/payment/${id}/status`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'requires_action' });
  });

  it('answers under any Host and path prefix a client names (a LAN address, a proxy)', async () => {
    const id = await openPayment();
    const { port } = new URL(server.url);
    for (let i = 0; i < 20; i += 1) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: `/shop-${i}/pay/api/wcp/payment/${id}`,
            headers: { host: `shop-${i}.test` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(200);
    }
  });

  it('a path prefix the route cannot take as its base is a 404, not a dropped connection', async () => {
    const response = await fetch(`${server.url}/a%20b/pay/api/wcp/payment/pay_1`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
