// Why: a test's time limit must hold at ten times its idle duration (the house rule), or a loaded
// shared machine times it out, as the crowds test did in a full `npm test` (7.8 s idle, 30 s
// limit). This runs every vitest suite `npm test` runs, one at a time and each as `npm test` runs
// it (the root's under coverage), with test/support/time-limits-reporter.ts, and fails listing
// the tests whose limit is under 10x what they took. Run it on an otherwise idle machine:
// `npm run check:time-limits` (about as long as the suites one after another, 8 to 10 minutes).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reporter = join(root, 'test/support/time-limits-reporter.ts');
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const out = join(tmpdir(), `time-limits-${process.pid}.jsonl`);

/** Each suite as its npm script runs it; `only` (argv) picks some by name. */
const suites = [
  { name: 'test:coverage', cwd: root, args: ['--coverage'] },
  { name: 'test:durable', cwd: root, args: ['--config', 'test/durable/vitest.config.ts'] },
  {
    name: 'test:soak',
    cwd: root,
    args: ['--config', 'test/behaviour/testing/soak.vitest.config.ts'],
  },
  { name: 'test:cli', cwd: join(root, 'packages/cli'), args: [] },
  { name: 'test:mcp', cwd: join(root, 'packages/mcp'), args: [] },
];
const only = process.argv.slice(2);
const chosen = only.length > 0 ? suites.filter((s) => only.includes(s.name)) : suites;

rmSync(out, { force: true });
const failed = [];
for (const suite of chosen) {
  const t = Date.now();
  console.log(`check-time-limits: ${suite.name} ...`);
  const result = spawnSync(
    process.execPath,
    [vitest, 'run', ...suite.args, '--reporter=dot', `--reporter=${reporter}`],
    { cwd: suite.cwd, stdio: 'inherit', env: { ...process.env, TIME_LIMITS_OUT: out } },
  );
  console.log(
    `check-time-limits: ${suite.name} ended (exit ${result.status}) in ${Date.now() - t} ms`,
  );
  if (result.status !== 0) failed.push(suite.name);
}

const tight = existsSync(out)
  ? readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
rmSync(out, { force: true });
if (tight.length > 0) {
  console.log(`check-time-limits: ${tight.length} test(s) with a limit under 10x their idle time:`);
  for (const t of tight) {
    console.log(
      `  ${(t.durationMs / 1000).toFixed(2)} s, limit ${t.limitMs / 1000} s: ${t.file} > ${t.name}`,
    );
  }
}
if (failed.length > 0) {
  console.log(`check-time-limits: FAILED: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('check-time-limits: every test has a limit of at least 10x its duration');
