// A wallet's web page in a real browser (Chromium from @sparticuz/chromium, never a download):
// it loads a bundle of merchant-gateway/buyer (esbuilt here) from its own origin and reads a
// payment from the merchant-gateway-mock command (a child process, another origin) with the
// public App-Id scheme. The buyer routes answer CORS; the partner routes do not, so the same page
// cannot read them.
import { fileURLToPath } from 'node:url';
import chromium from '@sparticuz/chromium';
import * as esbuild from 'esbuild';
import { type Browser, chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve } from '../../support';
import { partnerFor, type RunningMockCommand, startMockCommand } from '../../support/mock-command';

const APP = { appId: 'app_web_wallet', clientId: 'client_web_wallet' };
const ENTRY = fileURLToPath(new URL('../../../src/buyer.ts', import.meta.url));

let sidecar: RunningMockCommand;
let site: Awaited<ReturnType<typeof serve>> | undefined;
let siteUrl: string;
let browser: Browser;

beforeAll(async () => {
  const [command, built] = await Promise.all([
    startMockCommand(['--app-id', APP.appId, '--client-id', APP.clientId]),
    esbuild.build({
      entryPoints: [ENTRY],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    }),
  ]);
  sidecar = command;
  const bundle = built.outputFiles[0]?.text ?? '';
  // The wallet's site: its page and the bundle, on an origin of its own.
  site = await serve((req, res) => {
    if (req.url === '/buyer.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Wallet</title>');
  });
  siteUrl = site.url;
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    // @sparticuz/chromium's default args turn the same-origin policy off (--disable-web-security):
    // this test is about that policy, so it runs with it on.
    args: chromium.args.filter((arg) => arg !== '--disable-web-security'),
    headless: true,
    timeout: 30_000,
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await sidecar?.stop();
  await site?.close();
});

it('a page on another origin reads a payment with BuyerClient and the App-Id scheme, and cannot read a partner route', async () => {
  const partner = partnerFor(sidecar);
  const { paymentId } = await partner.payments.create({
    amount: { unit: 'iso4217/USD', value: '4200' },
    referenceId: 'web-wallet-1',
  });
  const page = await browser.newPage();
  try {
    await page.goto(`${siteUrl}/`);
    expect(new URL(page.url()).origin).not.toBe(new URL(sidecar.url).origin);
    // The page's own module script, as a wallet ships it (a string: the test runner rewrites the
    // import() of a function it would serialise).
    const input = {
      baseUrl: sidecar.url,
      app: APP,
      id: paymentId,
      apiKey: sidecar.apiKey,
      merchantId: sidecar.merchantId,
    };
    await page.addScriptTag({
      type: 'module',
      content: `
        import { BuyerClient } from '/buyer.js';
        const { baseUrl, app, id, apiKey, merchantId } = ${JSON.stringify(input)};
        window.result = (async () => {
          const view = await new BuyerClient({ baseUrl, ...app }).get(id);
          let partnerRead;
          try {
            const res = await fetch(baseUrl + '/v1/merchants/payments', {
              headers: { 'Api-Key': apiKey, 'Merchant-Id': merchantId },
            });
            partnerRead = 'read ' + res.status;
          } catch (error) {
            partnerRead = 'blocked: ' + error.name;
          }
          return { status: view.status, value: view.amount.value, partnerRead };
        })();`,
    });
    await page.waitForFunction('window.result !== undefined');
    const result = await page.evaluate('window.result');
    expect(result).toEqual({
      status: 'requires_action',
      value: expect.stringMatching(/^\d+$/),
      partnerRead: 'blocked: TypeError',
    });
  } finally {
    await page.close();
  }
}, 30_000);
