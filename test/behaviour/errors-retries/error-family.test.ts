// The errors are one family in the BUILT package (issue 41.1): each entry (main, buyer, webhooks)
// is bundled with its own copy of the classes, and a program may hold two copies of the package
// (two versions in node_modules, or ESM beside CommonJS). An error from any of them must be an
// `instanceof` the main entry's classes (its own class and its ancestors only: a PayError is not
// an ApiError), so a partner's one error handler catches them all. Run after `npm run build`.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dist = join(root, 'dist');
let copy = '';

// A second copy of the package, as a second version in node_modules would be: its own files,
// its dependencies resolved from the repository's node_modules.
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'mg-error-family-'));
  cpSync(dist, join(copy, 'dist'), { recursive: true });
  writeFileSync(join(copy, 'package.json'), '{ "name": "merchant-gateway", "type": "module" }\n');
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
}, 60_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

// Builds one error of each exported class of each source, then asks `instanceof` of every error
// class of each target; the truth is the main entry's own prototype chain. Prints the wrong ones.
const CHECKS = `
const API = { method: 'GET', path: '/v1/x', status: 400, code: 'x', message: 'm', headers: {} };
const API_CLASSES = ['ApiError', 'RateLimitedError', 'AuthenticationError', 'InvalidRequestError',
  'NotFoundError', 'ConflictError', 'ServerError'];
function make(C, name) {
  if (API_CLASSES.includes(name)) return new C(API);
  switch (name) {
    case 'RequestValidationError': return new C('op', [{ field: 'f', message: 'm' }]);
    case 'ResponseValidationError': return new C('GET /x', { issues: [], body: null, status: 200 });
    case 'ResponseTooLargeError': return new C('GET /x', { status: 200, maxBytes: 1 });
    case 'PollTimeoutError': return new C('op', 'pay_1', 1, undefined);
    case 'PaginationError': return new C('m', 'c');
    case 'PayError': return new C('m', { reason: 'no_option', paymentId: 'pay_1' });
    case 'WebhookVerificationError': return new C('invalid_payload', 'm');
    case 'CheckoutStateError': return new C('pay', 'loading', 'm');
    default: return new C('m');
  }
}
const errorClasses = (mod) => Object.entries(mod).filter(
  ([, v]) => typeof v === 'function' && Object.prototype.isPrototypeOf.call(Error.prototype, v.prototype));
const truth = Object.fromEntries(errorClasses(targets[0][1]));
// A class only another entry has (the buyer's CheckoutStateError) extends MerchantGatewayError alone.
const is = (a, b) => a === b || (truth[a] === undefined ? b === 'MerchantGatewayError'
  : Object.prototype.isPrototypeOf.call(truth[b].prototype, truth[a].prototype));
const wrong = [];
let checked = 0;
for (const [source, mod] of sources) {
  for (const [name, C] of errorClasses(mod)) {
    const error = make(C, name);
    for (const [target, tmod] of targets) {
      for (const [other, D] of errorClasses(tmod)) {
        checked++;
        const got = error instanceof D;
        if (got !== is(name, other)) wrong.push(source + ' ' + name + ' instanceof ' + target + ' ' + other + ': ' + got);
      }
    }
  }
}
// A user's own subclass keeps ordinary instanceof: its instances are its own, not its parent's.
for (const [target, tmod] of targets) {
  class Mine extends tmod.ApiError {}
  const mine = new Mine(API);
  const plain = new tmod.ApiError(API);
  const cases = [[mine instanceof Mine, true], [mine instanceof tmod.ApiError, true],
    [mine instanceof tmod.MerchantGatewayError, true], [plain instanceof Mine, false],
    [new Error('m') instanceof tmod.MerchantGatewayError, false], [null instanceof tmod.ApiError, false],
    [({ name: 'ApiError' }) instanceof tmod.ApiError, false]];
  cases.forEach(([got, want], i) => { checked++; if (got !== want) wrong.push(target + ' own subclass case ' + i + ': ' + got); });
}
console.log(JSON.stringify({ checked, wrong }));`;

function run(type: 'module' | 'commonjs', script: string): { checked: number; wrong: string[] } {
  const result = spawnSync(process.execPath, [`--input-type=${type}`, '--eval', script], {
    encoding: 'utf8',
    timeout: 90_000,
  });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { checked: number; wrong: string[] };
}

describe('errors are one family across entries, formats and copies of the built package', () => {
  test('the built package exists (npm run build first)', () => {
    expect(existsSync(join(dist, 'index.js')), 'run `npm run build` before this test').toBe(true);
  });

  test('ESM: every entry, the CommonJS build and a second copy, against the main entry', () => {
    const at = (dir: string, file: string) => JSON.stringify(join(dir, file));
    const script = `
import { createRequire } from 'node:module';
const require = createRequire(${at(root, 'package.json')});
const targets = [['esm', await import(${at(dist, 'index.js')})], ['cjs', require(${at(dist, 'index.cjs')})]];
const sources = [
  ['esm', targets[0][1]], ['esm buyer', await import(${at(dist, 'buyer.js')})],
  ['esm webhooks', await import(${at(dist, 'webhooks.js')})],
  ['cjs', targets[1][1]], ['cjs buyer', require(${at(dist, 'buyer.cjs')})],
  ['cjs webhooks', require(${at(dist, 'webhooks.cjs')})],
  ['copy esm', await import(${at(copy, 'dist/index.js')})],
  ['copy esm webhooks', await import(${at(copy, 'dist/webhooks.js')})],
  ['copy esm buyer', await import(${at(copy, 'dist/buyer.js')})],
  ['copy cjs', require(${at(copy, 'dist/index.cjs')})],
];
${CHECKS}`;
    const { checked, wrong } = run('module', script);
    expect(wrong).toEqual([]);
    // 10 sources of 3 to 20 classes, each against 2 targets of 20 classes.
    expect(checked).toBeGreaterThan(2000);
  }, 120_000); // about 3 s idle: two processes' worth of imports of every entry

  test('CommonJS: every entry and a second copy, against the main entry', () => {
    const at = (dir: string, file: string) => JSON.stringify(join(dir, file));
    const script = `
const targets = [['cjs', require(${at(dist, 'index.cjs')})]];
const sources = [
  ['cjs', targets[0][1]], ['cjs buyer', require(${at(dist, 'buyer.cjs')})],
  ['cjs webhooks', require(${at(dist, 'webhooks.cjs')})],
  ['copy cjs', require(${at(copy, 'dist/index.cjs')})],
  ['copy cjs buyer', require(${at(copy, 'dist/buyer.cjs')})],
  ['copy cjs webhooks', require(${at(copy, 'dist/webhooks.cjs')})],
];
${CHECKS}`;
    const { checked, wrong } = run('commonjs', script);
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(800);
  }, 120_000); // about 2 s idle
});
