// The checkout page at each payment's gatewayUrl, over real HTTP: what a buyer without a key gets.
import { describe, expect, it } from 'vitest';
import {
  addSettlements,
  type ErrorBody,
  USDC_POLYGON,
  useMockGateway,
} from '../../../support/mock-harness';

const PREVIEW = '2026-02-19.preview';
const checkout = {
  successUrl: 'https://shop.example/paid?o=1',
  errorUrl: 'https://shop.example/cart',
};

describe('the checkout page (GET/POST /pay/{id}) over real HTTP', () => {
  const h = useMockGateway('http', { pollInMs: 100 });
  const createPayment = async (extra: Record<string, unknown> = {}, headers = {}) => {
    const res = await h.call<{ paymentId: string; gatewayUrl: string } & ErrorBody>(
      '/v1/payments',
      {
        method: 'POST',
        headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId, ...headers },
        body: { referenceId: 'order-7', amount: { unit: 'iso4217/USD', value: '1250' }, ...extra },
      },
    );
    return res;
  };
  const open = async (extra?: Record<string, unknown>, headers?: Record<string, string>) => {
    const res = await createPayment(extra, headers);
    expect(res.status).toBe(201);
    return res.body;
  };
  const act = (url: string, action: string) =>
    fetch(url, { method: 'POST', body: new URLSearchParams({ action }), redirect: 'manual' });

  it('shows the merchant, the amount as a buyer reads it, the expiry and three plain forms', async () => {
    const payment = await open();
    const res = await fetch(payment.gatewayUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    const { expiresAt, checkout: none } = h.mock.getPayment(payment.paymentId) ?? {};
    expect(none).toBeNull();
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toMatch(/<title>Pay Sample[^<]*: 12\.50 USD/);
    expect(html).toContain(`<h1>Pay ${h.mock.sample.merchantName}</h1>`);
    expect(html).toContain('<dd>12.50 USD</dd>');
    expect(html).toContain('<dd>12.5 USDC on Base</dd>');
    expect(html).toContain(`<time datetime="${new Date((expiresAt ?? 0) * 1000).toISOString()}">`);
    const path = new URL(payment.gatewayUrl).pathname;
    expect(html).toContain(`<form method="post" action="${path}">`);
    for (const [action, label] of [
      ['pay', 'Pay 12.50 USD'],
      ['decline', 'Decline'],
      ['cancel', 'Cancel payment'],
    ]) {
      expect(html).toContain(
        `<button type="submit" name="action" value="${action}">${label}</button>`,
      );
    }
    // The forms need no script; the one script is the wallet section's, a same-origin file.
    expect(html).not.toMatch(/<link/i);
    expect(html.match(/<script[^>]*>/gi)).toEqual([
      '<script type="module" src="/pay/assets/wallet-page.js">',
    ]);
    expect(html).not.toMatch(/<script[^>]*>[^<]/i);
  });

  it.each([
    ['decline', 'failed', 'Payment failed'],
    ['cancel', 'cancelled', 'Payment cancelled'],
  ])(
    '%s answers 303 back to the page, which then shows %s and no form',
    async (action, status, heading) => {
      const payment = await open();
      const res = await act(payment.gatewayUrl, action);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(new URL(payment.gatewayUrl).pathname);
      expect(h.mock.getPayment(payment.paymentId)?.status).toBe(status);
      const html = await (await fetch(payment.gatewayUrl)).text();
      expect(html).toContain(`<h1>${heading}</h1>`);
      expect(html).not.toContain('<form');
    },
  );

  it('pay goes through the buyer’s confirm: a mock account of its own recorded, a txId on success', async () => {
    const payment = await open();
    await act(payment.gatewayUrl, 'pay');
    await expect
      .poll(() => h.mock.getPayment(payment.paymentId)?.status, { timeout: 2_000 })
      .toBe('succeeded');
    const paid = h.mock.getPayment(payment.paymentId);
    expect(paid?.buyer).toEqual({
      accountCaip10: expect.stringMatching(/^eip155:8453:0x[0-9a-fA-F]{40}$/),
      walletName: 'Mock checkout',
    });
    const details = await h.call<{ info?: { txId: string } }>(`/v1/payments/${payment.paymentId}`, {
      headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId },
    });
    expect(details.body.info?.txId).toMatch(/^test:pay_[A-Za-z0-9]+$/);
    // One buyer per mock: the next payment is paid by the same account.
    const next = await open();
    await act(next.gatewayUrl, 'pay');
    expect(h.mock.getPayment(next.paymentId)?.buyer?.accountCaip10).toBe(
      paid?.buyer?.accountCaip10,
    );
  });

  it('shows no Pay button for a merchant with no crypto settlement, and says why', async () => {
    const bare = h.mock.sample.otherMerchantIds[0] as string;
    const payment = await open({}, { 'Merchant-Id': bare });
    const html = await (await fetch(payment.gatewayUrl)).text();
    expect(html).toContain('accepts no crypto yet');
    expect(html).not.toContain('value="pay"');
    expect(html).toContain('<button type="submit" name="action" value="decline">Decline</button>');
    expect(html).toContain('value="cancel"');
  });

  it('answers Pay for a merchant with no crypto settlement with 409 and why, changing nothing', async () => {
    const bare = h.mock.sample.otherMerchantIds[0] as string;
    const payment = await open({}, { 'Merchant-Id': bare });
    const res = await act(payment.gatewayUrl, 'pay');
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain('Nothing changed: Payment');
    expect(html).toContain('its merchant accepts no crypto yet');
    expect(h.mock.getPayment(payment.paymentId)).toMatchObject({
      status: 'requires_action',
      buyer: null,
    });
  });

  it('answers Pay with 409 and the page when the merchant can be paid on no chain the mock knows', async () => {
    const merchantId = h.mock.sample.otherMerchantIds[1] as string;
    const settled = await addSettlements(h, merchantId, [
      { asset: USDC_POLYGON, destination: 'eip155:137:0x1111111111111111111111111111111111111111' },
    ]);
    expect(settled.status).toBe(201);
    const payment = await open({}, { 'Merchant-Id': merchantId });
    const res = await act(payment.gatewayUrl, 'pay');
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('Nothing changed: Payment');
    expect(h.mock.getPayment(payment.paymentId)?.status).toBe('requires_action');
  });

  it.each([
    ['another origin', { Origin: 'https://evil.example' }],
    ['another port of this host', { Origin: 'http://127.0.0.1:1' }],
    ['an opaque origin', { Origin: 'null' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { 'Sec-Fetch-Site': 'same-site', Origin: 'http://127.0.0.1:1' }],
  ])('refuses a form post from %s with 403, changing nothing', async (_case, headers) => {
    const payment = await open();
    for (const action of ['pay', 'decline', 'cancel']) {
      const res = await fetch(payment.gatewayUrl, {
        method: 'POST',
        headers,
        body: new URLSearchParams({ action }),
        redirect: 'manual',
      });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Cross-origin request refused');
    }
    expect(h.mock.getPayment(payment.paymentId)?.status).toBe('requires_action');
  });

  it('takes a form post from the page’s own origin, and one naming no origin (curl)', async () => {
    const own = await open();
    const origin = new URL(own.gatewayUrl).origin;
    const res = await fetch(own.gatewayUrl, {
      method: 'POST',
      headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin' },
      body: new URLSearchParams({ action: 'decline' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(h.mock.getPayment(own.paymentId)?.status).toBe('failed');
    const bare = await open();
    expect((await act(bare.gatewayUrl, 'cancel')).status).toBe(303);
  });

  it('answers an action on a final payment with 409 and the page, changing nothing', async () => {
    const payment = await open();
    h.mock.setPaymentStatus(payment.paymentId, 'failed');
    const res = await act(payment.gatewayUrl, 'pay');
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('Nothing changed: the payment is already failed.');
    expect(html).not.toContain('<form');
    expect(h.mock.getPayment(payment.paymentId)?.status).toBe('failed');
  });

  it('answers an unknown action with 400 and the page, changing nothing', async () => {
    const payment = await open();
    const res = await act(payment.gatewayUrl, 'refund');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<form');
    expect(h.mock.getPayment(payment.paymentId)?.status).toBe('requires_action');
  });

  it('answers an unknown payment with a 404 HTML page', async () => {
    const res = await fetch(`${h.baseUrl}/pay/pay_unknown`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('<h1>Payment not found</h1>');
    expect((await act(`${h.baseUrl}/pay/pay_unknown`, 'pay')).status).toBe(404);
  });

  it('answers another method with 405 and Allow, and a malformed id with the 404 page', async () => {
    const payment = await open();
    const put = await fetch(payment.gatewayUrl, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    const malformed = await fetch(`${h.baseUrl}/pay/%E0%A4%A`);
    expect(malformed.status).toBe(404);
    expect(await malformed.text()).toContain('<h1>Payment not found</h1>');
  });

  it('escapes user data: a merchant named like markup shows as text', async () => {
    const name = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'Co'`;
    const created = await h.call<{ merchant: { id: string } }>('/v1/merchants', {
      method: 'POST',
      headers: { ...h.auth, 'Idempotency-Key': 'xss-merchant' },
      body: { merchantName: name, merchantEmail: 'pay@xss.example' },
    });
    expect(created.status).toBe(201);
    const res = await h.call<{ gatewayUrl: string }>('/v1/payments', {
      method: 'POST',
      headers: { ...h.auth, 'Merchant-Id': created.body.merchant.id },
      body: { referenceId: '<b>"ref"</b>', amount: { unit: 'iso4217/JPY', value: '1250' } },
    });
    const html = await (await fetch(res.body.gatewayUrl)).text();
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(html).toContain('&#38; &#39;Co&#39;');
    expect(html).toContain('<dd>1250 JPY</dd>');
  });

  it('serves the page at a gatewayUrl under a base path, as the service routes are', async () => {
    const res = await h.call<{ gatewayUrl: string }>('/api/v1/payments', {
      method: 'POST',
      headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId },
      body: { referenceId: 'prefixed', amount: { unit: 'iso4217/EUR', value: '999' } },
    });
    expect(res.body.gatewayUrl).toMatch(new RegExp(`^${h.baseUrl}/api/pay/pay_`));
    const page = await fetch(res.body.gatewayUrl);
    expect(await page.text()).toContain('<dd>9.99 EUR</dd>');
    const done = await act(res.body.gatewayUrl, 'decline');
    expect(done.headers.get('location')).toBe(new URL(res.body.gatewayUrl).pathname);
  });

  describe('with the preview checkout redirects', () => {
    it.each([
      ['pay', checkout.successUrl],
      ['decline', checkout.errorUrl],
      ['cancel', checkout.errorUrl],
    ])('%s sends the buyer (303) to %s', async (action, location) => {
      const payment = await open({ checkout }, { 'WCP-Version': PREVIEW });
      expect(h.mock.getPayment(payment.paymentId)?.checkout).toEqual(checkout);
      const res = await act(payment.gatewayUrl, action);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(location);
    });

    it('refuses checkout without WCP-Version 2026-02-19.preview, naming the field', async () => {
      const res = await createPayment({ checkout });
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([
        { field: 'checkout', message: expect.stringContaining(PREVIEW) },
      ]);
    });

    it.each([
      [
        { successUrl: 'http://shop.example/paid', errorUrl: checkout.errorUrl },
        'checkout.successUrl',
      ],
      [{ successUrl: checkout.successUrl }, 'checkout.errorUrl'],
      [{ successUrl: checkout.successUrl, errorUrl: 'javascript:alert(1)' }, 'checkout.errorUrl'],
      ['https://shop.example', 'checkout'],
    ])('refuses checkout %j with 400 naming %s', async (value, field) => {
      const res = await createPayment({ checkout: value }, { 'WCP-Version': PREVIEW });
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([{ field, message: expect.any(String) }]);
    });

    it('takes http URLs on loopback, for a shop running on this machine', async () => {
      const local = {
        successUrl: 'http://127.0.0.1:3000/paid',
        errorUrl: 'http://localhost:3000/cart',
      };
      const payment = await open({ checkout: local }, { 'WCP-Version': PREVIEW });
      expect((await act(payment.gatewayUrl, 'pay')).headers.get('location')).toBe(local.successUrl);
    });
  });
});

// Its own mock with a pollInMs of 2 s: the page read between the 303 and the success must land
// inside one pollInMs, which 100 ms did not give on a loaded machine.
describe('the checkout page while a payment is processing', () => {
  const h = useMockGateway('http', { pollInMs: 2_000 });
  const open = async () => {
    const res = await h.call<{ paymentId: string; gatewayUrl: string } & ErrorBody>(
      '/v1/payments',
      {
        method: 'POST',
        headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId },
        body: { referenceId: 'order-7', amount: { unit: 'iso4217/USD', value: '1250' } },
      },
    );
    expect(res.status).toBe(201);
    return res.body;
  };
  const act = (url: string, action: string) =>
    fetch(url, { method: 'POST', body: new URLSearchParams({ action }), redirect: 'manual' });

  it('pay moves the payment to processing at once and to succeeded one pollInMs later', async () => {
    const payment = await open();
    const res = await act(payment.gatewayUrl, 'pay');
    expect(res.status).toBe(303);
    expect(h.mock.getPayment(payment.paymentId)?.status).toBe('processing');
    const processing = await (await fetch(payment.gatewayUrl)).text();
    expect(processing).toContain('<h1>Payment processing</h1>');
    expect(processing).toContain('<meta http-equiv="refresh" content="2">');
    expect(processing).not.toContain('<form');
    await expect
      .poll(() => h.mock.getPayment(payment.paymentId)?.status, { timeout: 30_000 })
      .toBe('succeeded');
    expect(await (await fetch(payment.gatewayUrl)).text()).toContain('<h1>Payment succeeded</h1>');
  }, 60_000);
});
