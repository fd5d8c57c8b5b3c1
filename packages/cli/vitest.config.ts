import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The command's own tests. No alias: `merchant-gateway` and `merchant-gateway/testing` resolve as a
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
    // Every test here runs the command against the mock over sockets: half a second idle, past
    // vitest's 5 s default beside the relay's process tests on a loaded 2-core machine.
    testTimeout: 30_000,
    // vitest's 10 s for a hook is under ten times a hook that starts the relay or PostgreSQL.
    hookTimeout: 60_000,
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
  },
});
