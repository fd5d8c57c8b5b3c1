import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The published package: ESM for Node, the SDK and the MCP packages left as imports (they are
// dependencies, installed beside it), so `merchant-gateway` is the user's copy, not a bundled one.
export default defineConfig({
  entry: { index: here('src/index.ts'), cli: here('src/cli.ts') },
  outDir: here('dist'),
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  clean: true,
  dts: { entry: { index: here('src/index.ts') } },
  external: [/^merchant-gateway(\/.*)?$/, /^@modelcontextprotocol\//, /^zod(\/.*)?$/],
});
