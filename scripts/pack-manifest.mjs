// Why: the published package.json must carry no lifecycle script a consumer's npm would run or
// warn about (issue 41.16): the root's `prepare` (scripts/prepare.mjs, not in the package) builds a
// clone after `npm ci`, and installing the tarball warned about it. `prepack` runs this with
// `strip`: package.json loses those scripts while npm packs; `postpack` runs it with `restore`.
// Only the install-time scripts go, every other script stays: `npm run <name>` started by another
// phase of `npm test` during a pack still finds its script; what this prints goes to stderr, as
// `npm pack --json` (attw, check-pack) reads stdout. Each write is a rename over the file,
// so a reader sees the whole old or the whole new manifest, never half of one. A pack that died
// between the two leaves the original beside it; the next `strip` or `restore` puts it back.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The scripts npm runs when a package is installed (or warns about): none may be published. */
export const INSTALL_SCRIPTS = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
];

const dir = process.cwd();
const manifest = join(dir, 'package.json');
const kept = join(dir, 'node_modules/.cache/pack-manifest/package.json');

/** `text` written to `path` by a rename: whole or not at all, for concurrent readers. */
function replace(path, text) {
  const next = `${path}.${process.pid}.tmp`;
  writeFileSync(next, text);
  renameSync(next, path);
}

function restore() {
  if (existsSync(kept)) renameSync(kept, manifest);
}

const action = process.argv[2];
if (action === 'restore') {
  restore();
} else if (action === 'strip') {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  const found = INSTALL_SCRIPTS.filter((name) => pkg.scripts?.[name] !== undefined);
  if (found.length > 0) {
    mkdirSync(dirname(kept), { recursive: true });
    writeFileSync(kept, text);
    for (const name of found) delete pkg.scripts[name];
    replace(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
    console.error(`pack-manifest: packing without ${found.join(', ')} (restored after)`);
  }
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exitCode = 2;
}
