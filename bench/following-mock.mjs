// Why: the service side of the following bench, in its own process: the built mock over HTTP on
// loopback, its payments created in-process, their statuses moved on a schedule, every change
// time recorded, and the TCP sockets open sampled (what the service sees of each follower).
import { MerchantGateway } from '../dist/index.js';
import { createMockGateway } from '../dist/testing/index.js';

const mock = createMockGateway({ pollInMs: 1000 });
const server = await mock.listen({ host: '127.0.0.1' });
const creator = new MerchantGateway({
  baseUrl: 'http://127.0.0.1:1',
  apiKey: mock.credentials.apiKey,
  merchantId: mock.sample.merchantId,
  fetch: mock.fetch,
});

/** Seeded, so every run moves the payments alike. */
let seed = 42;
const random = () => {
  seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
  return seed / 2 ** 32;
};

let maxSockets = 0;
let sampler;
const sockets = () =>
  // Open TCP handles of this process, less the listening one.
  process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length - 1;

process.on('message', async (message) => {
  if (message.type === 'create') {
    mock.reset();
    const payments = [];
    for (let i = 0; i < message.count; i++) {
      payments.push(
        await creator.payments.create({
          amount: { unit: 'iso4217/USD', value: String(100 + i) },
          referenceId: `order-${i}`,
          // Longer than the default 5 minutes: a slow phase must not see payments expire on their own.
          expiresAt: Math.floor(Date.now() / 1000) + 3600,
        }),
      );
    }
    maxSockets = 0;
    sampler = setInterval(() => {
      maxSockets = Math.max(maxSockets, sockets());
    }, 20);
    process.send({ type: 'created', payments });
  } else if (message.type === 'run') {
    // Each payment: processing within the first 60 % of the window, final up to 40 % later.
    const start = Date.now();
    const plan = [];
    for (const { paymentId } of message.payments) {
      const paid = start + random() * 0.6 * message.durationMs;
      const r = random();
      const final =
        r < 0.7 ? 'succeeded' : r < 0.85 ? 'failed' : r < 0.95 ? 'cancelled' : 'expired';
      plan.push([paid, paymentId, 'processing']);
      plan.push([paid + 500 + random() * 0.4 * message.durationMs, paymentId, final]);
    }
    plan.sort((a, b) => a[0] - b[0]);
    const changes = [];
    let next = 0;
    await new Promise((resolve) => {
      const ticker = setInterval(() => {
        const now = Date.now();
        while (next < plan.length && plan[next][0] <= now) {
          const [, id, status] = plan[next++];
          mock.setPaymentStatus(id, status);
          changes.push([id, status, Date.now()]);
        }
        if (next === plan.length) {
          clearInterval(ticker);
          resolve();
        }
      }, 20);
    });
    process.send({ type: 'changes', changes });
  } else if (message.type === 'sockets') {
    clearInterval(sampler);
    process.send({ type: 'sockets', maxSockets });
  } else if (message.type === 'stop') {
    await server.close();
    process.exit(0);
  }
});

process.send({
  type: 'ready',
  url: server.url,
  apiKey: mock.credentials.apiKey,
  merchantId: mock.sample.merchantId,
});
