// The mock's checkout page in a real browser (Chromium from @sparticuz/chromium, never a
// download): a buyer opens gatewayUrl, pays or declines, and the SDK's waitForFinal over HTTP sees
// the outcome; with the preview checkout redirects the browser lands on the shop's own page.
import chromium from '@sparticuz/chromium';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import {
  type Browser,
  type BrowserContext,
  type Page,
  chromium as playwright,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../support';

const mock = createMockGateway({ pollInMs: 200 });
let server: MockServer;
let shop: Awaited<ReturnType<typeof serve>> | undefined;
let shopUrl: string;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  server = await mock.listen();
  // The merchant's shop, where the preview redirects send the buyer back.
  shop = await serve((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    // Any other site a developer visits: a form that posts to their sidecar's checkout page.
    const target = new URL(req.url ?? '/', 'http://shop').searchParams.get('target');
    if (target) {
      const action = target.replace(/"/g, '&quot;');
      res.end(
        `<!doctype html><html lang="en"><title>Prize</title><form method="post" action="${action}"><button name="action" value="pay">Claim your prize</button></form></html>`,
      );
      return;
    }
    res.end(`<!doctype html><html lang="en"><title>Shop</title><h1>Shop at ${req.url}</h1></html>`);
  });
  shopUrl = shop.url;
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
    headless: true,
    timeout: 30_000,
  });
  // No JavaScript: the page must work with plain HTML forms alone.
  context = await browser.newContext({ javaScriptEnabled: false });
  context.setDefaultTimeout(10_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await shop?.close();
});

function gateway(options: { apiVersion?: string } = {}) {
  return new MerchantGateway({
    baseUrl: server.url,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
    ...options,
  });
}

/** `body` on a fresh page of the browser, closed after it whatever happens. */
async function withPage(body: (page: Page) => Promise<void>): Promise<void> {
  const page = await context.newPage();
  try {
    await body(page);
  } finally {
    await page.close();
  }
}

const amount = { unit: 'iso4217/USD', value: '1250' } as const;
const following = new Set<AbortController>();

/** waitForFinal, stopped after the test even when a browser step failed before it was awaited. */
function follow(
  sdk: MerchantGateway,
  payment: Parameters<MerchantGateway['payments']['waitForFinal']>[0],
) {
  const stop = new AbortController();
  following.add(stop);
  const final = sdk.payments.waitForFinal(payment, { timeoutMs: 15_000, signal: stop.signal });
  final.catch(() => {}); // the test awaits it; a follow it never reached must not reject unseen
  return final;
}

afterEach(() => {
  for (const stop of following) stop.abort();
  following.clear();
});

describe('the checkout page in a real browser', () => {
  it('a buyer pays: the page says so and waitForFinal over HTTP resolves succeeded', async () => {
    const sdk = gateway();
    const payment = await sdk.payments.create({ amount, referenceId: 'browser-pay' });
    await withPage(async (page) => {
      await page.goto(payment.gatewayUrl);
      expect(await page.title()).toContain('12.50 USD');
      const heading = page.getByRole('heading', { level: 1 });
      expect(await heading.textContent()).toBe(`Pay ${mock.sample.merchantName}`);
      const final = follow(sdk, payment);
      await page.getByRole('button', { name: 'Pay 12.50 USD' }).click();
      // 303 back to the page, which shows processing for one pollInMs and reloads itself (a
      // meta refresh, no script) until it shows the outcome.
      await page.waitForURL(payment.gatewayUrl);
      expect(await final).toMatchObject({ status: 'succeeded', isFinal: true });
      await page.getByRole('heading', { name: 'Payment succeeded' }).waitFor();
      expect(await page.getByRole('button').count()).toBe(0);
    });
  }, 30_000);

  it('a buyer declines: waitForFinal resolves failed and the page offers nothing more', async () => {
    const sdk = gateway();
    const payment = await sdk.payments.create({ amount, referenceId: 'browser-decline' });
    await withPage(async (page) => {
      await page.goto(payment.gatewayUrl);
      const final = follow(sdk, payment);
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.getByRole('heading', { name: 'Payment failed' }).waitFor();
      expect(await final).toMatchObject({ status: 'failed', failureCode: 'declined_user' });
      expect(await page.getByRole('button').count()).toBe(0);
    });
  }, 30_000);

  it.each([
    ['Pay 12.50 USD', '/paid?order=browser-redirect', 'succeeded'],
    ['Decline', '/cart?order=browser-redirect', 'failed'],
  ])(
    'with preview checkout redirects, %s sends the browser to the shop (%s)',
    async (button, path, status) => {
      const sdk = gateway({ apiVersion: '2026-02-19.preview' });
      const payment = await sdk.payments.create({
        amount,
        referenceId: 'browser-redirect',
        checkout: {
          successUrl: `${shopUrl}/paid?order=browser-redirect`,
          errorUrl: `${shopUrl}/cart?order=browser-redirect`,
        },
      });
      await withPage(async (page) => {
        await page.goto(payment.gatewayUrl);
        const final = follow(sdk, payment);
        await page.getByRole('button', { name: button }).click();
        await page.waitForURL(`${shopUrl}${path}`);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Shop at ${path}`);
        expect((await final).status).toBe(status);
      });
    },
    30_000,
  );

  it('a form on another site cannot pay: the post is refused and the payment stays open', async () => {
    const sdk = gateway();
    const payment = await sdk.payments.create({ amount, referenceId: 'browser-cross-origin' });
    await withPage(async (page) => {
      await page.goto(`${shopUrl}/prize?target=${encodeURIComponent(payment.gatewayUrl)}`);
      await page.getByRole('button', { name: 'Claim your prize' }).click();
      await page.getByRole('heading', { name: 'Cross-origin request refused' }).waitFor();
      expect(mock.getPayment(payment.paymentId)?.status).toBe('requires_action');
      // The buyer on the page itself still pays.
      await page.goto(payment.gatewayUrl);
      await page.getByRole('button', { name: 'Pay 12.50 USD' }).click();
      await page.waitForURL(payment.gatewayUrl);
      expect(mock.getPayment(payment.paymentId)?.status).not.toBe('requires_action');
    });
  }, 30_000);
});
