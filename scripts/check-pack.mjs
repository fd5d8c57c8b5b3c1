// Why: publint and attw read the tarball; only installing it as a user would (over msw 3, over msw 2, and without msw) shows that it loads, calls and typechecks.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBinary } from './node-binaries.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const versionOf = (name) =>
  JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
// The consumer-facing compilers: TypeScript 6 is our own `typescript`, the others are aliases.
const compilers = [
  { name: 'ts 5.9', package: 'typescript-5.9' },
  { name: 'ts 6', package: 'typescript' },
  { name: 'ts 7', package: 'typescript-7' },
].map((c) => ({
  ...c,
  version: versionOf(c.package),
  tsc: join(dirname(require.resolve(`${c.package}/package.json`)), 'bin/tsc'),
}));
const msw3 = versionOf('msw');
const msw2 = versionOf('msw-v2');
const keep = process.argv.includes('--keep');
const started = Date.now();

function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return {
    ok: result.status === 0,
    stdout: result.stdout ?? '',
    // result.error: the command could not start at all (a missing or dangling bin, say).
    out: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`.trim(),
  };
}

/** `node --test` in `app`, which must have run exactly one passing test. */
function nodeTest(name, app) {
  const { out } = step(name, process.execPath, ['--test', '--test-reporter=tap'], app);
  if (!/^# pass 1$/m.test(out)) throw new Error(`check-pack: ${name} ran no test:\n${out}`);
}

function step(name, command, args, cwd) {
  const t = Date.now();
  const { ok, out, stdout } = run(command, args, cwd);
  if (!ok) {
    console.error(`check-pack: FAIL ${name}: ${command} ${args.join(' ')} (in ${cwd})\n${out}`);
    throw new Error(`check-pack: ${name} failed`);
  }
  console.log(`check-pack: ok   ${name} (${Date.now() - t} ms)`);
  return { out, stdout };
}

/** The scripts npm runs, or warns about, when it installs a package: none may be published. */
const INSTALL_SCRIPTS = /^(pre|post)?(install|prepare)$|^prepublish$/;

/** The tarball's package.json names no install-time script (scripts/pack-manifest.mjs strips them). */
function noInstallScripts(tarball) {
  const { ok, stdout, out } = run('tar', ['-xzOf', tarball, 'package/package.json'], root);
  if (!ok) throw new Error(`check-pack: cannot read package.json from ${tarball}:\n${out}`);
  const found = Object.keys(JSON.parse(stdout).scripts ?? {}).filter((n) =>
    INSTALL_SCRIPTS.test(n),
  );
  if (found.length > 0) {
    throw new Error(`check-pack: the packed package.json has install-time scripts: ${found}`);
  }
  console.log('check-pack: ok   the packed package.json has no install-time script');
}

/** An install printed nothing about lifecycle scripts (npm's allowScripts warning among them). */
function noScriptWarning(out, name) {
  // Lines of npm's script warnings naming this package (msw's own may be listed too).
  const line = out
    .split('\n')
    .find((l) => l.includes('merchant-gateway') && /install-scripts|allowScripts|prepare/i.test(l));
  if (line !== undefined) throw new Error(`check-pack: ${name} warned about scripts:\n${out}`);
}

/**
 * A project that already has msw `version`, then installs the tarball with a plain `npm i`;
 * without `version`, a project that never installs msw (the peer is optional).
 */
function project(temp, tarball, version) {
  const app = join(temp, version ? `app-msw${version.split('.')[0]}` : 'app-no-msw');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'pack-check', private: true, type: 'module' }, null, 2)}\n`,
  );
  const npm = ['--no-audit', '--no-fund', '--prefer-offline'];
  if (!version) {
    const { out } = step(
      'plain npm i <tarball> without msw',
      'npm',
      ['install', tarball, ...npm],
      app,
    );
    noScriptWarning(out, 'npm i <tarball>');
    if (existsSync(join(app, 'node_modules/msw'))) throw new Error('check-pack: npm installed msw');
    const installed = join(app, 'node_modules/merchant-gateway');
    if (!existsSync(join(installed, 'LICENSE'))) throw new Error('check-pack: no LICENSE shipped');
    // zod is bundled into dist: the runtime never loads it; it is installed for the .d.ts files.
    if (!existsSync(join(app, 'node_modules/zod')))
      throw new Error('check-pack: zod not installed');
    for (const file of [
      'dist/index.js',
      'dist/index.cjs',
      'dist/webhooks.js',
      'dist/webhooks.cjs',
    ]) {
      if (/\bfrom ['"]zod|require\(['"]zod/.test(readFileSync(join(installed, file), 'utf8'))) {
        throw new Error(`check-pack: ${file} loads zod at run time; it is meant to be bundled`);
      }
    }
    return app;
  }
  step(`msw ${version} installed first`, 'npm', ['install', '-D', `msw@${version}`, ...npm], app);
  // No --legacy-peer-deps: the optional peer `msw` must accept what the project already has.
  const { out } = step(
    `then plain npm i <tarball> over msw ${version}`,
    'npm',
    ['install', tarball, ...npm],
    app,
  );
  noScriptWarning(out, `npm i <tarball> over msw ${version}`);
  const installed = JSON.parse(readFileSync(join(app, 'node_modules/msw/package.json'))).version;
  if (installed !== version) throw new Error(`msw ${installed} replaced msw ${version}`);
  return app;
}

// A CommonJS user: both entries by require(), then a real call against the mock over HTTP.
const requireBoth = `const { MerchantGateway } = require('merchant-gateway');
const loaded = Object.keys(require.cache).filter((f) => f.includes('/node_modules/msw/'));
if (loaded.length > 0) throw new Error('the main entry loaded msw: ' + loaded[0]);
const { createMockGateway } = require('merchant-gateway/testing');
(async () => {
  const mock = createMockGateway();
  const server = await mock.listen();
  try {
    const gateway = new MerchantGateway({ baseUrl: server.url, apiKey: mock.credentials.apiKey });
    const amount = { unit: 'iso4217/USD', value: '100' };
    const created = await gateway.payments.create({ merchantId: mock.sample.merchantId, amount, referenceId: 'cjs-1' });
    if (mock.getPayment(created.paymentId)?.referenceId !== 'cjs-1') throw new Error('no payment');
    const { BuyerClient } = require('merchant-gateway/buyer');
    const view = await new BuyerClient({ baseUrl: server.url, apiKey: mock.credentials.apiKey }).get(created.paymentId);
    if (typeof view.status !== 'string') throw new Error('the buyer entry read no status');
    // merchant-gateway/webhooks: the service's test vector verifies (tolerance off).
    const { Webhooks } = require('merchant-gateway/webhooks');
    await new Webhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', toleranceSeconds: Infinity })
      .verifySignature('{"test": 2432232314}', { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' });
  } finally {
    await server.close();
  }
})().catch((error) => { console.error(error); process.exitCode = 1; });`;

// Node's import of every entry, each used for real: a call, the buyer's view, a verification.
const importBoth = `const { MerchantGateway } = await import('merchant-gateway');
const { createMockGateway } = await import('merchant-gateway/testing');
const mock = createMockGateway();
const server = await mock.listen();
try {
  const gateway = new MerchantGateway({ baseUrl: server.url, apiKey: mock.credentials.apiKey });
  const view = await gateway.payments.get((await gateway.payments.create({
    merchantId: mock.sample.merchantId, amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'esm-1',
  })).paymentId);
  if (typeof view.status !== 'string') throw new Error('no status');
  const { BuyerClient, PaymentOptionsSchema } = await import('merchant-gateway/buyer');
  if (PaymentOptionsSchema === undefined) throw new Error('the buyer entry exports no schemas');
  const buyer = new BuyerClient({ baseUrl: server.url, apiKey: mock.credentials.apiKey });
  const cancelled = await gateway.payments.create({
    merchantId: mock.sample.merchantId, amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'esm-2',
  });
  if ((await buyer.get(cancelled.paymentId)).status !== 'requires_action') throw new Error('the buyer entry read no view');
  // merchant-gateway/webhooks, and the main entry's Webhooks: the service's test vector verifies.
  const vector = ['{"test": 2432232314}', { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }];
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const { Webhooks, WebhookEventSchema } = await import('merchant-gateway/webhooks');
  if (WebhookEventSchema === undefined) throw new Error('the webhooks entry exports no schemas');
  await new Webhooks({ secret, toleranceSeconds: Infinity }).verifySignature(...vector);
  const { Webhooks: MainWebhooks } = await import('merchant-gateway');
  await new MainWebhooks({ secret, toleranceSeconds: Infinity }).verifySignature(...vector);
} finally {
  await server.close();
}`;

// Without msw: the testing entry loads, mock.fetch and mock.listen() answer, and only the msw
// handlers fail, with an error that names msw and says to install it (not Node's bare not-found).
const withoutMsw = `let mswFound = true;
try { require.resolve('msw'); } catch { mswFound = false; }
if (mswFound) throw new Error('msw is installed: this case needs a project without it');
const mock = createMockGateway();
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
const namesMsw = (message) => /\\bmsw\\b/.test(message) && message.includes('install');
let thrown = '';
try { void mock.handlers; } catch (error) { thrown = error.message; }
if (!namesMsw(thrown)) throw new Error('mock.handlers without msw: ' + (thrown || 'no error'));
const rejected = await mock.loadHandlers().then(() => '', (error) => error.message);
if (!namesMsw(rejected)) throw new Error('mock.loadHandlers() without msw: ' + (rejected || 'no error'));`;
const requireWithoutMsw = `const { createMockGateway } = require('merchant-gateway/testing');
(async () => {
${withoutMsw}
})().catch((error) => { console.error(error); process.exitCode = 1; });`;
const importWithoutMsw = `import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/');
const { createMockGateway } = await import('merchant-gateway/testing');
${withoutMsw}`;

/** Runs `scripts` (CommonJS and ESM) in `app` on `node`; Node 22.12 must not warn about require(esm). */
function loadWithNode(
  app,
  label,
  node,
  what = 'both entries + a call',
  scripts = [requireBoth, importBoth],
) {
  for (const [how, args] of [
    ['require', ['-e', scripts[0]]],
    ['import', ['--input-type=module', '-e', scripts[1]]],
  ]) {
    const { out } = step(`${how}() ${what}, ${label}`, node, args, app);
    if (/ExperimentalWarning|Warning:/.test(out)) {
      throw new Error(`check-pack: ${how}() on ${label} printed a warning:\n${out}`);
    }
  }
}

// An integrator's test: msw's own setupServer with the mock's handlers, no network.
const mswTest = `import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { setupServer } from 'msw/node';

const msw = createRequire(import.meta.url)('msw/package.json').version;
const mock = createMockGateway();
const server = setupServer(...mock.handlers);

test('mock.handlers answer the SDK through msw ' + msw + "'s setupServer", async () => {
  assert.equal(msw.split('.')[0], process.env.MSW_MAJOR);
  server.listen();
  try {
    // gateway.test does not resolve: only msw can answer.
    const gateway = new MerchantGateway({ baseUrl: 'https://gateway.test', apiKey: mock.credentials.apiKey });
    const created = await gateway.payments.create({
      merchantId: mock.sample.merchantId,
      amount: { unit: 'iso4217/USD', value: '250' },
      referenceId: 'msw-1',
    });
    assert.equal(mock.getPayment(created.paymentId)?.referenceId, 'msw-1');
    assert.equal(mock.requests.at(-1)?.path, '/v1/payments');
  } finally {
    server.close();
  }
});
`;

const consumer = `import {
  MerchantGateway,
  type PaymentCreated,
  PaymentCreatedSchema,
  RequestValidationError,
} from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { BuyerClient, type PaymentOptions, PayError } from 'merchant-gateway/buyer';
import { type WebhookEvent, Webhooks, WebhookEventSchema } from 'merchant-gateway/webhooks';

type IsAny<T> = 0 extends 1 & T ? true : false;
const gateway = new MerchantGateway({ baseUrl: 'https://gateway.example', apiKey: 'sk_test' });
// The buyer entry: its client, closed types and errors resolve from the buyer declarations.
const buyer = new BuyerClient({ baseUrl: 'https://gateway.example', appId: 'app', clientId: 'client' });
export const options: Promise<PaymentOptions> = buyer.options('pay_1', { accounts: ['eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb'] });
export const optionIds: Promise<string[]> = options.then((o) => o.options.map((option) => option.id));
export const isPayError = (e: unknown): boolean => e instanceof PayError;
// @ts-expect-error a misspelt buyer result field does not compile
export const misspeltOption = options.then((o) => o.option);
// The webhooks entry: a switch on the event type narrows, the snapshot closed.
export const webhooks = new Webhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
export const eventSchema: typeof WebhookEventSchema = WebhookEventSchema;
export function txId(event: WebhookEvent): string | null | undefined {
  switch (event.type) {
    case 'payment.succeeded':
      // @ts-expect-error the wire's names are snake_case
      event.data.paymentId;
      return event.data.success?.tx_id;
    default:
      return undefined;
  }
}
export const created: Promise<PaymentCreated> = gateway.payments.create({
  merchantId: 'm_1',
  amount: { unit: 'iso4217/USD', value: '100' },
  referenceId: 'order-1',
});
export const paymentId: Promise<string> = created.then((p) => p.paymentId);
export const schema: typeof PaymentCreatedSchema = PaymentCreatedSchema;
export const isValidationError = (e: unknown): boolean => e instanceof RequestValidationError;
export const mock = createMockGateway();
export const server: Promise<{ url: string; close(): unknown }> = mock.listen();
// msw's HttpHandler must resolve from our declarations, not fall back to any.
export const handlersTyped: IsAny<(typeof mock.handlers)[number]> = false;
// @ts-expect-error a misspelt field does not compile
gateway.payments.create({ merchantId: 'm_1', amount: { unit: 'iso4217/USD', value: '1' }, referenceID: 'x' });
// The result types and schemas are built from zod's types (zod is a dependency for them): without
// zod they degrade silently under skipLibCheck (PaymentCreated to {}, a schema's output to any).
declare const payment: PaymentCreated;
export const expiresAt: number = payment.expiresAt;
export const parsedTyped: IsAny<ReturnType<typeof PaymentCreatedSchema.parse>> = false;
// @ts-expect-error a misspelt result field does not compile
export const misspelt = payment.gatewayURL;
`;
const mainOnly = consumer
  .replace(/import \{ createMockGateway \}[^\n]*\n/, '')
  .replace(/import \{ BuyerClient[^\n]*\n/, '')
  .replace(/import \{ type WebhookEvent[^\n]*\n/, '')
  .replace(/\/\/ The webhooks entry:[\s\S]*?\n}\n/, '')
  .replace(/\/\/ The buyer entry:[\s\S]*?o\.option\);\n/, '')
  .replace(/export const mock[\s\S]*?= false;\n/, '');
const testingOnly = `import { createMockGateway } from 'merchant-gateway/testing';
type IsAny<T> = 0 extends 1 & T ? true : false;
export const mock = createMockGateway();
export const handlersTyped: IsAny<(typeof mock.handlers)[number]> = false;
`;

const buyerOnly = `import { BuyerClient, type PaymentOptions } from 'merchant-gateway/buyer';
const buyer = new BuyerClient({ baseUrl: 'https://gateway.example', appId: 'app', clientId: 'client' });
export const options: Promise<PaymentOptions> = buyer.options('pay_1', { accounts: ['eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb'] });
`;

const webhooksOnly = `import { type WebhookEvent, Webhooks } from 'merchant-gateway/webhooks';
export const webhooks = new Webhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
export const paid = (event: WebhookEvent) => event.type === 'payment.succeeded' && event.data.success?.tx_id;
`;

const resolutions = [
  // module, moduleResolution, files: ESM and CJS consumers where the resolution has both.
  { name: 'node16', module: 'node16', files: ['consumer.ts', 'consumer-cjs.cts'] },
  { name: 'nodenext', module: 'nodenext', files: ['consumer.ts', 'consumer-cjs.cts'] },
  { name: 'bundler', module: 'esnext', files: ['consumer.ts'] },
];

/** Runs `command` without blocking, so the compilers share the machine's cores. */
function runAsync(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.on('close', (code) => resolve({ ok: code === 0, out: out.trim() }));
  });
}

/** Runs the thunks `width` at a time. */
async function pool(thunks, width) {
  const queue = [...thunks];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await next();
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** Compiles the consumers in `app`; returns one row of the matrix per compiler. */
async function typeMatrix(app) {
  writeFileSync(join(app, 'consumer.ts'), consumer);
  // The same code from a CommonJS module: resolves the `require` condition and index.d.cts.
  writeFileSync(join(app, 'consumer-cjs.cts'), consumer);
  writeFileSync(join(app, 'main-node10.ts'), mainOnly);
  writeFileSync(join(app, 'testing-node10.ts'), testingOnly);
  writeFileSync(join(app, 'buyer-node10.ts'), buyerOnly);
  writeFileSync(join(app, 'webhooks-node10.ts'), webhooksOnly);
  const base = { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'] };
  const jobs = [];
  let projects = [];
  const compile = (row, column, ts, name, options, files) => {
    const file = `tsconfig.${ts.package}.${name}.json`;
    const compilerOptions = { ...base, types: [], skipLibCheck: true, ...options };
    writeFileSync(join(app, file), JSON.stringify({ compilerOptions, files }, null, 2));
    projects.push({ row, column, file });
  };
  // One `tsc --build` per compiler for all its projects: one start, and the lib files (dom among
  // them) parsed once, not once per project (three projects on TS 6: 9.0 s of CPU one by one,
  // 3.4 s built together). Each project is still checked on its own options; a failed build is
  // redone project by project, so the matrix names the cells that fail.
  const buildAll = (ts, mine) => async () => {
    const t = Date.now();
    const files = mine.map((p) => p.file);
    const all = await runAsync(process.execPath, [ts.tsc, '--build', '--force', ...files], app);
    if (all.ok) {
      for (const { row, column } of mine) row[column] = { ok: true, out: '', ms: Date.now() - t };
      return;
    }
    for (const { row, column, file } of mine) {
      const one = Date.now();
      const result = await runAsync(process.execPath, [ts.tsc, '-p', file], app);
      row[column] = { ...result, ms: Date.now() - one };
    }
  };
  const rows = [];
  let count = 0;
  for (const ts of compilers) {
    projects = [];
    const row = { ts };
    for (const r of resolutions) {
      const options = { module: r.module, moduleResolution: r.name };
      compile(row, r.name, ts, r.name, options, r.files);
    }
    // node10 ignores `exports`: the main entry resolves by `types`, the testing entry by the root
    // testing.d.ts the package ships. TypeScript 7 removed node10, TypeScript 6 deprecates it.
    if (ts.version.startsWith('7')) {
      row.node10 = { skip: 'n/a in TS 7' };
      row['node10 testing'] = { skip: 'n/a in TS 7' };
      row['node10 buyer'] = { skip: 'n/a in TS 7' };
      row['node10 webhooks'] = { skip: 'n/a in TS 7' };
    } else {
      const options = {
        module: 'commonjs',
        moduleResolution: 'node10',
        ...(ts.version.startsWith('6') ? { ignoreDeprecations: '6.0' } : {}),
      };
      compile(row, 'node10', ts, 'node10-main', options, ['main-node10.ts']);
      compile(row, 'node10 testing', ts, 'node10-testing', options, ['testing-node10.ts']);
      compile(row, 'node10 buyer', ts, 'node10-buyer', options, ['buyer-node10.ts']);
      compile(row, 'node10 webhooks', ts, 'node10-webhooks', options, ['webhooks-node10.ts']);
    }
    count += projects.length;
    jobs.push(buildAll(ts, projects));
    rows.push(row);
  }
  const t = Date.now();
  const width = availableParallelism();
  await pool(jobs, width);
  console.log(
    `check-pack: ok   ${count} compilations in ${jobs.length} builds, ${width} at a time (${Date.now() - t} ms)`,
  );
  return rows;
}

function printMatrix(rows) {
  const columns = [
    ...resolutions.map((r) => r.name),
    'node10',
    'node10 testing',
    'node10 buyer',
    'node10 webhooks',
  ];
  const cell = (result) =>
    !result
      ? '—'
      : result.skip
        ? result.skip
        : result.ok
          ? `ok ${(result.ms / 1000).toFixed(1)} s`
          : 'FAIL';
  console.log(
    `check-pack: consumer types (strict; ESM + CJS consumers for node16/nodenext)\n  ${'compiler'.padEnd(16)}${columns.map((c) => c.padEnd(18)).join('')}`,
  );
  for (const row of rows) {
    const label = `${row.ts.name} (${row.ts.version})`;
    console.log(`  ${label.padEnd(16)}${columns.map((c) => cell(row[c]).padEnd(18)).join('')}`);
  }
  // Every cell counts, node10 + ./testing too (TS 5.9 and 6): it fails if testing.d.ts is not shipped.
  let failed = false;
  for (const row of rows) {
    for (const c of columns) {
      const result = row[c];
      if (!result || result.skip || result.ok) continue;
      console.log(`check-pack: FAIL ${row.ts.name} ${c}:\n${result.out}`);
      failed = true;
    }
  }
  if (failed) throw new Error('check-pack: consumer types failed');
}

const temp = mkdtempSync(join(tmpdir(), 'mg-pack-'));
try {
  // With its scripts, as `npm publish` packs: `prepack` takes the install-time scripts out of the
  // manifest (scripts/pack-manifest.mjs), so `prepare` is neither run here nor published.
  const [packed] = JSON.parse(
    step('npm pack', 'npm', ['pack', '--json', '--pack-destination', temp], root).stdout,
  );
  const tarball = join(temp, packed.filename);
  noInstallScripts(tarball);

  const app3 = project(temp, tarball, msw3);
  const floor = nodeBinary('22.12.0');
  loadWithNode(app3, `node ${process.versions.node}, msw ${msw3}`, process.execPath);
  loadWithNode(app3, 'node 22.12.0 (the floor), msw 3', floor);
  writeFileSync(join(app3, 'msw.test.mjs'), mswTest);
  process.env.MSW_MAJOR = '3';
  nodeTest(`node --test: mock.handlers with msw ${msw3} setupServer`, app3);
  printMatrix(await typeMatrix(app3));

  const app2 = project(temp, tarball, msw2);
  loadWithNode(app2, `node ${process.versions.node}, msw ${msw2}`, process.execPath);
  writeFileSync(join(app2, 'msw.test.mjs'), mswTest);
  process.env.MSW_MAJOR = '2';
  nodeTest(`node --test: mock.handlers with msw ${msw2} setupServer`, app2);
  const ts6 = compilers.find((c) => c.package === 'typescript');
  writeFileSync(join(app2, 'consumer.ts'), consumer);
  writeFileSync(join(app2, 'consumer-cjs.cts'), consumer);
  writeFileSync(
    join(app2, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        types: [],
        skipLibCheck: true,
        lib: ['es2022', 'dom'],
      },
      files: ['consumer.ts', 'consumer-cjs.cts'],
    }),
  );
  step(
    `tsc ${ts6.version} nodenext with msw ${msw2} types`,
    process.execPath,
    [ts6.tsc, '-p', 'tsconfig.json'],
    app2,
  );

  const bare = project(temp, tarball);
  for (const [label, node] of [
    [`node ${process.versions.node}, no msw`, process.execPath],
    ['node 22.12.0 (the floor), no msw', floor],
  ]) {
    loadWithNode(bare, label, node, 'the testing entry: fetch, listen, handlers ask for msw', [
      requireWithoutMsw,
      importWithoutMsw,
    ]);
  }
  const bin = join(bare, 'node_modules/.bin/merchant-gateway-mock');
  const { out: usage } = step('merchant-gateway-mock --help, no msw', bin, ['--help'], bare);
  if (!usage.includes('--port'))
    throw new Error(`check-pack: --help does not list --port:\n${usage}`);
  // The `merchant-gateway` command is packages/cli's: scripts/check-packages.mjs installs it.

  console.log(`check-pack: all good in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`check-pack: kept ${temp}`);
  else rmSync(temp, { recursive: true, force: true });
}
