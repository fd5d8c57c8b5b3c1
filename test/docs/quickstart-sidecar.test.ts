// `npm start` (examples/quickstart.ts) against the sidecar: it prints the checkout URL, waits for a
// buyer there, and ends with the outcome once someone pays on the page.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningMockCommand, startMockCommand } from '../support/mock-command';
import { bundleForNode } from '../support/node-bundle';

const QUICKSTART = join(import.meta.dirname, '..', '..', 'examples', 'quickstart.ts');
let sidecar: RunningMockCommand;

beforeAll(async () => {
  sidecar = await startMockCommand();
}, 30_000);
afterAll(() => sidecar?.stop());

test.each([
  ['pay', /Final: +succeeded/],
  ['decline', /Final: +failed\n[\s\S]*Failed: +declined_user/],
])(
  'the quickstart against the sidecar completes when a buyer chooses %s on the page',
  async (action, outcome) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith('MERCHANT_GATEWAY_')),
    );
    const child = spawn(process.execPath, [await bundleForNode(QUICKSTART)], {
      env: {
        ...clean,
        MERCHANT_GATEWAY_BASE_URL: sidecar.url,
        MERCHANT_GATEWAY_API_KEY: sidecar.apiKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // The buyer: opens the URL the quickstart says to open, and submits the page's form.
    let buyerCame = false;
    const paid = new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const url = /Waiting: +open (\S+) in a browser/.exec(stdout)?.[1];
        if (!url || buyerCame) return;
        buyerCame = true;
        void (async () => {
          const page = await fetch(url);
          expect(await page.text()).toContain(`value="${action}"`);
          const res = await fetch(url, {
            method: 'POST',
            body: new URLSearchParams({ action }),
            redirect: 'manual',
          });
          expect(res.status).toBe(303);
        })().then(resolve, reject);
      });
    });
    try {
      const code = await exited;
      await paid;
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(
        /Payment: +pay_\S+ \(12\.50 USD\), buyer pays at http:\/\/127\.0\.0\.1:\d+\/pay\/pay_/,
      );
      expect(stdout).toMatch(outcome);
    } finally {
      clearTimeout(killer);
    }
  },
  60_000,
);
