import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^merchant-gateway\/testing$/,
        replacement: fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
      },
      {
        find: /^merchant-gateway$/,
        replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Written by test/readme.test.ts while the suite runs, and run by it.
    exclude: ['**/node_modules/**', 'test/.readme/**'],
    environment: 'node',
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      reporter: ['text-summary', 'text'],
      // The gate: `npm test` (vitest run --coverage) fails below these.
      thresholds: { lines: 95, branches: 90 },
    },
  },
});
