// A follower's timers must not keep Node running once it is idle or closed, while one with
// payments to follow does keep it running: checked on real processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleForNode } from '../../support/node-bundle';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DIR = mkdtempSync(join(tmpdir(), 'follower-exit-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/**
 * Runs `body` as an ES module on node (bundled with src/); resolves with its exit code, or
 * 'running' when it is still running `ms` after it started following (its start is not counted).
 */
async function run(
  name: string,
  body: string,
  ms: number,
  iterate = true,
): Promise<number | 'running'> {
  const file = join(DIR, `${name}.mts`);
  writeFileSync(
    file,
    [
      `import { MerchantGateway } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};`,
      // Nothing listens on port 9: every read fails with a connection error, retried by the
      // follower alone (maxRetries: 0), so only its own timers can keep the process alive.
      "const gateway = new MerchantGateway({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test', merchantId: 'mer_1', maxRetries: 0 });",
      'const follower = gateway.payments.follower({ onError: () => {} });',
      iterate
        ? 'void (async () => { for await (const change of follower) console.log(change); })();'
        : '',
      body,
      "console.log('following');",
    ].join('\n'),
  );
  const child = spawn(process.execPath, [await bundleForNode(file)], {
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
  }, 120_000);

  it('a follower whose payments all left lets Node exit, its timers pending', async () => {
    const body = "follower.add('pay_1');\nsetTimeout(() => follower.remove('pay_1'), 500).unref();";
    await expect(run('emptied', body, 10_000)).resolves.toBe(0);
  }, 120_000);

  it('a closed follower lets Node exit', async () => {
    const body = "follower.add('pay_1');\nsetTimeout(() => follower.close(), 500);";
    await expect(run('closed', body, 10_000)).resolves.toBe(0);
  }, 120_000);

  it('one dropped with a payment open, nobody iterating it, lets Node exit', async () => {
    await expect(run('dropped', "follower.add('pay_1');", 10_000, false)).resolves.toBe(0);
  }, 120_000);

  it('one dropped with a payment open is closed once collected: its held read is aborted', async () => {
    // A service that never answers: the held read stays open until something aborts it. An
    // interval keeps the process alive, as a server would.
    const file = join(DIR, 'collected.mts');
    writeFileSync(
      file,
      [
        `import { MerchantGateway } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};`,
        'let held = 0;',
        'const fetch = (input, init) => new Promise((_, reject) => {',
        "  if (new URL(new Request(input).url).searchParams.has('maxPollMs')) held++;",
        "  init?.signal?.addEventListener('abort', () => { console.log('aborted'); reject(init.signal.reason); });",
        '});',
        "const gateway = new MerchantGateway({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test', merchantId: 'mer_1', fetch });",
        '(() => {',
        '  const follower = gateway.payments.follower({ maxHeldReads: 1, sweepIntervalMs: 600_000 });',
        "  follower.add({ paymentId: 'pay_1', status: 'requires_action', isFinal: false, gatewayUrl: 'https://x.test', expiresAt: null });",
        '})();',
        'const alive = setInterval(() => {}, 1000);',
        'while (held === 0) await new Promise((resolve) => setTimeout(resolve, 10));',
        'for (let i = 0; i < 50; i++) { globalThis.gc(); await new Promise((resolve) => setTimeout(resolve, 20)); }',
        'clearInterval(alive);',
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--expose-gc', await bundleForNode(file)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number>((resolve) => {
      const timer = setTimeout(() => child.kill(), 20_000);
      child.on('exit', (exit) => {
        clearTimeout(timer);
        resolve(exit ?? -1);
      });
    });
    expect(code).toBe(0);
    expect(out).toContain('aborted');
  }, 120_000);

  it('one with a payment to follow keeps Node running, its reads retried', async () => {
    await expect(run('busy', "follower.add('pay_1');", 4_000)).resolves.toBe('running');
  }, 120_000);
});
