// Why: the packages/cli and packages/mcp import the SDK as users do, its built dist/, so a clone
// needs the three builds right after `npm ci` (the root's `prepare`). npm also runs `prepare`
// after every `npm install`, and when `npx merchant-gateway-mock` (the root's own bin) first runs
// from a clone; a full build takes 15 to 25 s on a loaded 2-core machine. This builds each package
// whose dist/ is missing or older than what it is built from, and skips the others.
// `node scripts/prepare.mjs --force` builds all three; `npm publish` builds in `prepack` anyway.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');

const packages = [
  {
    name: 'merchant-gateway',
    dir: root,
    script: ['run', 'build'],
    outputs: [
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/webhooks.js',
      'dist/buyer.js',
      'dist/testing/cli.js',
    ],
  },
  {
    name: 'merchant-gateway-cli',
    dir: join(root, 'packages/cli'),
    script: ['run', 'build', '-w', 'merchant-gateway-cli'],
    outputs: ['dist/bin.js'],
  },
  {
    name: 'merchant-gateway-mcp',
    dir: join(root, 'packages/mcp'),
    script: ['run', 'build', '-w', 'merchant-gateway-mcp'],
    outputs: ['dist/cli.js', 'dist/index.d.ts'],
  },
];
const INPUTS = ['src', 'package.json', 'tsup.config.ts', 'tsconfig.json'];

/** The newest modification time under `path` (a file or a folder), 0 when it is absent. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a file deleted or renamed changes its folder
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Why `pkg` needs a build, or undefined when its dist/ is newer than all it is built from. */
function staleness(pkg) {
  if (force) return 'forced';
  let built = Number.POSITIVE_INFINITY;
  for (const output of pkg.outputs) {
    const file = join(pkg.dir, output);
    if (!existsSync(file)) return `${output} is missing`;
    built = Math.min(built, statSync(file).mtimeMs);
  }
  // The root's tsconfig is extended by the packages': a change there rebuilds them too.
  const inputs = [...INPUTS.map((input) => join(pkg.dir, input)), join(root, 'tsconfig.json')];
  const changed = Math.max(...inputs.map(newest));
  return changed > built ? 'its sources changed since its last build' : undefined;
}

// npm_execpath is the npm running this `prepare`: the builds run under the same npm and Node.
const npm = process.env.npm_execpath
  ? { command: process.execPath, args: [process.env.npm_execpath] }
  : { command: 'npm', args: [] };
for (const pkg of packages) {
  const why = staleness(pkg);
  if (why === undefined) {
    console.log(`prepare: ${pkg.name}: dist/ is up to date`);
    continue;
  }
  console.log(`prepare: ${pkg.name}: building (${why})`);
  const result = spawnSync(npm.command, [...npm.args, ...pkg.script], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
