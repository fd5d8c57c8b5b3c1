import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/cli': 'src/testing/serve/cli.ts',
  },
  // tsup's declaration build passes `baseUrl`, which TypeScript 6 flags as deprecated.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  clean: false, // the two builds share dist/: `npm run build` empties it first
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
};

export default defineConfig([
  // zod/mini's entry loads every locale at import (about half our import time); bundled, only the
  // parts we use remain. Types still come from the zod dependency, and the exported schemas work
  // with a user's own zod (zod 4 keys its registry and instanceof checks on globalThis and traits).
  { ...shared, format: ['esm'], noExternal: ['zod'], external: ['ky', 'p-retry', 'msw'] },
  {
    ...shared,
    format: ['cjs'],
    // Node >= 22.12 can require() ky and p-retry, but esbuild's CJS interop (node mode, as our
    // package is "type": "module") then hands us their namespace as the default export, so
    // `ky.create` is undefined: the CommonJS build carries them (see check-pack's real require()).
    noExternal: ['ky', 'p-retry', 'is-network-error', 'zod'],
    external: ['msw'],
    // The CommonJS build loads msw with its own `require`; it never reaches import.meta.
    esbuildOptions(options) {
      options.define = { ...options.define, 'import.meta.url': 'undefined' };
    },
  },
]);
