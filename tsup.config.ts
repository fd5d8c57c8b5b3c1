import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  // tsup's declaration build passes `baseUrl`, which TypeScript 6 flags as deprecated.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['msw', 'msw/node', 'ky', 'zod', 'zod/mini', 'p-retry'],
  outDir: 'dist',
});
