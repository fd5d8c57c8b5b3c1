// The mock delivers the service's webhooks as the service does, to a real receiver on 127.0.0.1
// (node:http, verifying with the standardwebhooks library): retries on the scaled schedule with
// the same webhook-id through a 500, a hang past the timeout, a redirect (not followed) and a
// closed socket; the delivery log shows each attempt; a failed delivery is resent; the control
// API drives the same from any language; the log stays bounded; close() and reset() stop it.

import { createMockGateway, type MockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { partnerOverFetch } from '../../support';
import { type Answer, type Receiver, startReceiver } from '../../support/webhook-receiver';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** The service's waits (5 s, 5 min, 30 min, 2 h, …) at 1/50,000: 0.1 ms, 6 ms, 36 ms, 144 ms, … */
const SCALE = 0.00002;
const SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

async function setup(answer: (attempt: number) => Answer, options = {}) {
  const receiver = await startReceiver(SECRET, answer);
  const mock = createMockGateway({
    webhooks: [{ url: receiver.url, secret: SECRET, types: ['payment.cancelled'] }],
    webhookRetryScale: SCALE,
    webhookTimeoutMs: 1000,
    ...options,
  });
  open.push(receiver, mock);
  return { receiver, mock };
}

/** A payment created and cancelled over mock.fetch: its one `payment.cancelled` event. */
async function cancelledPayment(mock: MockGateway): Promise<string> {
  const gateway = partnerOverFetch(mock);
  const { paymentId } = await gateway.payments.create({
    amount: { unit: 'iso4217/USD', value: '100' },
    referenceId: 'hook-1',
  });
  await gateway.payments.cancel(paymentId);
  return paymentId;
}

function attemptsOf(receiver: Receiver) {
  return receiver.deliveries.filter((d) => d.path === '/hooks');
}

describe('webhook delivery from the mock', () => {
  it('retries a 500, a hang, a redirect and a closed socket on the scaled schedule, one webhook-id, then a 2xx acks', async () => {
    const answers: Answer[] = [500, 'hang', 'redirect', 'close', 'ok'];
    const { receiver, mock } = await setup((n) => answers[n] ?? 'ok');
    const paymentId = await cancelledPayment(mock);
    await receiver.until(() => attemptsOf(receiver).length === 5);
    expect(await mock.webhooks.idle()).toBe(true);

    const got = attemptsOf(receiver);
    expect(receiver.rejected).toBe(0); // every attempt signed afresh and valid
    expect(new Set(got.map((d) => d.headers.id)).size).toBe(1);
    expect(got[0]?.headers.id).toMatch(/^msg_/);
    // Each attempt is stamped (and signed) when it is sent, not when the event happened.
    for (const d of got) {
      expect(Math.abs(Number(d.headers.timestamp) - d.at / 1000)).toBeLessThanOrEqual(2);
    }
    expect(new Set(got.map((d) => d.event?.id)).size).toBe(1);
    // The redirect was not followed: nothing reached /elsewhere.
    expect(receiver.deliveries.filter((d) => d.path !== '/hooks')).toEqual([]);
    // Each attempt waited at least the scaled wait after the previous one ended.
    for (let i = 1; i < got.length; i++) {
      const gap = (got[i]?.at ?? 0) - (got[i - 1]?.at ?? 0);
      expect(gap).toBeGreaterThanOrEqual(Math.floor((SCHEDULE_MS[i - 1] ?? 0) * SCALE));
    }

    const [delivery] = mock.webhooks.deliveries();
    expect(delivery).toMatchObject({
      status: 'delivered',
      type: 'payment.cancelled',
      paymentId,
      paymentStateVersion: 1,
      eventId: got[0]?.event?.id,
      messageId: got[0]?.headers.id,
      nextAttemptAt: null,
    });
    expect(delivery?.attempts.map((a) => [a.status, a.error])).toEqual([
      [500, 'HTTP 500'],
      [null, 'no answer within 1000 ms'],
      [302, 'redirect 302: not followed'],
      [null, expect.stringMatching(/^connection failed/)],
      [200, null],
    ]);
    // The hang lasted the timeout, not longer.
    expect(delivery?.attempts[1]?.durationMs).toBeGreaterThanOrEqual(990);
  });

  it('fails after 8 attempts, keeps the delivery in the log, and a resend delivers the same event', async () => {
    let down = true;
    const { receiver, mock } = await setup(() => (down ? 503 : 'ok'));
    await cancelledPayment(mock);
    await receiver.until(() => attemptsOf(receiver).length === 8);
    expect(await mock.webhooks.idle()).toBe(true);
    const [failed] = mock.webhooks.deliveries();
    expect(failed?.status).toBe('failed');
    expect(failed?.attempts).toHaveLength(8);
    expect(failed?.attempts.every((a) => a.status === 503)).toBe(true);

    down = false;
    expect(mock.webhooks.resend(failed?.id ?? '')?.status).toBe('pending');
    await receiver.until(() => attemptsOf(receiver).length === 9);
    expect(await mock.webhooks.idle()).toBe(true);
    const [resent] = mock.webhooks.deliveries();
    expect(resent).toMatchObject({ id: failed?.id, status: 'delivered' });
    expect(resent?.attempts).toHaveLength(9);
    const ids = new Set(attemptsOf(receiver).map((d) => `${d.headers.id} ${d.event?.id}`));
    expect(ids.size).toBe(1);
    expect(mock.webhooks.resend('dlv_unknown')).toBeUndefined();
  });

  it('sends through the fetch it is given, from a mock served with mock.fetch alone', async () => {
    const sent: { url: string; headers: Headers; body: string }[] = [];
    const mock = createMockGateway({
      webhooks: [{ url: 'https://shop.example/hooks' }],
      webhookFetch: async (url, init) => {
        sent.push({ url, headers: new Headers(init.headers), body: String(init.body) });
        return new Response(null, { status: 204 });
      },
    });
    open.push(mock);
    const [endpoint] = mock.webhooks.list();
    expect(endpoint?.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/); // generated
    await cancelledPayment(mock);
    expect(await mock.webhooks.idle()).toBe(true);
    // Delivery is unordered (each attempt signs on its own): compare in version order.
    const events = sent.map((s) => JSON.parse(s.body));
    events.sort((a, b) => a.data.payment_state_version - b.data.payment_state_version);
    expect(events.map((e) => e.type)).toEqual(['payment.created', 'payment.cancelled']);
    expect(sent[0]?.url).toBe('https://shop.example/hooks');
    expect(sent[0]?.headers.get('content-type')).toBe('application/json');
  });

  it('shows the fee option in processing.fee, net of it in settlement_amount, settled.amount and the lists', async () => {
    const bodies: string[] = [];
    const mock = createMockGateway({
      webhooks: [{ url: 'https://shop.example/hooks' }],
      webhookFetch: async (_url, init) => {
        bodies.push(String(init.body));
        return new Response(null, { status: 200 });
      },
      fee: { base: 10_000, percent: { numerator: 29, denominator: 1000 } },
      settleAfterMs: 0,
      pollInMs: 20,
    });
    open.push(mock);
    const gateway = partnerOverFetch(mock);
    const { paymentId } = await gateway.payments.create({
      amount: { unit: 'iso4217/USD', value: '1000' }, // 10 USDC: 10,000,000 units
      referenceId: 'fee-1',
    });
    await mock.pay(paymentId);
    await gateway.payments.waitForFinal(paymentId, { timeoutMs: 5000 });
    await mock.webhooks.idle();
    const events = bodies.map((b) => JSON.parse(b));
    events.sort((a, b) => a.data.payment_state_version - b.data.payment_state_version);
    expect(events.map((e) => e.type)).toEqual([
      'payment.created',
      'payment.processing',
      'payment.succeeded',
      'payment.settled',
    ]);
    const unit = 'caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
    const settled = events[3].data;
    expect(settled.processing.fee).toEqual({
      kind: 'base_plus_percent',
      base_amount: { unit, value: '10000' },
      percent: { numerator: '29', denominator: '1000' },
      percent_amount: { unit, value: '290000' },
      total_amount: { unit, value: '300000' },
    });
    expect(settled.processing.settlement_amount).toEqual({ unit, value: '9700000' });
    expect(settled.settled.amount).toEqual({ unit, value: '9700000' });
    const [item] = (await gateway.payments.list({ referenceId: 'fee-1' })).data;
    expect(item?.fees).toMatchObject({ total: { value: '300000' }, percentage: '2.9' });
    expect(item?.settlement).toMatchObject({ settled: true, amount: { value: '9700000' } });
    // mock.pay() loads viem and signs for real: a second or two on its first use in a process.
  }, 20_000);

  it('keeps at most webhookLogSize deliveries while a receiver is down', async () => {
    const { mock } = await setup(() => 500, { webhookLogSize: 20, webhookRetryScale: 1 });
    for (let i = 0; i < 30; i++) await cancelledPayment(mock);
    expect(mock.webhooks.deliveries()).toHaveLength(20);
  });

  it('close() stops deliveries and reset() empties the log but keeps the endpoints', async () => {
    const { receiver, mock } = await setup(() => 500, { webhookRetryScale: 0.001 });
    await cancelledPayment(mock);
    await receiver.until(() => attemptsOf(receiver).length === 1);
    mock.reset();
    expect(mock.webhooks.deliveries()).toEqual([]);
    expect(mock.webhooks.list()).toHaveLength(1);
    await cancelledPayment(mock);
    await receiver.until(() => attemptsOf(receiver).length === 2);
    mock.close();
    const before = attemptsOf(receiver).length;
    await new Promise((resolve) => setTimeout(resolve, 100)); // the next retry was due after 5 ms
    expect(attemptsOf(receiver).length).toBe(before);
  });
});

describe('the control API drives webhooks over HTTP', () => {
  let server: MockServer;
  const call = async (path: string, init: RequestInit = {}, key?: string) => {
    const res = await fetch(`${server.url}/__mock/${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', 'api-key': key ?? 'wcp_test_mock_partner' },
    });
    // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the assertions below read freely
    const body: any = res.status === 204 ? null : await res.json();
    return { status: res.status, body };
  };

  it('adds, lists, shows deliveries, resends and removes an endpoint', async () => {
    const receiver = await startReceiver(SECRET, (n) => (n === 0 ? 500 : 'ok'));
    const mock = createMockGateway({ webhookRetryScale: 0.00001 });
    server = await mock.listen();
    open.push(receiver, mock, server);

    expect((await call('webhooks', { method: 'POST', body: '{}' }, 'wrong')).status).toBe(401);
    const bad = await call('webhooks', { method: 'POST', body: '{"url":"ftp://x"}' });
    expect(bad).toMatchObject({ status: 400, body: { issues: [{ field: 'url' }] } });
    const added = await call('webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url, secret: SECRET, types: ['payment.cancelled'] }),
    });
    expect(added).toMatchObject({
      status: 201,
      body: { id: expect.stringMatching(/^we_/), secret: SECRET, types: ['payment.cancelled'] },
    });
    expect((await call('webhooks')).body.data).toEqual([added.body]);

    await cancelledPayment(mock);
    await receiver.until(() => attemptsOf(receiver).length === 2);
    expect(await mock.webhooks.idle()).toBe(true);
    const { body } = await call('webhooks/deliveries?limit=5');
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ status: 'delivered', type: 'payment.cancelled' });
    expect(body.data[0].attempts.map((a: { status: number }) => a.status)).toEqual([500, 200]);

    const resent = await call(`webhooks/deliveries/${body.data[0].id}/resend`, { method: 'POST' });
    expect(resent.status).toBe(202);
    await receiver.until(() => attemptsOf(receiver).length === 3);
    expect((await call('webhooks/deliveries/dlv_nope/resend', { method: 'POST' })).status).toBe(
      404,
    );
    expect((await call(`webhooks/${added.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`webhooks/${added.body.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call('webhooks')).body.data).toEqual([]);
  });
});

describe('CORS: the buyer routes serve web pages, the partner routes do not', () => {
  it('answers a preflight on /v1/gateway/ and lets any origin read the answers', async () => {
    const mock = createMockGateway();
    const server = await mock.listen();
    open.push(mock, server);
    const payment = mock.payments(mock.sample.merchantId)[0]?.id ?? '';
    const origin = 'https://wallet.example';
    const preflight = await fetch(`${server.url}/v1/gateway/payment/${payment}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'app-id, client-id, sdk-name',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = preflight.headers.get('access-control-allow-headers')?.toLowerCase() ?? '';
    for (const name of ['app-id', 'client-id', 'content-type', 'sdk-name', 'sdk-version']) {
      expect(allowed).toContain(name);
    }
    expect(allowed).toContain('idempotency-key');
    expect(allowed).not.toContain('api-key');

    const { appId, clientId } = mock.credentials;
    const view = await fetch(`${server.url}/v1/gateway/payment/${payment}`, {
      headers: { origin, 'app-id': appId, 'client-id': clientId },
    });
    expect(view.status).toBe(200);
    expect(view.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await fetch(`${server.url}/v1/gateway/payment/${payment}`, {
      headers: { origin },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');

    const partner = await fetch(`${server.url}/v1/merchants/payments`, {
      headers: {
        origin,
        'api-key': mock.credentials.apiKey,
        'merchant-id': mock.sample.merchantId,
      },
    });
    expect(partner.status).toBe(200);
    expect(partner.headers.get('access-control-allow-origin')).toBeNull();
    const partnerPreflight = await fetch(`${server.url}/v1/merchants/payments`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    expect(partnerPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
