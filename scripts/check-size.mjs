// Why: keep what a browser or edge user ships small; fails npm test when the gzipped bundle grows past the budget, and shows where the bytes go.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

// The goal of issue 8. Not met yet: 19.7 KB when this check was written, 22.9 KB with payment
// lists; getting there needs src/ changes (ky and p-retry are 5.7 KB of it), so it is reported.
const TARGET_BYTES = 16 * 1024;
// What fails npm test meanwhile: a stop on growth. Lower it as the SDK slims down.
const BUDGET_BYTES = Number(process.env.SIZE_BUDGET_BYTES ?? 24 * 1024);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist/index.js');
if (!existsSync(entry)) {
  console.error('size: dist/index.js is missing; run `npm run build` first');
  process.exit(1);
}

async function bundle(external = []) {
  const result = await esbuild.build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    treeShaking: true,
    write: false,
    metafile: true,
    external,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0]?.contents;
  if (output === undefined) throw new Error('size: esbuild produced no output');
  return { output, metafile: result.metafile, gzipped: gzipSync(output, { level: 9 }).length };
}

const { output, metafile, gzipped } = await bundle();
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
const over = (limit) => (gzipped <= limit ? 'ok' : `OVER by ${gzipped - limit} B`);
console.log(
  `size: dist/index.js + dependencies, minified for the browser: ${output.length} B, gzip ${gzipped} B (${kb(gzipped)})`,
);
console.log(`size: budget ${BUDGET_BYTES} B (${kb(BUDGET_BYTES)}): ${over(BUDGET_BYTES)}`);
console.log(`size: target ${TARGET_BYTES} B (${kb(TARGET_BYTES)}): ${over(TARGET_BYTES)}`);
if (gzipped <= TARGET_BYTES) process.exit(0);
const print = gzipped > BUDGET_BYTES ? console.error : console.log;

// Each package's share of the minified output (the metafile counts minified bytes per input), and
// what leaving it out would save after gzip (gzip shares a dictionary, so shares don't add up).
const [meta] = Object.values(metafile.outputs);
const shares = new Map();
for (const [path, { bytesInOutput }] of Object.entries(meta?.inputs ?? {})) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  const name = match?.[1] ?? 'merchant-gateway (dist)';
  shares.set(name, (shares.get(name) ?? 0) + bytesInOutput);
}
const total = [...shares.values()].reduce((a, b) => a + b, 0);
print('by package: minified bytes, share of the bundle, gzip change when bundled without it');
print(
  `  ${'package'.padEnd(26)} ${'minified'.padStart(9)} ${'share'.padStart(7)} ${'gzip without it'.padStart(16)}`,
);
for (const [name, bytes] of [...shares].sort((a, b) => b[1] - a[1])) {
  const pct = `${((100 * bytes) / total).toFixed(1)} %`;
  const saved = name.startsWith('merchant-gateway')
    ? '-'
    : `-${gzipped - (await bundle([name])).gzipped} B`;
  print(
    `  ${name.padEnd(26)} ${`${bytes} B`.padStart(9)} ${pct.padStart(7)} ${saved.padStart(16)}`,
  );
}
process.exit(gzipped > BUDGET_BYTES ? 1 : 0);
