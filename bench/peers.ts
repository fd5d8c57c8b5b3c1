// Why: openai, @anthropic-ai/sdk and stripe are only the per-call and cold-start tables' peers, so the
// first `npm run bench` installs them (pinned) into .cache/bench instead of every `npm ci` (83 MB).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The versions the figures in docs/performance.md were measured with. */
export const PEER_VERSIONS = {
  openai: '7.57.0',
  '@anthropic-ai/sdk': '1.12.0',
  stripe: '23.1.0',
} as const;
export type PeerName = keyof typeof PEER_VERSIONS;

const DIR = fileURLToPath(new URL('../.cache/bench/', import.meta.url));
/** A module inside .cache/bench: a bare name imported from it resolves to .cache/bench/node_modules. */
export const PEER_LOADER = join(DIR, 'load.mjs');

function installed(name: string): string | undefined {
  try {
    const file = join(DIR, 'node_modules', name, 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Installs the peers into .cache/bench unless the pinned versions are there already. */
export function ensurePeers(): void {
  const specs = Object.entries(PEER_VERSIONS)
    .filter(([name, version]) => installed(name) !== version)
    .map(([name, version]) => `${name}@${version}`);
  if (specs.length === 0 && existsSync(PEER_LOADER)) return;
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(PEER_LOADER, 'export const load = (name) => import(name);\n');
  if (specs.length === 0) return;
  console.log(`bench: installing ${specs.join(', ')} into .cache/bench (once)`);
  const run = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', DIR, ...specs],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) throw new Error(`npm install of the bench peers failed (${run.status})`);
}

/** A peer's module, imported from .cache/bench (after `ensurePeers`). */
export async function importPeer(name: PeerName): Promise<{ default: unknown }> {
  const loader = (await import(pathToFileURL(PEER_LOADER).href)) as {
    load: (name: string) => Promise<{ default: unknown }>;
  };
  return loader.load(name);
}
