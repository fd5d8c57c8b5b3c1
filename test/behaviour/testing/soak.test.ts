// The mock command under a long mixed run, over real HTTP: ordinary calls among uploads of
// 100 MiB without a key, oversized ones with it, and bodies just under the 1 MiB limit that the
// mock reads and records. Every request is answered and the mock's
// memory, read in its own process, stays flat. Bounded: at most 30,000 requests or 20 s (how many
// fit depends on the machine; on a 2-core machine shared by a whole team, a few thousand).
// `npm run soak` runs the same for a few hundred thousand requests and prints the figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MockCommand,
  soak,
  soakNearLimit,
  startMockCommand,
} from '../../../scripts/soak-mock.mjs';

const MiB = 1024 * 1024;

describe('the mock command under a long run of mixed and hostile traffic (child process)', () => {
  let mock: MockCommand;
  beforeAll(async () => {
    // A log of 50 wraps within the warm-up, so what follows must not grow at all.
    mock = await startMockCommand({ requestLogSize: 50 });
  }, 30_000);
  afterAll(async () => {
    expect(await mock.stop()).toBe(0);
  }, 15_000);

  it('answers every request, refuses every hostile body, and keeps its heap flat', async () => {
    const figures = await soak(mock, {
      requests: 30_000,
      maxMs: 20_000,
      concurrency: 16,
      samples: 6,
      warmup: 300,
    });
    expect(figures.unexpected).toEqual([]);
    expect(figures.unanswered).toBe(0);
    expect(figures.answered).toBe(figures.requests);
    // However slow the machine, enough ran to wrap the log many times.
    expect(figures.requests).toBeGreaterThanOrEqual(1000);
    expect(figures.refusedBodies).toBe(
      (figures.byKind['huge-without-key']?.sent ?? 0) +
        (figures.byKind['oversized-with-key']?.sent ?? 0),
    );
    expect(figures.refusedBodies).toBeGreaterThan(0);
    expect(figures.byKind['near-limit-with-key']?.answered).toBeGreaterThan(0);
    // 100 MiB offered per upload without a key: had any been buffered, the heap would show it.
    expect(figures.peakHeapUsed).toBeLessThan(64 * MiB);
    // A request the log kept for good would cost ~1.6 KiB: far less than that per request after
    // warm-up (a full GC before each sample makes the heap figures steady).
    expect(figures.heapGrowth).toBeLessThan(MiB + 256 * figures.requestsAfterWarmup);
    expect(figures.peakRss).toBeLessThan(400 * MiB);
  }, 40_000);
});

describe('the mock command recording bodies just under its 1 MiB limit (child process)', () => {
  let mock: MockCommand;
  beforeAll(async () => {
    // The default log of 1,000 entries: every body sent here stays in it.
    mock = await startMockCommand();
  }, 30_000);
  afterAll(async () => {
    expect(await mock.stop()).toBe(0);
  }, 15_000);

  it('keeps 64 KiB of each, not the whole body: 300 near-limit bodies grow the heap by ~20 MiB, not 300', async () => {
    const figures = await soakNearLimit(mock, { count: 300, concurrency: 4 });
    expect(figures.unexpected).toEqual([]);
    expect(figures.sent).toBe(300);
    expect(figures.bytesSent).toBeGreaterThan(290 * MiB);
    // 300 × 64 KiB is 18.75 MiB; each whole body kept behind its slice would be 300 MiB.
    expect(figures.heapGrowth).toBeLessThan(48 * MiB);
    expect(figures.after.rss).toBeLessThan(400 * MiB);
  }, 60_000);
});
