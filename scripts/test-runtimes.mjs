// Why: the README claims Node 22.12+ (import and require), Bun, Deno, Cloudflare Workers and edge runtimes; this runs the built package on each of them, against the mock over real HTTP.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EdgeVM } from '@edge-runtime/vm';
import * as esbuild from 'esbuild';
import { Miniflare } from 'miniflare';
import { nodeBinary } from './node-binaries.mjs';
import { drive, driveBuyer, driveWebhooks, startSmokeServer } from './smoke-drive.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const smoke = join(root, 'scripts/runtime-smoke.mjs');
const bin = (name) => join(root, 'node_modules/.bin', name);
const versionOf = (name) =>
  JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const results = [];
const started = Date.now();

function report(name, ok, detail, since) {
  results.push({ name, ok });
  const took = `${((Date.now() - since) / 1000).toFixed(1)} s`.padStart(6);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(14)} ${took}  ${detail}`);
}

/** Runs runtime-smoke.mjs (import and require of dist, real calls to the mock) in a child process. */
function runSmoke(name, command, args) {
  const t = Date.now();
  const run = spawnSync(command, [...args, smoke], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const out = `${run.stdout}${run.stderr}`.trim();
  const ok = run.status === 0;
  report(name, ok, ok ? out : `exit ${run.status ?? run.signal}\n${out}`, t);
}

function runNode(name, version) {
  const t = Date.now();
  try {
    // The Node 22 the `node` devDependency brings runs this script: no second copy of it.
    const path =
      version === process.versions.node.split('.')[0] ? process.execPath : nodeBinary(version);
    runSmoke(name, path, []);
  } catch (error) {
    report(name, false, String(error?.message ?? error), t);
  }
}

/** Bundles dist/index.js with a driver around `drive` (its source travels into the bundle). */
async function bundle(format, driver, external = []) {
  const { outputFiles } = await esbuild.build({
    stdin: {
      contents: `import * as sdk from './dist/index.js';\nimport * as buyerEntry from './dist/buyer.js';\nimport * as webhooksEntry from './dist/webhooks.js';\nconst drive = ${drive.toString()};\nconst driveBuyer = ${driveBuyer.toString()};\nconst driveWebhooks = ${driveWebhooks.toString()};\n${driver}`,
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    format,
    platform: 'browser',
    target: 'es2022',
    external,
    write: false,
    logLevel: 'silent',
  });
  return outputFiles[0]?.text ?? '';
}

/** dist/index.cjs (and zod's CommonJS build) as one CommonJS module, for workerd's own require. */
async function commonJsBundle() {
  const { outputFiles } = await esbuild.build({
    stdin: { contents: "module.exports = require('./dist/index.cjs');", resolveDir: root },
    bundle: true,
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return outputFiles[0]?.text ?? '';
}

async function runEdge() {
  const t = Date.now();
  const code = await bundle(
    'iife',
    'globalThis.driveSmoke = async (server) => { await drive(sdk, server); await driveBuyer(sdk, buyerEntry, server); await driveWebhooks(webhooksEntry); await driveWebhooks(sdk); };',
  );
  const server = await startSmokeServer();
  try {
    const vm = new EdgeVM();
    vm.evaluate(code);
    // Host values cross into the VM through its context; the SDK and fetch are the VM's own.
    vm.context.smokeServer = {
      url: server.url,
      apiKey: server.apiKey,
      appId: server.appId,
      clientId: server.clientId,
      merchantId: server.merchantId,
      requests: server.requests,
    };
    const where = vm.evaluate(`typeof process === 'undefined' ? 'no process global' : 'process'`);
    await vm.evaluate('driveSmoke(smokeServer)');
    report(
      'edge-runtime',
      true,
      `@edge-runtime/vm ${versionOf('@edge-runtime/vm')}: iife bundle of dist and the buyer and webhooks entries, the VM's fetch, ${where}, ${server.kind} server`,
      t,
    );
  } catch (error) {
    report('edge-runtime', false, String(error?.stack ?? error), t);
  } finally {
    await server.close();
  }
}

// The worker drives the ESM build bundled into it, then the CommonJS build loaded by workerd as
// a CommonJS module. It reaches the mock on 127.0.0.1 over real HTTP: miniflare's outbound network allows
// private addresses (workerd's own default allows public ones only). The request count, which
// only the host can read, comes back through a service binding.
const worker = `import cjs from './sdk.cjs';
export default {
  async fetch(request, env) {
    const server = {
      url: env.SERVER_URL,
      apiKey: env.API_KEY,
      appId: env.APP_ID,
      clientId: env.CLIENT_ID,
      merchantId: env.MERCHANT_ID,
      requests: async () => Number(await (await env.HOST.fetch('http://host/requests')).text()),
    };
    try {
      await drive(sdk, server);
      await drive(cjs, server);
      await driveBuyer(sdk, buyerEntry, server);
      // Receiving webhooks in a Worker: the entry, and the main entry's lazily loaded verifier.
      await driveWebhooks(webhooksEntry);
      await driveWebhooks(sdk);
      await driveWebhooks(cjs);
      return new Response(typeof process === 'undefined' ? 'no process global' : 'process');
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};`;

async function runWorkerd() {
  const t = Date.now();
  const server = await startSmokeServer();
  let mf;
  try {
    mf = new Miniflare({
      modulesRoot: root,
      modules: [
        {
          type: 'ESModule',
          path: join(root, 'worker.mjs'),
          contents: await bundle('esm', worker, ['./sdk.cjs']),
        },
        { type: 'CommonJS', path: join(root, 'sdk.cjs'), contents: await commonJsBundle() },
      ],
      compatibilityDate: '2026-07-01',
      bindings: {
        SERVER_URL: server.url,
        API_KEY: server.apiKey,
        APP_ID: server.appId,
        CLIENT_ID: server.clientId,
        MERCHANT_ID: server.merchantId,
      },
      serviceBindings: { HOST: async () => new Response(String(server.requests())) },
    });
    const response = await mf.dispatchFetch('http://worker.example/');
    const text = await response.text();
    if (response.status !== 200) throw new Error(text);
    report(
      'workerd',
      true,
      `workerd ${versionOf('workerd')} via miniflare ${versionOf('miniflare')}: dist by an esm bundle and a CommonJS module, the buyer and webhooks entries, ${text}, ${server.kind} server`,
      t,
    );
  } catch (error) {
    report('workerd', false, String(error?.stack ?? error), t);
  } finally {
    await mf?.dispose();
    await server.close();
  }
}

if (!existsSync(join(root, 'dist/index.js'))) {
  console.error('test:runtimes: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
// 22.12.0 is the floor in `engines`: the first Node that require()s ESM without a flag.
for (const version of ['22.12.0', '22', '24', '26']) runNode(`node ${version}`, version);
runSmoke('bun', bin('bun'), []);
runSmoke('deno', bin('deno'), ['run', '--allow-read', '--allow-env', '--allow-net=127.0.0.1']);
await runWorkerd();
await runEdge();
const failed = results.filter((r) => !r.ok).map((r) => r.name);
const names = results.map((r) => r.name).join(', ');
const total = `${((Date.now() - started) / 1000).toFixed(1)} s`;
console.log(
  failed.length === 0
    ? `runtimes ok in ${total}: ${names}`
    : `runtimes FAILED: ${failed.join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
