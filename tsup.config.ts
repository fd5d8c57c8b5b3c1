import { defineConfig } from 'tsup';

// ky and p-retry ship only ESM. In the CommonJS build a require()d ESM namespace lands in
// `default` under esbuild's node-mode interop (so `ky.default.create` is undefined), and Node
// < 20.19 cannot require ESM at all, so index.cjs carries its own copy of them. zod and msw ship
// CommonJS and stay external in both builds.
const ESM_ONLY = ['ky', 'p-retry', 'is-network-error'];

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  // tsup's declaration build passes `baseUrl`, which TypeScript 6 flags as deprecated.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['msw', 'msw/node', 'zod', 'zod/mini'],
  noExternal: ESM_ONLY,
  esbuildOptions(options, { format }) {
    if (format === 'esm') options.external = [...(options.external ?? []), ...ESM_ONLY];
  },
  outDir: 'dist',
});
