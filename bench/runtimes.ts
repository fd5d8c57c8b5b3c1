// Why: the targets hold on Node 22 and 24; the Node 24 run uses the official binary from npm, installed the way scripts/test-runtimes.mjs installs it (same cache folder, so each reuses the other's).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './common';

const binaryPackage = `node-${process.platform}-${process.arch}`;

/** The node binary of one major version, installed once into .cache/runtimes/node<major>. */
export function nodeBinary(major: number): string {
  const prefix = join(root, `.cache/runtimes/node${major}`);
  const bin = join(prefix, 'node_modules', binaryPackage, 'bin/node');
  const version = () => execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (existsSync(bin) && version().startsWith(`v${major}.`)) return bin;
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
  return bin;
}
