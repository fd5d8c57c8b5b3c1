import { connect, createServer, type Socket } from 'node:net';
import type {
  MerchantGateway,
  PaymentCreated,
  PaymentFollower,
  PaymentStatusChange,
} from 'merchant-gateway';

/**
 * A TCP proxy on loopback in front of `port`: counts the connections a client opens, and how
 * many are open at most at once. `cut()` drops every open connection (an outage mid-read).
 */
export async function countingProxy(port: number) {
  const sockets = new Set<Socket>();
  const stats = { opened: 0, open: 0, maxOpen: 0 };
  const server = createServer((client) => {
    stats.opened++;
    stats.open++;
    stats.maxOpen = Math.max(stats.maxOpen, stats.open);
    sockets.add(client);
    const upstream = connect(port, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const done = () => {
      if (!sockets.delete(client)) return;
      stats.open--;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', done).on('error', done);
    upstream.on('close', done).on('error', done);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const proxyPort = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What a client's requests looked like in flight: a `fetch` that counts them by kind. */
export function countingFetch() {
  const stats = { held: 0, maxHeld: 0, inFlight: 0, maxInFlight: 0, lists: [] as URL[] };
  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const held = url.searchParams.has('maxPollMs');
    if (url.pathname.endsWith('/v1/payments') && request.method === 'GET') stats.lists.push(url);
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    if (held) {
      stats.held++;
      stats.maxHeld = Math.max(stats.maxHeld, stats.held);
    }
    try {
      return await fetch(request);
    } finally {
      stats.inFlight--;
      if (held) stats.held--;
    }
  };
  return { fetch: wrapped, stats };
}

/** Collects what a follower yields in the background; `until` waits (bounded) for a condition. */
export function collect(follower: PaymentFollower) {
  const changes: PaymentStatusChange[] = [];
  const state: { ended: boolean; error: unknown } = { ended: false, error: undefined };
  const done = (async () => {
    try {
      for await (const change of follower) changes.push(change);
    } catch (error) {
      state.error = error;
    } finally {
      state.ended = true;
    }
  })();
  return {
    changes,
    state,
    done,
    async until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** `n` payments created one after the other: USD 1.00, 1.01, … for order-0, order-1, … */
export async function createOrders(gateway: MerchantGateway, n: number): Promise<PaymentCreated[]> {
  const created: PaymentCreated[] = [];
  for (let i = 0; i < n; i++) {
    created.push(
      await gateway.payments.create({
        amount: { unit: 'iso4217/USD', value: String(100 + i) },
        referenceId: `order-${i}`,
      }),
    );
  }
  return created;
}
