import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  // tsup's declaration build passes `baseUrl`, which TypeScript 6 flags as deprecated.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  format: ['esm', 'cjs'],
  // Node >= 22.12 can require() our ESM-only dependencies, so the CommonJS build loads them
  // instead of carrying a second copy (checked by attw and a real require() in check-pack).
  external: ['ky', 'p-retry', 'zod', 'msw'],
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
});
