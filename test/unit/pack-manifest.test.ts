// scripts/pack-manifest.mjs, npm's prepack and postpack (issue 41.16): the packed package.json
// loses only the scripts a consumer's npm would run or warn about, every other script stays for
// the phases of `npm test` running beside a pack, and the original comes back byte for byte, also
// after a pack that died between the two. (check-pack and check-packages read the real tarballs.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/pack-manifest.mjs', import.meta.url));
// As written by hand, not as JSON.stringify would: the restore must give these very bytes back.
const ORIGINAL = `{
  "name": "demo", "version": "1.0.0",
  "scripts": {
    "build": "tsup", "test": "vitest run",
    "prepare": "node scripts/prepare.mjs", "postinstall": "node x.js", "preinstall": "node y.js",
    "prepack": "node scripts/pack-manifest.mjs strip",
    "postpack": "node scripts/pack-manifest.mjs restore"
  }
}
`;

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mg-pack-manifest-'));
  mkdirSync(join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), ORIGINAL);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (action: string) => {
  const result = spawnSync(process.execPath, [script, action], { cwd: dir, encoding: 'utf8' });
  expect(result.status).toBe(0);
  // Nothing on stdout: `npm pack --json` (attw, check-pack) parses it.
  expect(result.stdout).toBe('');
  return result;
};
const manifest = () => readFileSync(join(dir, 'package.json'), 'utf8');

describe('pack-manifest', () => {
  test('strip takes out the install-time scripts only; restore gives the file back as it was', () => {
    expect(run('strip').stderr).toContain('packing without preinstall, postinstall, prepare');
    expect(Object.keys(JSON.parse(manifest()).scripts)).toEqual([
      'build',
      'test',
      'prepack',
      'postpack',
    ]);
    run('restore');
    expect(manifest()).toBe(ORIGINAL);
    run('restore'); // a second restore (nothing kept) changes nothing
    expect(manifest()).toBe(ORIGINAL);
  });

  test('a pack that died after strip: the next strip starts from the original', () => {
    run('strip');
    run('strip');
    expect(JSON.parse(manifest()).scripts.prepare).toBeUndefined();
    run('restore');
    expect(manifest()).toBe(ORIGINAL);
  });

  test('a manifest without install-time scripts is left untouched', () => {
    const plain = '{ "name": "demo", "scripts": { "build": "tsup" } }\n';
    writeFileSync(join(dir, 'package.json'), plain);
    run('strip');
    expect(manifest()).toBe(plain);
    run('restore');
    expect(manifest()).toBe(plain);
  });

  test('anything else is a usage error', () => {
    const result = spawnSync(process.execPath, [script, 'publish'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(manifest()).toBe(ORIGINAL);
  });
});
