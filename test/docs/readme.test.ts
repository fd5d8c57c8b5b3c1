// Every ```ts block of README.md must run: each is written to test/.readme/ (git-ignored) and run
// as a child process against a listening mock, with the env a reader would set.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, 'test', '.readme');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => ({
  name: `block-${String(i + 1).padStart(2, '0')}`,
  code: m[1] ?? '',
  line: readme.slice(0, m.index).split('\n').length,
}));

const mock = createMockGateway({ pollInMs: 100 });
let server: MockServer;
let buyer: NodeJS.Timeout;

beforeAll(async () => {
  server = await mock.listen();
  buyer = setInterval(() => mock.advancePayments(), 150); // the snippets that poll reach a final status
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  // The suite's config leaves this generated folder out; this one runs only the README's own test.
  writeFileSync(
    join(DIR, 'vitest.config.ts'),
    [
      "import base from '../../vitest.config';",
      'export default { ...base, test: { ...base.test, include: ["test/.readme/*.test.ts"], exclude: [] } };',
    ].join('\n'),
  );
});

afterAll(async () => {
  clearInterval(buyer);
  await server.close();
});

function env(): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('MERCHANT_GATEWAY_')),
  );
  return {
    ...clean,
    MERCHANT_GATEWAY_BASE_URL: server.url,
    MERCHANT_GATEWAY_API_KEY: mock.credentials.apiKey,
    MERCHANT_GATEWAY_LEGACY_API_KEY: mock.credentials.legacyApiKey,
    MERCHANT_ID: mock.sample.merchantId,
  };
}

describe('README.md', () => {
  test('has ts blocks', () => {
    expect(blocks.length).toBeGreaterThan(5);
  });

  test.concurrent.each(blocks)(
    'the ts block at line $line runs',
    async ({ name, code }) => {
      // A block written as a vitest test runs under vitest; any other runs as a script with tsx.
      const isTest = /from 'vitest'/.test(code);
      const file = join(DIR, `${name}${isTest ? '.test.ts' : '.ts'}`);
      writeFileSync(file, code);
      const args = isTest
        ? [VITEST, 'run', '--root', ROOT, '--config', join(DIR, 'vitest.config.ts'), file]
        : ['--import', 'tsx', file];
      const result = await run(process.execPath, args, { cwd: ROOT, env: env(), timeout: 50_000 });
      expect(result.stderr).not.toMatch(/Error/);
    },
    60_000,
  );

  test('the payments snippet, run again as after a restart, makes no second payment', async () => {
    const section = readme.split('\n').indexOf('## Payments') + 1;
    const block = blocks.find(({ line }) => line > section);
    if (!block) throw new Error('no block under ## Payments');
    const file = join(DIR, 'payments-replay.ts');
    writeFileSync(file, block.code);
    const before = new Set(mock.payments().map((p) => p.id));
    for (let i = 0; i < 2; i++) {
      await run(process.execPath, ['--import', 'tsx', file], {
        cwd: ROOT,
        env: env(),
        timeout: 50_000,
      });
    }
    // Two runs, each paying twice: one payment at most (none if the run above made it already).
    const made = mock.payments().filter((p) => !before.has(p.id));
    expect(made.length).toBeLessThanOrEqual(1);
  }, 120_000);
});
