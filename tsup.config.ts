import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  // tsup's declaration build passes `baseUrl`, which TypeScript 6 flags as deprecated.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  clean: false, // the two builds share dist/: `npm run build` empties it first
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
};

export default defineConfig([
  { ...shared, format: ['esm'], external: ['ky', 'p-retry', 'zod', 'msw'] },
  {
    ...shared,
    format: ['cjs'],
    // ky and p-retry ship only ESM; Node 20 before 20.19 cannot require() ESM, so the
    // CommonJS build carries them inside.
    noExternal: ['ky', 'p-retry', 'is-network-error'],
    external: ['zod', 'msw'],
  },
]);
