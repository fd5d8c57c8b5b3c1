// The checkout controller in a real browser (Chromium from @sparticuz/chromium, never a download),
// with an injected EIP-1193 wallet answered in Node by a viem account: the mock's own checkout page
// paid with *Pay with a browser wallet* (the package's browser build, through the mock's route),
// and the PSP example's page (examples/psp-checkout, its own command in a child process).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import {
  type Browser,
  type BrowserContext,
  type Page,
  chromium as playwright,
} from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InjectedWallet, injectWallet } from './injected-wallet';

const ETHEREUM = 1;
const BASE = 8453;
const mock = createMockGateway({ pollInMs: 200 });
let server: MockServer;
let browser: Browser;

beforeAll(async () => {
  server = await mock.listen();
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    // One process per context: under --single-process (built for Lambda) a second context's
    // cookies were not sent, and closing a context took the whole browser down.
    args: chromium.args.filter((arg) => arg !== '--single-process'),
    headless: true,
    timeout: 30_000,
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const gateway = () =>
  new MerchantGateway({
    baseUrl: server.url,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
  });

/** A fresh context (its own wallet, on `chainId`) and page, closed after `body` whatever happens. */
async function withWallet(
  chainId: number,
  body: (page: Page, wallet: InjectedWallet, problems: string[]) => Promise<void>,
): Promise<void> {
  const context: BrowserContext = await browser.newContext();
  try {
    // A step (a click, a state) takes up to about 3 s here (the example's confirm to succeeded).
    context.setDefaultTimeout(30_000);
    const wallet = await injectWallet(context, chainId);
    const page = await context.newPage();
    // A CSP violation or an uncaught error in the page fails the test, whatever the page shows.
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await body(page, wallet, problems);
  } finally {
    await context.close();
  }
}

const stateIs = (page: Page, state: string) =>
  page.locator(`[data-checkout="state"][data-state="${state}"]`).waitFor();

describe("the mock's checkout page: Pay with a browser wallet", () => {
  it('pays through the route after a network switch and a rejected signature', async () => {
    const payment = await gateway().payments.create({
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'browser-wallet',
    });
    await withWallet(ETHEREUM, async (page, wallet, problems) => {
      const loaded = performance.now();
      await page.goto(payment.gatewayUrl);
      await stateIs(page, 'ready_for_wallet');
      // The simulated forms are still there beside the wallet checkout.
      expect(await page.getByRole('button', { name: 'Decline' }).count()).toBe(1);
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await stateIs(page, 'options_ready');
      // The sample merchant settles in USDC on Base: the option is on Base, not the wallet's chain.
      const option = page.locator('[data-checkout="options"] button', { hasText: 'on Base' });
      await option.first().click();
      await stateIs(page, 'option_selected');

      wallet.rejectNextSignatures(1);
      await page.locator('[data-checkout="pay"]').click();
      await page.locator('[data-checkout="error"]', { hasText: 'user_rejected' }).waitFor();
      await stateIs(page, 'option_selected');
      expect(mock.getPayment(payment.paymentId)?.status).toBe('requires_action');
      expect(confirms(payment.paymentId)).toBe(0);

      await page.locator('[data-checkout="pay"]').click();
      await stateIs(page, 'succeeded');
      const elapsed = performance.now() - loaded;
      console.log(`mock page, page load to succeeded: ${Math.round(elapsed)} ms`);

      const paid = mock.getPayment(payment.paymentId);
      expect(paid?.status).toBe('succeeded');
      expect(paid?.buyer?.accountCaip10).toBe(`eip155:${BASE}:${wallet.account.address}`);
      expect(confirms(payment.paymentId)).toBe(1);
      // The wallet was asked to move from Ethereum to Base before it signed there.
      expect(wallet.calls).toContain(`switched to ${BASE}`);
      expect(wallet.calls.indexOf(`switched to ${BASE}`)).toBeLessThan(
        wallet.calls.lastIndexOf('eth_signTypedData_v4'),
      );
      // The simulated buttons are out of the way once the wallet has paid.
      expect(await page.getByRole('button', { name: 'Pay 12.50 USD' }).isVisible()).toBe(false);
      expect(problems).toEqual([]);
    });
  }, 120_000); // about 7 s idle

  it('with the preview redirects, a wallet payment sends the browser to successUrl', async () => {
    const sdk = new MerchantGateway({
      baseUrl: server.url,
      apiKey: mock.credentials.apiKey,
      merchantId: mock.sample.merchantId,
      apiVersion: '2026-02-19.preview',
    });
    // Any loopback page does as the shop: the test only follows where the browser goes.
    const shop = `${server.url}/shop`;
    const payment = await sdk.payments.create({
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'browser-wallet-redirect',
      checkout: { successUrl: `${shop}/paid?order=w`, errorUrl: `${shop}/cart?order=w` },
    });
    await withWallet(BASE, async (page) => {
      await page.goto(payment.gatewayUrl);
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await page
        .locator('[data-checkout="options"] button', { hasText: 'on Base' })
        .first()
        .click();
      await stateIs(page, 'option_selected');
      await page.locator('[data-checkout="pay"]').click();
      await page.waitForURL(`${shop}/paid?order=w`);
      expect(mock.getPayment(payment.paymentId)?.status).toBe('succeeded');
      expect(confirms(payment.paymentId)).toBe(1);
    });
  }, 120_000); // about 5 s idle

  it('without a wallet in the browser the page says so and keeps its simulated buttons', async () => {
    const { gatewayUrl } = await gateway().payments.create({
      amount: { unit: 'iso4217/USD', value: '500' },
      referenceId: 'no-wallet',
    });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(gatewayUrl);
      await page.getByText('No browser wallet found').waitFor({ timeout: 15_000 });
      expect(await page.getByRole('button', { name: 'Pay 5.00 USD' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  }, 30_000);
});

describe('the PSP example (examples/psp-checkout) in a browser', () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('its one command serves a page that pays with the browser wallet, for its own session only', async () => {
    // What `npm run example:checkout` runs, without npm in between.
    const run = join(import.meta.dirname, '..', '..', '..', 'examples', 'psp-checkout', 'run.ts');
    child = spawn(process.execPath, ['--import', 'tsx', run], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const printed = await linesUntil(child, /^Checkout page: /m);
    const mockUrl = /^Mock gateway: +(\S+)/m.exec(printed)?.[1] as string;
    const paymentId = /^Payment: +(\S+)/m.exec(printed)?.[1] as string;
    const pageUrl = /^Checkout page: +(\S+)/m.exec(printed)?.[1] as string;
    const routeUrl = `${new URL(pageUrl).origin}/api/wcp/payment/${paymentId}`;

    // Without the session's cookie the route refuses the payment, and reaches nothing.
    const stranger = await fetch(routeUrl);
    expect(stranger.status).toBe(403);

    await withWallet(ETHEREUM, async (page, wallet, problems) => {
      const loaded = performance.now();
      await page.goto(pageUrl);
      const state = (name: string) => page.locator(`#status[data-state="${name}"]`).waitFor();
      await state('ready_for_wallet');
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await state('options_ready');
      await page
        .getByRole('button', { name: /^Pay with .* on Base$/ })
        .first()
        .click();
      await state('option_selected');
      wallet.rejectNextSignatures(1);
      await page.getByRole('button', { name: /^Pay \d/ }).click();
      await page.locator('#error', { hasText: 'user_rejected' }).waitFor();
      await state('option_selected');
      await page.getByRole('button', { name: /^Pay \d/ }).click();
      await state('succeeded');
      console.log(
        `example page, page load to succeeded: ${Math.round(performance.now() - loaded)} ms`,
      );
      expect(wallet.calls).toContain(`switched to ${BASE}`);
      expect(problems).toEqual([]);
    });
    // The mock's control API says the same (default credentials: the example names none).
    const apiKey = createMockGateway().credentials.apiKey;
    const state = await fetch(`${mockUrl}/__mock/payments/${paymentId}`, {
      headers: { 'api-key': apiKey },
    });
    expect(await state.json()).toMatchObject({ status: 'succeeded' });
  }, 240_000); // about 20 s idle: the example's command starts (tsx, esbuild) before the flow
});

/** The child's output up to the first line matching `pattern`. */
async function linesUntil(child: ChildProcess, pattern: RegExp): Promise<string> {
  let text = '';
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    text += chunk.toString();
    if (pattern.test(text) && text.endsWith('\n')) return text;
  }
  throw new Error(`the example stopped before printing ${pattern}:\n${text}`);
}

/** How many confirms of this payment reached the service. */
function confirms(paymentId: string): number {
  return mock.requests.filter(
    (request) => request.method === 'POST' && request.path.endsWith(`/${paymentId}/confirm`),
  ).length;
}
