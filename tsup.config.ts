import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  // tsup's declaration build passes `baseUrl`, which TypeScript 6 flags as deprecated.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  format: ['esm', 'cjs'],
  // Node >= 22.12 can require() our ESM-only dependencies, so the CommonJS build loads them
  // instead of carrying a second copy (checked by attw and a real require() in check-pack).
  external: ['ky', 'p-retry', 'msw'],
  // zod/mini's entry re-exports all 64 of zod's locale files, which Node loads at every import
  // (about 50 ms of CPU); bundled and tree-shaken, only the parts we use ship. zod 4 keeps its
  // registry and config on globalThis and checks instanceof by traits, so users' zod still
  // accepts our exported schemas. Types still come from the zod dependency.
  noExternal: ['zod'],
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
});
