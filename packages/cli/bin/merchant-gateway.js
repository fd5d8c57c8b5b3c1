#!/usr/bin/env node
// The `merchant-gateway` command (package `bin`). Installed from npm it runs the build,
// dist/bin.js. In a clone of the repository, where src/ is present and dist/ may be absent or
// stale, it runs the source through tsx, a devDependency of the workspace: nothing is built or
// downloaded for it. Either way the SDK is `merchant-gateway` as installed (the workspace link to
// the root's built dist/ in a clone).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('../src/bin.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  // The package's own tsconfig whatever the working directory: no path alias to the SDK's source.
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  await import(source.href);
} else {
  await import(new URL('../dist/bin.js', import.meta.url).href);
}
