// `npm run example:durable`, the one command the example's README promises: embedded PostgreSQL,
// the mock, the web process and two workers, 20 orders, a worker killed, every outcome printed.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

test('npm run example:durable runs the deployment on its own and every order gets its outcome once', async () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(pkg.scripts['example:durable']).toBe('tsx examples/durable-follower/run.ts');
  // Nothing of ours in its environment: it must start its own database and gateway.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !key.startsWith('MERCHANT_GATEWAY_') &&
        !key.startsWith('FOLLOW_') &&
        !['DATABASE_URL', 'MERCHANT_ID', 'WEB_PORT'].includes(key),
    ),
  );
  const started = Date.now();
  // execFile rejects on a non-zero exit, with the output in the error.
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'examples', 'durable-follower', 'run.ts')],
    { cwd: ROOT, env, timeout: 150_000 },
  );
  for (const line of [
    /^PostgreSQL: embedded/m,
    /^Gateway: +the SDK's mock at http:\/\/127\.0\.0\.1:\d+/m,
    /^Workers: +2, each its own process/m,
    /^Orders: +20 placed/m,
    /^Cancelled: +order-\S+-20/m,
    /^Killed: +worker-[12] \(SIGKILL\) while it followed [1-9]\d* open payment/m,
    /^Final: +all 20 orders: .*19 succeeded, 1 cancelled|^Final: +all 20 orders: .*1 cancelled, 19 succeeded/m,
    /^Writes: +each outcome written exactly once/m,
  ]) {
    expect(stdout).toMatch(line);
  }
  console.log(
    `npm run example:durable: ${((Date.now() - started) / 1000).toFixed(1)} s\n${stdout}`,
  );
});
