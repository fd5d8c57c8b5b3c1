// Every example runs against the embedded mock and exits 0, printing the lines a reader expects.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { bundleForNode } from '../support/node-bundle';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

// Without MERCHANT_GATEWAY_* the quickstart uses the embedded mock, never a real service.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('MERCHANT_GATEWAY_')),
);

// Not here: examples/psp-checkout serves a page until stopped; its command runs, and its page is
// paid with a browser wallet, in test/behaviour/checkout/checkout-browser.test.ts (Chromium).
const examples: { name: string; expected: RegExp[] }[] = [
  {
    name: 'quickstart',
    expected: [
      /Merchant: +created mer_/,
      /Settlement: USDC on Base to eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb/,
      /Payment: +pay_\S+ .*buyer pays at http:\/\/127\.0\.0\.1:\d+\//,
      /Final: +succeeded/,
      /Paid in: +transaction test:pay_[A-Za-z0-9]+/,
      // Why it lists another merchant, and every amount in major units with the currency named.
      /List: +the mock's sample merchant mer_\S+, not mer_\S+: it has/,
      /Payments: +1000 in all \(amounts in major units\)/,
      /pay_\S+ +\w+ +\d+\.\d{2} (USD|EUR) /,
      /Revenue: +(\d+\.\d{2} [A-Z]{3}(, )?)+ \(succeeded payments, major units\)/,
    ],
  },
  {
    name: 'error-handling',
    expected: [
      'RequestValidationError',
      'AuthenticationError',
      'NotFoundError',
      'ConflictError',
      'RateLimitedError',
      'ServerError',
      'TimeoutError',
      'ConnectionError',
      'ResponseValidationError',
    ]
      .map((name) => new RegExp(`^${name}\\b.*\\n  -> `, 'm'))
      .concat(/Every error class was raised and caught\./),
  },
  {
    name: 'pagination',
    expected: [/First page: 20 items/, /Stats: \d+ succeeded payments/, /Top 3 by amount: \d+/],
  },
  {
    name: 'polling',
    expected: [
      /Final: succeeded/,
      /Timed out, still requires_action/,
      /Aborted: checkout closed/,
      /watch: failed/,
    ],
  },
  {
    name: 'refunds-and-cancellations',
    expected: [
      /Cancelled: pay_\S+ \(cancelled_by_merchant at \d{4}-/,
      /Status now: cancelled, final: true/,
      /Cancel again: refused \(400 invalid_state\)/,
      /Paid: succeeded in transaction test:pay_[A-Za-z0-9]+/,
      /Refunded: pay_/,
      /Refund again: already_refunded/,
      /Details: order-refund succeeded, settled: yes/,
    ],
  },
  { name: 'legacy-migration', expected: [/Same payments in the same order/] },
  { name: 'testing', expected: [/ok - an outage surfaces as ServerError/, /All tests passed\./] },
];

describe('examples/', () => {
  test.concurrent.each(examples)(
    '$name runs against the mock and exits 0',
    async ({ name, expected }) => {
      const file = join(ROOT, 'examples', `${name}.ts`);
      // execFile rejects on a non-zero exit, with the output in the error.
      const { stdout } = await run(process.execPath, [await bundleForNode(file)], {
        cwd: ROOT,
        env,
        timeout: 85_000,
      });
      for (const line of expected) expect(stdout).toMatch(line);
    },
    90_000, // up to 6.4 s idle (quickstart), each a child process
  );
});
