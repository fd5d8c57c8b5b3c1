// A follower's timers must not keep Node running once it is idle or closed, while one with
// payments to follow does keep it running: checked on real processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DIR = mkdtempSync(join(tmpdir(), 'follower-exit-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/**
 * Runs `body` as an ES module with tsx; resolves with its exit code, or 'running' when it is still
 * running `ms` after it started following (tsx's own start is not counted).
 */
function run(name: string, body: string, ms: number): Promise<number | 'running'> {
  const file = join(DIR, `${name}.mts`);
  writeFileSync(
    file,
    [
      `import { MerchantGateway } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};`,
      // Nothing listens on port 9: every read fails with a connection error, retried by the
      // follower alone (maxRetries: 0), so only its own timers can keep the process alive.
      "const gateway = new MerchantGateway({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test', merchantId: 'mer_1', maxRetries: 0 });",
      'const follower = gateway.payments.follower({ onError: () => {} });',
      'void (async () => { for await (const change of follower) console.log(change); })();',
      body,
      "console.log('following');",
    ].join('\n'),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    child.stdout.once('data', () => {
      timer = setTimeout(() => {
        child.kill();
        resolve('running');
      }, ms);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? -1);
    });
  });
}

describe.concurrent('a follower and the life of the process', () => {
  it('an idle follower (nothing followed) lets Node exit', async () => {
    await expect(run('idle', '', 10_000)).resolves.toBe(0);
  }, 60_000);

  it('a follower whose payments all left lets Node exit, its timers pending', async () => {
    const body = "follower.add('pay_1');\nsetTimeout(() => follower.remove('pay_1'), 500).unref();";
    await expect(run('emptied', body, 10_000)).resolves.toBe(0);
  }, 60_000);

  it('a closed follower lets Node exit', async () => {
    const body = "follower.add('pay_1');\nsetTimeout(() => follower.close(), 500);";
    await expect(run('closed', body, 10_000)).resolves.toBe(0);
  }, 60_000);

  it('one with a payment to follow keeps Node running, its reads retried', async () => {
    await expect(run('busy', "follower.add('pay_1');", 4_000)).resolves.toBe('running');
  }, 60_000);
});
