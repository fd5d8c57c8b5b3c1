import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The published command (bin/merchant-gateway.js loads dist/bin.js): Node only, ESM only. The SDK,
// pg-boss and pg stay imports of the user's install (dependencies, installed beside it), so
// `merchant-gateway` is the one copy npm resolved; pg-boss and pg load only for `--database-url`.
export default defineConfig({
  entry: { bin: here('src/bin.ts') },
  outDir: here('dist'),
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  clean: true,
  external: [/^merchant-gateway(\/.*)?$/, 'pg', 'pg-boss'],
});
