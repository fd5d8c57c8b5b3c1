// A follow's timers never keep a process alive on their own, yet a follow that is awaited keeps
// it alive until it settles: both checked in real child processes against the mock on loopback.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode } from '../../support/node-bundle';
import {
  clientOf,
  createPayment,
  type ServedMock,
  serveMock,
  sleep,
  statusReads,
  until,
} from './real-http';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CHILD = join(import.meta.dirname, 'child');
/** Each child script bundled for plain node (test/support/node-bundle.ts), by its file name. */
const bundles = new Map<string, string>();
beforeAll(async () => {
  for (const script of ['drop-watch.ts', 'wait-final.ts']) {
    bundles.set(script, await bundleForNode(join(CHILD, script)));
  }
});

interface Run {
  /** Lines the child printed, parsed. */
  lines: Record<string, unknown>[];
  /** When each line arrived (ms since the epoch). */
  lineAt: number[];
  /** Resolves with the exit code and when the child exited; a child still alive after `killAfterMs` is killed. */
  exited: Promise<{ code: number | null; at: number; killed: boolean }>;
}

function run(script: string, served: ServedMock, paymentId: string, killAfterMs: number): Run {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('MERCHANT_GATEWAY_')),
  );
  const child = spawn(process.execPath, [bundles.get(script) ?? join(CHILD, script)], {
    cwd: ROOT,
    env: {
      ...env,
      MERCHANT_GATEWAY_BASE_URL: served.url,
      MERCHANT_GATEWAY_API_KEY: served.mock.credentials.apiKey,
      MERCHANT_ID: served.mock.sample.merchantId,
      PAYMENT_ID: paymentId,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const out: Run = {
    lines: [],
    lineAt: [],
    exited: Promise.resolve({ code: 0, at: 0, killed: false }),
  };
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      out.lines.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
      out.lineAt.push(Date.now());
      buffer = buffer.slice(nl + 1);
    }
  });
  out.exited = new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, killAfterMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, at: Date.now(), killed });
    });
  });
  return out;
}

describe('a follow and the life of its process', () => {
  let served: ServedMock;
  beforeAll(async () => {
    // Reads answered at once, one per pollInMs: between reads only the follow's own wait is pending.
    served = await serveMock({ holdStatusReads: false, pollInMs: 300 });
  });
  afterAll(() => served.close());

  it('a watch iterator dropped at its yield lets Node exit within a second of its last read', async () => {
    const gateway = clientOf(served.mock, served.url);
    const payment = await createPayment(gateway, 'order-exit-1');

    const child = run('drop-watch.ts', served, payment.paymentId, 8000);
    const exit = await child.exited;

    expect(exit.killed).toBe(false);
    expect(exit.code).toBe(0);
    expect(child.lines).toEqual([{ status: 'requires_action', readAt: expect.any(Number) }]);
    const readAt = child.lines[0]?.readAt as number;
    expect(exit.at - readAt).toBeLessThan(1000);
    // It read once and nothing more.
    expect(statusReads(served.mock, payment.paymentId)).toHaveLength(1);
  }, 30_000);

  it('await waitForFinal as the last statement keeps Node alive through waits and an outage until the final status', async () => {
    const gateway = clientOf(served.mock, served.url);
    const payment = await createPayment(gateway, 'order-exit-2');
    const reads = () => statusReads(served.mock, payment.paymentId).length;

    const child = run('wait-final.ts', served, payment.paymentId, 12_000);
    await until(() => reads() >= 3);
    await served.stop();
    await sleep(1500);
    await served.start();
    const before = reads();
    await until(() => reads() > before);
    served.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    const exit = await child.exited;

    expect(exit.killed).toBe(false);
    expect(child.lines).toEqual([{ status: 'succeeded' }]);
    expect(exit.code).toBe(0);
  }, 60_000);
});
