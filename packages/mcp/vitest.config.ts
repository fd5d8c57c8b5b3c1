import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The server's own tests. No alias: `merchant-gateway` and `merchant-gateway/testing` resolve as a
// user's install resolves them, through the workspace link to the SDK's package.json exports and
// its built dist/ (`npm run build` at the root; `npm ci` runs it).
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'threads',
    // Most files wait on child processes, sockets and timers: two workers even on 2 cores.
    maxWorkers: Math.max(2, availableParallelism()),
    // A limit holds at ten times a test's idle time (`npm run check:time-limits`); vitest's 5 s and
    // 10 s defaults were under it for the server's process tests.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
  },
});
