import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createMockGateway, type MockGateway } from 'merchant-gateway/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundleForNode } from '../../../support/node-bundle';

const run = promisify(execFile);

async function createPayment(mock: MockGateway): Promise<string> {
  const res = await mock.fetch('http://mock.test/v1/payments', {
    method: 'POST',
    headers: {
      'Api-Key': mock.credentials.apiKey,
      'Merchant-Id': mock.sample.merchantId,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ referenceId: 'auto-1', amount: { unit: 'iso4217/USD', value: '1250' } }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { paymentId: string }).paymentId;
}

describe('createMockGateway({ autoAdvanceMs })', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('moves an open payment one step along the default path every autoAdvanceMs', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const mock = createMockGateway({ autoAdvanceMs: 500 });
    const id = await createPayment(mock);
    const status = () => mock.getPayment(id)?.status;
    vi.advanceTimersByTime(499);
    expect(status()).toBe('requires_action');
    vi.advanceTimersByTime(1);
    expect(status()).toBe('processing');
    vi.advanceTimersByTime(500);
    expect(status()).toBe('succeeded');
    vi.advanceTimersByTime(5_000);
    expect(status()).toBe('succeeded');
  });

  it('does nothing without the option: payments wait for a control call', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const mock = createMockGateway();
    const id = await createPayment(mock);
    vi.advanceTimersByTime(60_000);
    expect(mock.getPayment(id)?.status).toBe('requires_action');
  });

  it('restarts its period on reset(), so a test after a reset gets a whole period', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const mock = createMockGateway({ autoAdvanceMs: 500 });
    vi.advanceTimersByTime(400);
    mock.reset();
    const id = await createPayment(mock);
    vi.advanceTimersByTime(400);
    expect(mock.getPayment(id)?.status).toBe('requires_action');
    vi.advanceTimersByTime(100);
    expect(mock.getPayment(id)?.status).toBe('processing');
  });

  it('stops when its last server closes, and starts again with listen()', async () => {
    const mock = createMockGateway({ autoAdvanceMs: 30 });
    const server = await mock.listen();
    await server.close();
    const id = await createPayment(mock);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(mock.getPayment(id)?.status).toBe('requires_action');
    const again = await mock.listen();
    try {
      await expect.poll(() => mock.getPayment(id)?.status, { timeout: 2_000 }).toBe('succeeded');
    } finally {
      await again.close();
    }
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses autoAdvanceMs %s', (ms) => {
    expect(() => createMockGateway({ autoAdvanceMs: ms })).toThrow(
      /autoAdvanceMs must be a number of milliseconds > 0/,
    );
  });

  it('never keeps a process alive on its own', async () => {
    const script = [
      "import { createMockGateway } from './src/testing/index.ts';",
      'createMockGateway({ autoAdvanceMs: 10 });',
      "console.log('created');",
    ].join('\n');
    const bundle = await bundleForNode({ code: script, name: 'auto-advance', dir: process.cwd() });
    const started = performance.now();
    const { stdout } = await run(process.execPath, [bundle], { timeout: 20_000 });
    expect(stdout).toContain('created');
    // Node's own start-up is most of this; a live interval would run into the timeout.
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
