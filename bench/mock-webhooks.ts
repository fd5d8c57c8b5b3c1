// Why: the mock's webhook sender, measured (issue 35): delivery latency from a payment's state
// change to the receiver's 2xx (p50/p99 over 1,000 events, the receiver in a process of its own),
// and the heap that 5,000 undelivered events hold while their endpoint is down (and that the log
// bound keeps it flat past that). Run: node --expose-gc --import tsx bench/mock-webhooks.ts
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createMockGateway, type MockGateway } from '../src/testing/index';
import { heapAfterGc, median, percentile } from './common';

const RECEIVER = `
const http = require('node:http');
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(200).end()); });
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startReceiver() {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(line.trim())),
  );
  return { url: `http://127.0.0.1:${port}/hooks`, stop: () => child.kill() };
}

/** A port nothing listens on: every attempt is refused at once, then waits its retry. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/hooks`;
}

/** Two events per payment: created, then cancelled (over mock.fetch, as a test would). */
async function events(mock: MockGateway, count: number, gapMs: number) {
  const headers = {
    'api-key': mock.credentials.apiKey,
    'merchant-id': mock.sample.merchantId,
    'content-type': 'application/json',
  };
  for (let i = 0; i < count / 2; i++) {
    const res = await mock.fetch('https://gateway.test/v1/payments', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        amount: { unit: 'iso4217/USD', value: '100' },
        referenceId: `b-${i}`,
      }),
    });
    const { paymentId } = (await res.json()) as { paymentId: string };
    await pause(gapMs);
    await mock.fetch(`https://gateway.test/v1/payments/${paymentId}/cancel`, {
      method: 'POST',
      headers,
    });
    await pause(gapMs);
  }
}

/**
 * Between two changes: `ms`, or one turn of the event loop for 0 (mock.fetch answers in
 * microtasks alone, so without a turn no delivery could start until the whole burst was made,
 * which no served mock does: its changes come from requests, each its own I/O event).
 */
function pause(ms: number) {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

async function latency(label: string, gapMs: number) {
  const receiver = await startReceiver();
  const mock = createMockGateway({ webhooks: [{ url: receiver.url }] });
  try {
    await events(mock, 1000, gapMs);
    if (!(await mock.webhooks.idle(60_000))) throw new Error('deliveries did not finish');
    const ms = mock.webhooks.deliveries().map((d) => {
      const [attempt] = d.attempts;
      if (d.status !== 'delivered' || !attempt) throw new Error(`${d.id} ${d.status}`);
      return Date.parse(attempt.at) + attempt.durationMs - Date.parse(d.createdAt);
    });
    console.log(
      `${label}: ${ms.length} events, state change → 2xx p50 ${median(ms)} ms, p99 ${percentile(ms, 99)} ms, max ${Math.max(...ms)} ms`,
    );
  } finally {
    mock.close();
    receiver.stop();
  }
}

/** The heap the same changes hold with and without a dead endpoint: the sender's share is the difference. */
async function memory(count: number) {
  const url = await deadUrl();
  const heap = async (withEndpoint: boolean) => {
    const mock = createMockGateway();
    const before = await heapAfterGc();
    if (withEndpoint) mock.webhooks.add({ url });
    await events(mock, count, 0);
    // Every first attempt refused: each event now waits on its retry timer (5 s).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const log = mock.webhooks.deliveries();
    const used = (await heapAfterGc()) - before;
    mock.close();
    return { used, log: log.length, pending: log.filter((d) => d.status === 'pending').length };
  };
  const bare = await heap(false);
  const sent = await heap(true);
  const share = sent.used - bare.used;
  console.log(
    `${count} events to a dead endpoint: ${sent.pending} pending, log ${sent.log}; sender's heap ${(share / 2 ** 20).toFixed(1)} MB (${Math.round(share / Math.max(1, sent.log))} B per logged delivery); payments alone ${(bare.used / 2 ** 20).toFixed(1)} MB`,
  );
}

await latency('burst (back to back, one event-loop turn apart)', 0);
await latency('paced (one change every 2 ms)', 2);
await memory(5000);
await memory(20_000);
