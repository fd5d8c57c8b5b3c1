// Why: publint and attw read the tarball; only installing it as a user would shows that it loads and typechecks.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const tsc = require.resolve('typescript/bin/tsc');
const mswVersion = JSON.parse(readFileSync(require.resolve('msw/package.json'), 'utf8')).version;
const keep = process.argv.includes('--keep');
const started = Date.now();

function run(command, args, cwd) {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
  } catch (error) {
    console.error(`check-pack: failed: ${command} ${args.join(' ')} (in ${cwd})`);
    console.error(String(error.stdout ?? ''), String(error.stderr ?? ''));
    throw new Error(`check-pack: ${command} failed`);
  }
}

function step(name, command, args, cwd) {
  const t = Date.now();
  const out = run(command, args, cwd);
  console.log(`check-pack: ok   ${name} (${Date.now() - t} ms)`);
  return out;
}

const temp = mkdtempSync(join(tmpdir(), 'mg-pack-'));
try {
  const [packed] = JSON.parse(
    step('npm pack', 'npm', ['pack', '--json', '--pack-destination', temp], root),
  );
  const tarball = join(temp, packed.filename);

  const app = join(temp, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'pack-check', private: true, type: 'module' }, null, 2)}\n`,
  );
  // As a user would: the tarball plus the optional peer for the testing entry; deps come from the registry or cache.
  step(
    'npm install <tarball> msw',
    'npm',
    ['install', tarball, `msw@${mswVersion}`, '--no-audit', '--no-fund', '--prefer-offline'],
    app,
  );

  step(
    'require("merchant-gateway")',
    'node',
    [
      '-e',
      `const m = require('merchant-gateway');
     if (typeof m.MerchantGateway !== 'function') throw new Error('no MerchantGateway export');
     new m.MerchantGateway({ baseUrl: 'https://gateway.example', apiKey: 'sk_test' });
     const msw = Object.keys(require.cache).filter((f) => f.includes('/node_modules/msw/'));
     if (msw.length > 0) throw new Error('the main entry loaded msw: ' + msw[0]);`,
    ],
    app,
  );
  step(
    'import("merchant-gateway")',
    'node',
    [
      '--input-type=module',
      '-e',
      `const m = await import('merchant-gateway');
     if (typeof m.MerchantGateway !== 'function') throw new Error('no MerchantGateway export');
     new m.MerchantGateway({ baseUrl: 'https://gateway.example', apiKey: 'sk_test' });`,
    ],
    app,
  );

  const testingDts = readFileSync(
    join(app, 'node_modules/merchant-gateway/dist/testing/index.d.ts'),
    'utf8',
  );
  // The mock lands on another branch; until then the entry only has to load.
  const hasMock = testingDts.includes('createMockGateway');
  const mockCheck = hasMock
    ? `if (typeof t.createMockGateway !== 'function') throw new Error('no createMockGateway export');
       if (t.createMockGateway().handlers.length !== 1) throw new Error('mock.handlers did not load msw');`
    : '';
  step(
    'require("merchant-gateway/testing")',
    'node',
    ['-e', `const t = require('merchant-gateway/testing'); ${mockCheck}`],
    app,
  );
  step(
    'import("merchant-gateway/testing")',
    'node',
    [
      '--input-type=module',
      '-e',
      `const t = await import('merchant-gateway/testing'); ${mockCheck}`,
    ],
    app,
  );

  const useMock = hasMock
    ? `export const mock = testing.createMockGateway();
export const server: Promise<{ url: string; close(): unknown }> = mock.listen();`
    : 'export const entry: object = testing;';
  const consumer = `import {
  MerchantGateway,
  type PaymentCreated,
  PaymentCreatedSchema,
  RequestValidationError,
} from 'merchant-gateway';
import * as testing from 'merchant-gateway/testing';

const gateway = new MerchantGateway({ baseUrl: 'https://gateway.example', apiKey: 'sk_test' });
export const created: Promise<PaymentCreated> = gateway.payments.create({
  merchantId: 'm_1',
  amount: { unit: 'iso4217/USD', value: '100' },
  referenceId: 'order-1',
});
export const paymentId: Promise<string> = created.then((p) => p.paymentId);
export const schema: typeof PaymentCreatedSchema = PaymentCreatedSchema;
export const isValidationError = (e: unknown): boolean => e instanceof RequestValidationError;
${useMock}
`;
  writeFileSync(join(app, 'consumer.ts'), consumer);
  // The same code from a CommonJS module: resolves the `require` condition and index.d.cts.
  writeFileSync(join(app, 'consumer-cjs.cts'), consumer);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'es2022',
    lib: ['es2022', 'dom'],
    types: [],
    skipLibCheck: true,
  };
  const tsconfig = (name, options, files) =>
    writeFileSync(
      join(app, name),
      JSON.stringify({ compilerOptions: { ...compilerOptions, ...options }, files }, null, 2),
    );
  tsconfig('tsconfig.node16.json', { module: 'node16', moduleResolution: 'node16' }, [
    'consumer.ts',
    'consumer-cjs.cts',
  ]);
  tsconfig('tsconfig.bundler.json', { module: 'esnext', moduleResolution: 'bundler' }, [
    'consumer.ts',
  ]);
  // The legacy resolution reads no `exports`: the root `testing.d.ts` answers `merchant-gateway/testing`.
  writeFileSync(join(app, 'consumer-node10.ts'), consumer);
  tsconfig(
    'tsconfig.node10.json',
    { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0' },
    ['consumer-node10.ts'],
  );
  step(
    'tsc (module node16: ESM and CJS consumers)',
    'node',
    [tsc, '-p', 'tsconfig.node16.json'],
    app,
  );
  step(
    'tsc (module esnext, moduleResolution bundler)',
    'node',
    [tsc, '-p', 'tsconfig.bundler.json'],
    app,
  );

  // The testing entry without its optional peer: mock.fetch and mock.listen() must work, and only
  // mock.handlers may ask for msw.
  const bare = join(temp, 'bare');
  mkdirSync(bare);
  writeFileSync(
    join(bare, 'package.json'),
    `${JSON.stringify({ name: 'pack-check-bare', private: true, type: 'module' }, null, 2)}\n`,
  );
  step(
    'npm install <tarball> (no msw)',
    'npm',
    ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'],
    bare,
  );
  const bareUse = `
    if (typeof t.createMockGateway !== 'function') throw new Error('no createMockGateway export');
    let mswFound = true;
    try { require.resolve('msw'); } catch { mswFound = false; }
    if (mswFound) throw new Error('msw is installed: this case needs a project without it');
    const mock = t.createMockGateway();
    const headers = { 'Api-Key': mock.credentials.apiKey };
    const path = '/v1/merchants/' + mock.sample.merchantId;
    const viaFetch = await mock.fetch('https://gateway.test' + path, { headers });
    if (viaFetch.status !== 200) throw new Error('mock.fetch answered ' + viaFetch.status);
    const server = await mock.listen();
    try {
      const viaHttp = await fetch(server.url + path, { headers });
      if (viaHttp.status !== 200) throw new Error('mock.listen() answered ' + viaHttp.status);
    } finally {
      await server.close();
    }
    let message = '';
    try { void mock.handlers; } catch (error) { message = error.message; }
    if (!message.includes('msw')) throw new Error('mock.handlers without msw: ' + (message || 'no error'));
    const loaded = await mock.loadHandlers().then(() => '', (error) => error.message);
    if (!loaded.includes('msw')) throw new Error('mock.loadHandlers() without msw: ' + (loaded || 'no error'));
  `;
  step(
    'import("merchant-gateway/testing") without msw: fetch, listen',
    'node',
    [
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
      const require = createRequire(process.cwd() + '/');
      const t = await import('merchant-gateway/testing');
      ${bareUse}`,
    ],
    bare,
  );
  step(
    'require("merchant-gateway/testing") without msw: fetch, listen',
    'node',
    [
      '-e',
      `(async () => { const t = require('merchant-gateway/testing'); ${bareUse} })()
      .catch((error) => { console.error(error); process.exit(1); });`,
    ],
    bare,
  );

  // The command lands in the build once tsup has its entry; until then the `bin` is only declared.
  const bin = join(bare, 'node_modules/.bin/merchant-gateway-mock');
  if (existsSync(join(bare, 'node_modules/merchant-gateway/dist/testing/cli.js'))) {
    const usage = step('merchant-gateway-mock --help (no msw)', bin, ['--help'], bare);
    if (!usage.includes('--port'))
      throw new Error(`check-pack: unexpected --help output: ${usage}`);
  }

  step(
    'tsc (module commonjs, moduleResolution node10)',
    'node',
    [tsc, '-p', 'tsconfig.node10.json'],
    app,
  );

  console.log(`check-pack: all good in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`check-pack: kept ${temp}`);
  else rmSync(temp, { recursive: true, force: true });
}
