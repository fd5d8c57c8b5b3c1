// Why: one command (npm run bench) prints issue 12's three tables (per call, cold start, bundle) on Node 22 and 24 and writes them to bench/results/*.json; other suites run when named.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { nodeBinary } from '../scripts/node-binaries.mjs';
import { runColdImport } from './cold-import';
import { runColdStart } from './cold-start';
import { root, type StubProcess, startPeerProcess, startStubProcess } from './common';
import { runConcurrency } from './concurrency';
import { runFollowing } from './following';
import { runMockBuild } from './mock-build';
import { runOverhead } from './overhead';
import { PAGE_SIZE, PAGES, runPagination } from './pagination';
import { ensurePeers } from './peers';
import { runPerCall } from './per-call';
import { runProfile } from './profile';
import { printSummary } from './summary';
import { runTelemetry } from './telemetry';
import { runValidation } from './validation';
import { runWebhooks } from './webhooks';

interface Suite {
  /** Part of a plain `npm run bench`; the others run only when named. */
  byDefault: boolean;
  /** Also re-run on Node 24 (false: the result does not depend on the Node version). */
  perNode: boolean;
  run: () => Promise<unknown>;
}

async function withStub<T>(env: Record<string, string>, run: (stub: StubProcess) => Promise<T>) {
  const stub = await startStubProcess(env);
  try {
    return await run(stub);
  } finally {
    await stub.close();
  }
}

async function withPeers<T>(
  run: (server: Awaited<ReturnType<typeof startPeerProcess>>) => Promise<T>,
) {
  // The peer SDKs come with the first bench run, not with npm ci (bench/peers.ts).
  ensurePeers();
  const server = await startPeerProcess();
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

const suites: Record<string, Suite> = {
  'per-call': { byDefault: true, perNode: true, run: () => withPeers(runPerCall) },
  'cold-start': { byDefault: true, perNode: true, run: () => withPeers(runColdStart) },
  size: {
    byDefault: true,
    perNode: false,
    run: async () => {
      // The same script npm test runs, printing its table; its figures come back as JSON.
      const report = `${root}bench/results/size.json`;
      const run = spawnSync(process.execPath, ['scripts/check-size.mjs'], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, SIZE_REPORT: report },
      });
      return { exitCode: run.status, report };
    },
  },
  overhead: {
    byDefault: false,
    perNode: true,
    run: () => withStub({}, runOverhead),
  },
  profile: {
    byDefault: false,
    perNode: true,
    run: () => withStub({}, runProfile),
  },
  pagination: {
    byDefault: false,
    perNode: true,
    run: () =>
      withStub({ STUB_PAGES: String(PAGES), STUB_PAGE_SIZE: String(PAGE_SIZE) }, runPagination),
  },
  validation: { byDefault: false, perNode: true, run: runValidation },
  // What the telemetry option costs a call, on over off, without the peer SDKs (per-call has it too).
  telemetry: {
    byDefault: false,
    perNode: true,
    run: async () => {
      const server = await startPeerProcess();
      try {
        return await runTelemetry(server);
      } finally {
        await server.close();
      }
    },
  },
  'cold-import': { byDefault: false, perNode: true, run: runColdImport },
  // 1,000 concurrent payments.create: p50/p99 and CPU per call against bare ky and raw fetch, on
  // each Node line (issue 23 names a target for both).
  concurrency: { byDefault: true, perNode: true, run: runConcurrency },
  // Verifying one webhook delivery (and unwrapping it) beside standardwebhooks' verify (issue 34).
  webhooks: { byDefault: true, perNode: true, run: runWebhooks },
  // Building the mock and its sample data, which every test file does (was a timed unit test).
  'mock-build': { byDefault: false, perNode: false, run: async () => runMockBuild() },
  // 10,000 open payments followed by one payments.follower() against 10,000 waitForFinal calls.
  following: { byDefault: true, perNode: false, run: runFollowing },
};

const named = process.argv.slice(2);
for (const name of named) {
  if (!(name in suites))
    throw new Error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`);
}
const chosen = Object.keys(suites).filter((name) =>
  named.length === 0 ? suites[name]?.byDefault : named.includes(name),
);
// Set on the Node 24 re-run: only the suites whose figures depend on the Node version.
const isRerun = process.env.BENCH_RERUN === '1';
const major = process.versions.node.split('.')[0];
const results: Record<string, unknown> = { node: process.version, date: new Date().toISOString() };
for (const name of chosen) {
  const suite = suites[name] as Suite;
  if (isRerun && !suite.perNode) continue;
  results[name] = await suite.run();
}

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const file = `results/node${major}.json`;
writeFileSync(new URL(`./${file}`, import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwrote bench/${file}`);

// The same suites again on Node 24 (BENCH_NODE24=0 skips it), in a child that inherits stdout.
const again = chosen.filter((name) => suites[name]?.perNode);
const node24Runs =
  !isRerun && process.env.BENCH_NODE24 !== '0' && again.length > 0 && major !== '24';
if (node24Runs) {
  const node24 = nodeBinary('24');
  console.log(`\n==== the same on ${node24.replace(root, '')} ====`);
  const run = spawnSync(node24, ['--expose-gc', '--import', 'tsx', 'bench/index.ts', ...again], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BENCH_RERUN: '1' },
  });
  if (run.status !== 0) process.exitCode = run.status ?? 1;
}
// Node 24's file is read only when it was written by this run.
if (!isRerun) printSummary(new URL('./results/', import.meta.url), node24Runs);
