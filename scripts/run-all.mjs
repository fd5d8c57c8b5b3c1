// Why: `npm test` runs every check CI runs; one after another they took over six minutes on a
// 2-core machine, most of it waiting. The checks that do not depend on each other run side by side
// here; each is still its own npm script (`npm run <name>` runs one alone), its output printed as
// one block when it ends, with its time, and this fails if any of them fails.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// `needs`: the phases that must have passed first (the rest read dist/, which `build` empties
// and writes). `after`: the phases that must have ended first, passed or not: the package checks,
// the runtimes and the durable suite each start processes of their own, so they take turns beside
// test:coverage instead of all crowding two cores at once. `alone`: after every other phase.
// `low`: a lower CPU priority (nice 10) for the phases that only compute and time nothing, so
// they use the cores the suite leaves idle (its files wait on sockets, timers and child processes
// much of the time) and give way when a test needs them: the tests' timeouts keep the margins
// they had when everything ran in sequence.
const phases = [
  { name: 'typecheck', low: true },
  { name: 'lint' },
  { name: 'build' },
  // packages/cli and packages/mcp import the SDK as users do, its built dist/ and declarations:
  // their typechecks, builds and tests wait for the root's build.
  { name: 'typecheck:packages', needs: ['build'], after: ['typecheck'], low: true },
  { name: 'build:packages', needs: ['build'], low: true },
  { name: 'test:coverage', needs: ['build'] },
  // Each package's tests are a vitest run of their own, beside test:coverage: the MCP server's
  // (about 40 s, mostly waiting on its child), then the cli's (about 70 s: the relay as a process
  // and PostgreSQL). After coverage instead, the whole run took 380 s; beside it, 229 s idle.
  { name: 'test:mcp', needs: ['build'] },
  { name: 'test:cli', needs: ['build'], after: ['test:mcp'] },
  { name: 'size', needs: ['build'] },
  // attw and check-pack pack the package: its `prepack` takes `prepare` out of package.json for the
  // pack (scripts/pack-manifest.mjs), so nothing is rebuilt under the phases reading dist/.
  { name: 'check:package', needs: ['build'], after: ['size', 'build:packages'], low: true },
  // publint and attw on the two packages, then the three installed from their tarballs.
  {
    name: 'check:packages',
    needs: ['build', 'build:packages'],
    after: ['check:package'],
    low: true,
  },
  { name: 'test:runtimes', needs: ['build'], after: ['check:packages'], low: true },
  { name: 'test:durable', needs: ['build'], after: ['test:runtimes'] },
  // The soak's heap bound counts on the requests it gets through in 20 s: it runs last, alone.
  { name: 'test:soak', alone: true },
];

const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** name → { status: 'running' | 'ok' | 'failed' | 'skipped', ms } */
const state = new Map();
const children = new Set();

// npm_execpath is the npm that runs `npm test`: the phases run under the same npm and Node.
const npm = process.env.npm_execpath
  ? { command: process.execPath, args: [process.env.npm_execpath] }
  : { command: 'npm', args: [] };
const env = { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) };

function run(phase) {
  return new Promise((resolve) => {
    const t = Date.now();
    console.log(
      `[run-all] start ${phase.name} at ${seconds(t - started)}${phase.low ? ' (nice 10)' : ''}`,
    );
    // A process group of its own, so an interrupted run stops every process a phase started.
    const child = spawn(npm.command, [...npm.args, 'run', phase.name], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    // Set before npm starts the script: every process the phase starts inherits it.
    if (phase.low && child.pid !== undefined) setPriority(child.pid, 10);
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    const finish = (ok, note = '') => {
      children.delete(child);
      const ms = Date.now() - t;
      state.set(phase.name, { status: ok ? 'ok' : 'failed', ms });
      const head = `── ${phase.name}: ${ok ? 'ok' : 'FAILED'} in ${seconds(ms)}${note} `;
      const output = Buffer.concat(chunks).toString('utf8').trimEnd();
      console.log(`\n${head.padEnd(100, '─')}\n${output}\n${'─'.repeat(100)}\n`);
      resolve();
    };
    child.on('error', (error) => finish(false, ` (${error.message})`));
    child.on('close', (code, signal) =>
      finish(code === 0, code === 0 ? '' : ` (${signal ?? `exit ${code}`})`),
    );
  });
}

function stopAll(signal) {
  for (const child of children) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.log(`[run-all] ${signal}: stopping ${children.size} phase(s)`);
    stopAll(signal);
    process.exit(1);
  });
}

const done = (name) => ['ok', 'failed', 'skipped'].includes(state.get(name)?.status);

/** Starts every phase whose turn has come; resolves when all have ended. */
await new Promise((resolveAll) => {
  const schedule = () => {
    // Skipping a phase can settle another's turn: go round until nothing changes.
    for (let changed = true; changed; ) {
      changed = false;
      for (const phase of phases) {
        const needs = phase.needs ?? [];
        const after = phase.alone
          ? phases.filter((other) => other !== phase).map((other) => other.name)
          : (phase.after ?? []);
        if (state.has(phase.name) || ![...needs, ...after].every(done)) continue;
        changed = true;
        const missing = needs.filter((name) => state.get(name).status !== 'ok');
        if (missing.length > 0) {
          state.set(phase.name, { status: 'skipped', ms: 0 });
          console.log(`[run-all] skip ${phase.name}: ${missing.join(', ')} did not pass`);
        } else {
          state.set(phase.name, { status: 'running' });
          run(phase).then(schedule);
        }
      }
    }
    if (phases.every((phase) => done(phase.name))) resolveAll();
  };
  schedule();
});

const total = Date.now() - started;
console.log(`[run-all] ${seconds(total)} in all (the phases side by side):`);
for (const phase of phases) {
  const { status, ms } = state.get(phase.name);
  console.log(
    `  ${status.padEnd(8)} ${phase.name.padEnd(14)} ${status === 'skipped' ? '' : seconds(ms)}`,
  );
}
const failed = phases.filter((phase) => state.get(phase.name).status !== 'ok');
if (failed.length > 0) {
  console.log(`[run-all] FAILED: ${failed.map((phase) => phase.name).join(', ')}`);
  process.exit(1);
}
