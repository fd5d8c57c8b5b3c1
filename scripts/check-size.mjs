// Why: keep what a browser or edge user ships small; fails npm test when the gzipped bundle grows past the budget, and shows where the bytes go (npm run bench prints the same table).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

// What the work of issue 23 measures at import (36.8 KB: dist/index.js on ky 2, zod/mini, p-retry 9,
// with the whole partner API, the resilient single follow, the follower's front and the checkout
// field; the follower's engine is a lazy chunk, reported apart) plus 1 KB. It grew 0.3 KB from
// 37,350 B with the per-call work (the pollution check that lets ky skip 20 options, the split
// path templates, the whole-body decode, the seam that lets Node's build load ky later). A stop
// on growth: raise it only with a reason in the commit.
// Issue 27 added the buyer's calls (gateway.buyer: the resource and its schemas, with pay() a
// lazy chunk): 39,800 B, 2,097 B over the 37,703 B before it.
// Issue 29 (OpenTelemetry) added 807 B: the option's check, the active span for log lines, and the
// hooks that load its lazy chunk (the spans and instruments): 40,607 B, plus the usual 1 KB.
// Issue 27's slimming then loaded p-retry and the failure path on a call's first failure in the
// browser builds: 39,761 B with all of this round's work, plus the usual 1 KB.
// Issue 34 (receiving webhooks) adds about 750 B at import (40,551 B): the Webhooks class, its
// error and the client's gateway.webhooks; the verifier and the event schemas load on first use
// (a lazy chunk of 2.8 KB gzip; loaded eagerly they would add 3,726 B, past this budget).
// Its guard and follower.ingest add 798 B more (41,568 B): the option checks of
// createWebhookGuard, memoryStore and postgresStore, guardTableSql, webhooks.guard() and a
// change's source; the rule, both stores, the SQL and the snapshot reading load on first use. This
// counts every export; a bundler drops the store functions of an app that never calls them.
const BUDGET_BYTES = Number(process.env.SIZE_BUDGET_BYTES ?? 41_568 + 1024);

// merchant-gateway/buyer, a wallet's bundle: issue 27 bounds it at 20 KB min+gzip with ky and
// zod/mini. Not met yet. It measured 30,701 B; issue 27's slimming (buyer-slim) took it to
// 26,990 B: the buyer-facing view and status read apart from the partner's schemas (-1,447 B),
// p-retry (-1,172 B) and the failure path (error factory, body redaction and cut: -709 B; a 401's
// hints: -154 B) loaded on a call's first failure in the browser builds, no HoldLimit without
// follows (about -280 B). What remains: ky 2 (~8.1 KB gzip) and zod/mini (~7 KB) leave ~5 KB
// for our own code, which takes ~12.7 KB alone (client option checks and messages, transport
// steps, the redactor, error classes, the buyer's schemas and calls, all needed at import);
// meeting 20 KB needs a slimmer shared core (or schema library), not more splitting. Until
// then this stops growth at what it measures with issue 29's telemetry hooks too (27,667 B: the
// buyer's client takes `telemetry`, its spans in a lazy chunk) plus 512 B.
const BUYER_TARGET_BYTES = 20 * 1024;
const BUYER_BUDGET_BYTES = Number(process.env.SIZE_BUYER_BUDGET_BYTES ?? 27_667 + 512);

// merchant-gateway/webhooks, a receiver's bundle (an edge function, a Worker): issue 34 bounds it
// at 10 KB min+gzip with zod/mini (about 5 KB of it), everything loaded at import. The verifier and
// the event schemas measured 10,157 B; the exactly-once guard the contract puts in this entry adds
// 1,075 B at import (11,232 B: webhooks.guard(), the store functions' option checks and
// guardTableSql; the rule, both stores and the SQL load on first use). 10 KB holds both only if
// the verifier's part slims by about 1 KB: until then this stops growth at 11,232 B plus 256 B.
const WEBHOOKS_BUDGET_BYTES = Number(process.env.SIZE_WEBHOOKS_BUDGET_BYTES ?? 11_232 + 256);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist/index.js');
const buyerEntry = join(root, 'dist/buyer.js');
const webhooksEntry = join(root, 'dist/webhooks.js');
for (const file of [entry, buyerEntry, webhooksEntry]) {
  if (!existsSync(file)) {
    console.error(`size: ${file.slice(root.length + 1)} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}

// dist/index.js carries zod inside it; the same bundle built from the source still names each
// package's files, so the shares below are read from that one.
const source = join(root, 'src/index.ts');

// The shares below are read from bundles of src/: they get the swap tsup.config.ts's
// lazy-on-failure plugin makes for dist/index.js and dist/buyer.js (p-retry and the failure path
// as chunks loaded on a first failure), so they count what those files load at import.
const lazyOnFailure = {
  name: 'lazy-on-failure',
  setup(build) {
    build.onResolve({ filter: /^\.\/(failure|retry)-load$/ }, (args) =>
      /\/src\/core\/[\w-]+\.ts$/.test(args.importer)
        ? { path: args.importer.replace(/[\w-]+\.ts$/, `${args.path.slice(2)}-lazy.ts`) }
        : undefined,
    );
  },
};

// And the main entry's swap of the webhook receiver for its lazy loader (tsup.config.ts).
const lazyReceiver = {
  name: 'lazy-receiver',
  setup(build) {
    build.onResolve({ filter: /^\.\/receiver-load$/ }, (args) =>
      args.importer.endsWith('/src/webhooks/webhooks.ts')
        ? { path: args.importer.replace(/webhooks\.ts$/, 'receiver-load-lazy.ts') }
        : undefined,
    );
  },
};

/**
 * Minified, browser, ESM bundle of `stdin` (or `from`), split as a browser bundler splits it: what
 * loads with the import (the entry's output, measured against the budget) and, apart, the chunks
 * a dynamic `import()` loads only when used (the follower's engine, on its first `follower()`).
 */
async function bundle({
  external = [],
  stdin,
  from = entry,
  plugins = [lazyOnFailure, lazyReceiver],
} = {}) {
  const result = await esbuild.build({
    ...(stdin ? { stdin: { contents: stdin, resolveDir: root } } : { entryPoints: [from] }),
    absWorkingDir: root,
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    splitting: true,
    outdir: join(root, '.cache/size'),
    treeShaking: true,
    write: false,
    metafile: true,
    external,
    plugins,
    logLevel: 'silent',
  });
  const outputs = Object.entries(result.metafile.outputs);
  // The entry's own output: a dynamic import() of another dist/ file is an entry point too.
  const entryPoint = stdin ? '<stdin>' : relative(root, from);
  const entryPath = (outputs.find(([, o]) => o.entryPoint === entryPoint) ??
    outputs.find(([, o]) => o.entryPoint !== undefined))?.[0];
  const file = (path) => result.outputFiles.find((f) => f.path === join(root, path));
  const output = entryPath === undefined ? undefined : file(entryPath)?.contents;
  if (output === undefined) throw new Error('size: esbuild produced no output');
  // Chunks the entry imports statically load with it; the rest load only on a dynamic import().
  const eager = new Set([entryPath]);
  for (const path of eager) {
    for (const i of result.metafile.outputs[path]?.imports ?? []) {
      if (i.kind === 'import-statement' && !i.external) eager.add(i.path);
    }
  }
  let eagerBytes = new Uint8Array(0);
  let lazyGzipped = 0;
  for (const [path] of outputs) {
    const contents = file(path)?.contents;
    if (contents === undefined || path.endsWith('.map')) continue;
    if (eager.has(path)) eagerBytes = Buffer.concat([eagerBytes, contents]);
    else lazyGzipped += gzipSync(contents, { level: 9 }).length;
  }
  return {
    output: eagerBytes,
    metafile: result.metafile,
    entryPath,
    eager,
    gzipped: gzipSync(eagerBytes, { level: 9 }).length,
    lazyGzipped,
  };
}

const { output, gzipped, lazyGzipped } = await bundle();
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
const over = gzipped <= BUDGET_BYTES ? 'ok' : `OVER by ${gzipped - BUDGET_BYTES} B`;
const print = gzipped > BUDGET_BYTES ? console.error : console.log;

// Each package's share of the minified output (the metafile counts minified bytes per input);
// what it adds after gzip is the bundle without it subtracted from the whole (gzip shares one
// dictionary across packages, so these don't add up to the total exactly).
const bySource = await bundle({ from: source });
const shares = new Map();
const eagerInputs = [...bySource.eager].flatMap((path) =>
  Object.entries(bySource.metafile.outputs[path]?.inputs ?? {}),
);
for (const [path, { bytesInOutput }] of eagerInputs) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  const name = match?.[1] ?? 'merchant-gateway (own code)';
  shares.set(name, (shares.get(name) ?? 0) + bytesInOutput);
}
const dependencies = [...shares.keys()].filter((n) => !n.startsWith('merchant-gateway'));
const total = [...shares.values()].reduce((a, b) => a + b, 0);
const rows = [];
for (const [name, bytes] of [...shares].sort((a, b) => b[1] - a[1])) {
  // For our own code: the bundle with every dependency left out is our code alone.
  const alone = name.startsWith('merchant-gateway')
    ? (await bundle({ external: dependencies, from: source })).gzipped
    : bySource.gzipped - (await bundle({ external: [name], from: source })).gzipped;
  rows.push({ name, minified: bytes, share: bytes / total, gzip: alone });
}
// For scale: ky on its own, the current major and the one before (npm:ky@1 as ky-v1, a
// devDependency), as an app that imports only ky would ship it.
const kyAlone = {};
for (const [label, name] of [
  ['ky 2 alone (ours)', 'ky'],
  ['ky 1 alone (before)', 'ky-v1'],
]) {
  const manifest = join(root, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) continue;
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
  const { gzipped: size } = await bundle({ stdin: `import ky from '${name}'; export default ky;` });
  kyAlone[label] = { version, gzipped: size };
}

print(
  `\nTable 3, bundle: dist/index.js + dependencies, minified for the browser (esbuild), gzip -9: ${output.length} B minified, ${gzipped} B gzip (${kb(gzipped)})`,
);
print(`  budget ${BUDGET_BYTES} B (${kb(BUDGET_BYTES)}): ${over}`);
print(
  `  loaded only on first use (dynamic import: the follower's engine, telemetry's spans; p-retry and the failure path on a first failure): ${lazyGzipped} B gzip (${kb(lazyGzipped)}), not in the budget`,
);
print(
  `  ${'package'.padEnd(28)} ${'minified'.padStart(9)} ${'share'.padStart(7)} ${'gzip'.padStart(13)}`,
);
print(`  ${'-'.repeat(28)} ${'-'.repeat(9)} ${'-'.repeat(7)} ${'-'.repeat(13)}`);
for (const r of rows) {
  print(
    `  ${r.name.padEnd(28)} ${`${r.minified} B`.padStart(9)} ${`${(100 * r.share).toFixed(1)} %`.padStart(7)} ${`${r.gzip} B`.padStart(13)}`,
  );
}
print(
  '  gzip: for our code, its bundle with every dependency left out; for a dependency, what leaving it out saves',
);
for (const [label, { version, gzipped: size }] of Object.entries(kyAlone)) {
  print(`  for scale: ${label}, ${version}: ${size} B gzip (${kb(size)})`);
}
// The buyer entry: its own bundle (built apart from the main entry, see tsup.config.ts), with
// each package's share read from the same bundle built from the source.
const buyer = await bundle({ from: buyerEntry });
const buyerSource = await bundle({ from: join(root, 'src/buyer.ts') });
const buyerShares = new Map();
for (const path of buyerSource.eager) {
  for (const [input, { bytesInOutput }] of Object.entries(
    buyerSource.metafile.outputs[path]?.inputs ?? {},
  )) {
    const name =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'merchant-gateway (own code)';
    buyerShares.set(name, (buyerShares.get(name) ?? 0) + bytesInOutput);
  }
}
const buyerOver = buyer.gzipped > BUYER_BUDGET_BYTES;
const printBuyer = buyerOver ? console.error : console.log;
const target =
  buyer.gzipped <= BUYER_TARGET_BYTES
    ? 'met'
    : `NOT met, ${buyer.gzipped - BUYER_TARGET_BYTES} B over`;
printBuyer(
  `\nBuyer entry (merchant-gateway/buyer): dist/buyer.js + dependencies, the same way: ${buyer.output.length} B minified, ${buyer.gzipped} B gzip (${kb(buyer.gzipped)})`,
);
printBuyer(`  issue 27's target ${BUYER_TARGET_BYTES} B (${kb(BUYER_TARGET_BYTES)}): ${target}`);
printBuyer(
  `  budget ${BUYER_BUDGET_BYTES} B (${kb(BUYER_BUDGET_BYTES)}): ${buyerOver ? `OVER by ${buyer.gzipped - BUYER_BUDGET_BYTES} B` : 'ok'}`,
);
printBuyer(
  `  loaded only on first use (dynamic import: buyer.pay's flow, telemetry's spans; p-retry and the failure path on a first failure): ${buyer.lazyGzipped} B gzip (${kb(buyer.lazyGzipped)}), not in the budget`,
);
for (const [name, bytes] of [...buyerShares].sort((a, b) => b[1] - a[1])) {
  printBuyer(`  ${name.padEnd(28)} ${`${bytes} B`.padStart(9)} minified`);
}

// The webhooks entry, built on its own and eager (tsup.config.ts): what a receiver ships.
const webhooks = await bundle({ from: webhooksEntry });
const webhooksSource = await bundle({ from: join(root, 'src/webhooks/index.ts'), plugins: [] });
const webhooksShares = new Map();
for (const path of webhooksSource.eager) {
  for (const [input, { bytesInOutput }] of Object.entries(
    webhooksSource.metafile.outputs[path]?.inputs ?? {},
  )) {
    const name =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'merchant-gateway (own code)';
    webhooksShares.set(name, (webhooksShares.get(name) ?? 0) + bytesInOutput);
  }
}
const webhooksOver = webhooks.gzipped > WEBHOOKS_BUDGET_BYTES;
const printWebhooks = webhooksOver ? console.error : console.log;
printWebhooks(
  `\nWebhooks entry (merchant-gateway/webhooks): dist/webhooks.js + dependencies, the same way: ${webhooks.output.length} B minified, ${webhooks.gzipped} B gzip (${kb(webhooks.gzipped)})`,
);
printWebhooks(
  `  budget ${WEBHOOKS_BUDGET_BYTES} B (${kb(WEBHOOKS_BUDGET_BYTES)}): ${webhooksOver ? `OVER by ${webhooks.gzipped - WEBHOOKS_BUDGET_BYTES} B` : 'ok'}`,
);
for (const [name, bytes] of [...webhooksShares].sort((a, b) => b[1] - a[1])) {
  printWebhooks(`  ${name.padEnd(28)} ${`${bytes} B`.padStart(9)} minified`);
}

if (process.env.SIZE_REPORT) {
  const report = {
    minified: output.length,
    gzipped,
    lazyGzipped,
    budget: BUDGET_BYTES,
    packages: rows,
    kyAlone,
    buyer: {
      minified: buyer.output.length,
      gzipped: buyer.gzipped,
      lazyGzipped: buyer.lazyGzipped,
      budget: BUYER_BUDGET_BYTES,
      target: BUYER_TARGET_BYTES,
    },
    webhooks: {
      minified: webhooks.output.length,
      gzipped: webhooks.gzipped,
      budget: WEBHOOKS_BUDGET_BYTES,
    },
  };
  mkdirSync(dirname(process.env.SIZE_REPORT), { recursive: true });
  writeFileSync(process.env.SIZE_REPORT, `${JSON.stringify(report, null, 2)}\n`);
}
process.exit(gzipped > BUDGET_BYTES || buyerOver || webhooksOver ? 1 : 0);
