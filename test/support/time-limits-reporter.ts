// The house rule: a test's time limit holds at ten times its idle duration, so a loaded shared
// machine (npm test runs a dozen phases side by side on two cores) does not time it out. This
// reporter lists every test whose limit is under that margin in the run it watches, and fails the
// run when any is. `npm run check:time-limits` runs each suite alone with it (an idle run).
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { ReportedHookContext, Reporter, TestModule } from 'vitest/node';

/** The margin the house rule asks for: limit >= MARGIN x duration. */
export const MARGIN = 10;

export interface TightTest {
  file: string;
  name: string;
  durationMs: number;
  limitMs: number;
}

/** The tests of `modules` whose limit is under MARGIN times the duration they took. */
export function tightTests(modules: ReadonlyArray<TestModule>, root: string): TightTest[] {
  const tight: TightTest[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const durationMs = test.diagnostic()?.duration;
      // A skipped test has no duration; its own limit (or the config's) is what vitest enforces.
      const limitMs = test.options.timeout ?? test.project.config.testTimeout;
      if (durationMs === undefined || durationMs * MARGIN <= limitMs) continue;
      tight.push({
        file: relative(root, module.moduleId),
        name: test.fullName,
        durationMs,
        limitMs,
      });
    }
  }
  return tight.sort((a, b) => b.durationMs / b.limitMs - a.durationMs / a.limitMs);
}

/** A beforeAll/afterAll that took over a tenth of the config's hook limit. */
export interface SlowHook {
  file: string;
  name: string;
  durationMs: number;
}

export default class TimeLimitsReporter implements Reporter {
  private root = process.cwd();
  private hookTimeout = 10_000;
  private hookStarts = new Map<string, number>();
  private slowHooks: SlowHook[] = [];

  onInit(vitest: { config: { root: string; hookTimeout: number } }): void {
    this.root = vitest.config.root;
    this.hookTimeout = vitest.config.hookTimeout;
  }

  // A hook's own limit is not reported to reporters: the slow ones are listed for a look by hand
  // (timed here, as their start and end arrive), not failed.
  onHookStart(hook: ReportedHookContext): void {
    if (hook.name === 'beforeAll' || hook.name === 'afterAll') {
      this.hookStarts.set(`${hook.name} ${hook.entity.id}`, performance.now());
    }
  }

  onHookEnd(hook: ReportedHookContext): void {
    if (hook.name !== 'beforeAll' && hook.name !== 'afterAll') return;
    const started = this.hookStarts.get(`${hook.name} ${hook.entity.id}`);
    if (started === undefined) return;
    const durationMs = performance.now() - started;
    if (durationMs * MARGIN <= this.hookTimeout) return;
    const module = hook.entity.type === 'module' ? hook.entity : hook.entity.module;
    const where = hook.entity.type === 'module' ? '' : ` (${hook.entity.fullName})`;
    this.slowHooks.push({
      file: relative(this.root, module.moduleId),
      name: `${hook.name}${where}`,
      durationMs,
    });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const tight = tightTests(modules, this.root);
    const counted = modules.reduce((n, m) => n + [...m.children.allTests()].length, 0);
    const lines = tight.map(
      (t) =>
        `  ${(t.durationMs / 1000).toFixed(2).padStart(7)} s of ${(t.limitMs / 1000).toFixed(0).padStart(3)} s  ${t.file} > ${t.name}`,
    );
    const head =
      tight.length === 0
        ? `time limits: all ${counted} tests have a limit of at least ${MARGIN}x their duration`
        : `time limits: ${tight.length} of ${counted} tests have a limit under ${MARGIN}x their duration (duration of limit):`;
    console.log([head, ...lines].join('\n'));
    if (this.slowHooks.length > 0) {
      console.log(
        [
          `time limits: hooks over a tenth of hookTimeout (${this.hookTimeout / 1000} s); check each one's own limit is 10x:`,
          ...this.slowHooks.map(
            (h) => `  ${(h.durationMs / 1000).toFixed(2).padStart(7)} s  ${h.file} > ${h.name}`,
          ),
        ].join('\n'),
      );
    }
    // The wrapper script gathers every suite's offenders from this file.
    const out = process.env.TIME_LIMITS_OUT;
    if (out) for (const t of tight) appendFileSync(out, `${JSON.stringify(t)}\n`);
    if (tight.length > 0) process.exitCode = 1;
  }
}
