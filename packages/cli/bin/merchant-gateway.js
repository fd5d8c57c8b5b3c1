#!/usr/bin/env node
// The `merchant-gateway` command (package `bin`). Installed from npm it runs the build,
// dist/cli/bin.js. In a clone of the repository, where src/ is present and dist/ may be absent or
// stale (`npx merchant-gateway --help` right after `npm ci`), it runs the source through tsx, a
// devDependency: nothing is built or downloaded for it.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/bin.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli/bin.js', import.meta.url).href);
}
