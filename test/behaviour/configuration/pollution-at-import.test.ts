// The built package, loaded in a fresh Node process whose Object.prototype was polluted BEFORE the
// import (a dependency of the user's app did it first): the import and a call still work, in ESM
// and in CommonJS. Only the built dist shows this: it carries zod and esbuild's helpers, which the
// source run by vitest does not.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const dist = fileURLToPath(new URL('../../../dist/', import.meta.url));

// Ordinary names and names zod and esbuild use as variables or fields; the names zod reads as its
// own options (`checks`, `message`, `_zod`) and property-descriptor fields (`get`, `set`) break
// Object.defineProperty or zod's option reading themselves and are left out (see
// docs/configuration.md, A polluted `Object.prototype`).
const KEYS = ['polluted', 'shape', 'type', 'default', 'error', 'optional', 'toJSON', 'then'];

// Loading, building a client and parsing with an exported schema: what runs at import and what
// zod builds lazily. (Sending through fetch under pollution is the transport's own test.)
const body = (load: string) => `
for (const key of ${JSON.stringify(KEYS)}) Object.prototype[key] = 1;
${load}
new MerchantGateway({ baseUrl: 'https://gateway.test', apiKey: 'sk_test_polluted_key' });
const created = { paymentId: 'pay_1', status: 'processing', isFinal: false, expiresAt: 1, gatewayUrl: 'https://x' };
if (!PaymentCreatedSchema.safeParse(created).success) throw new Error('a good body failed to parse');
if (PaymentCreatedSchema.safeParse({ ...created, isFinal: 'no' }).success) throw new Error('a bad body parsed');
if (typeof createMockGateway().fetch !== 'function') throw new Error('no mock');
console.log('loaded and parsed');`;

const esm =
  body(`const { MerchantGateway, PaymentCreatedSchema } = await import(${JSON.stringify(`${dist}index.js`)});
const { createMockGateway } = await import(${JSON.stringify(`${dist}testing/index.js`)});`);
const cjs =
  body(`const { MerchantGateway, PaymentCreatedSchema } = require(${JSON.stringify(`${dist}index.cjs`)});
const { createMockGateway } = require(${JSON.stringify(`${dist}testing/index.cjs`)});`);

function run(args: string[]) {
  return spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 20_000 });
}

describe('a prototype polluted before the import', () => {
  test('the built package exists (npm run build first)', () => {
    expect(existsSync(`${dist}index.js`), 'run `npm run build` before this test').toBe(true);
  });

  test('import "merchant-gateway" (ESM) loads, builds a client and parses', () => {
    const result = run(['--input-type=module', '--eval', esm]);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('loaded and parsed');
  });

  test('require("merchant-gateway") (CommonJS) loads, builds a client and parses', () => {
    const result = run(['--input-type=commonjs', '--eval', cjs]);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('loaded and parsed');
  });
});
