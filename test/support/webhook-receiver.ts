// A webhook receiver on 127.0.0.1 (node:http) that verifies every delivery with the
// `standardwebhooks` library (not the SDK's verifier: what the mock signs must verify elsewhere),
// answers as a test tells it to (2xx, an error status, a redirect, a hang, a dropped socket), and
// records what it got.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { PaymentEventFixture } from './payment-events';

/** How the receiver answers one delivery attempt. */
export type Answer = 'ok' | 'hang' | 'close' | 'redirect' | number;

/** The envelope the service (and the mock) sends: the fixtures' envelope, its type and stages unchecked. */
export interface ReceivedEvent extends Omit<PaymentEventFixture, 'type' | 'data'> {
  type: string;
  data: Pick<
    PaymentEventFixture['data'],
    'payment_id' | 'merchant_id' | 'live' | 'payment_state_version' | 'status'
  > & { [stage: string]: unknown };
}

export interface Delivery {
  /** When it arrived (epoch ms). */
  at: number;
  /** The request's path: a followed redirect would show `/elsewhere`. */
  path: string;
  headers: { id: string; timestamp: string; signature: string };
  /** Parsed after the signature verified; undefined when it did not (the receiver answered 400). */
  event: ReceivedEvent | undefined;
  answer: Answer;
}

export interface Receiver {
  url: string;
  /** Every attempt received, in arrival order. */
  deliveries: Delivery[];
  /** Attempts whose signature did not verify. */
  rejected: number;
  /** Resolves once `done()` holds, checked on every arrival; rejects after `timeoutMs`. */
  until(done: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a receiver for `secret`. `answer(n, event)` says how to answer the `n`-th attempt (from
 * 0) of the event with that `webhook-id`; by default 200.
 */
export async function startReceiver(
  secret: string,
  answer: (attempt: number, event: ReceivedEvent) => Answer = () => 'ok',
): Promise<Receiver> {
  const verifier = new Webhook(secret);
  const deliveries: Delivery[] = [];
  const attemptsById = new Map<string, number>();
  const waiters = new Set<() => void>();
  let rejected = 0;
  const hung = new Set<ServerResponse>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        id: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
      };
      let event: ReceivedEvent | undefined;
      try {
        event = verifier.verify(body, {
          'webhook-id': headers.id,
          'webhook-timestamp': headers.timestamp,
          'webhook-signature': headers.signature,
        }) as ReceivedEvent;
      } catch {
        rejected++;
      }
      const attempt = attemptsById.get(headers.id) ?? 0;
      attemptsById.set(headers.id, attempt + 1);
      const how: Answer = event ? answer(attempt, event) : 400;
      deliveries.push({ at: Date.now(), path: req.url ?? '', headers, event, answer: how });
      for (const wake of [...waiters]) wake();
      if (how === 'hang') {
        hung.add(res);
        return;
      }
      if (how === 'close') {
        req.socket.destroy();
        return;
      }
      if (how === 'redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port()}/elsewhere` }).end();
        return;
      }
      res.writeHead(how === 'ok' ? 200 : how, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = () => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  };
  return {
    url: `http://127.0.0.1:${port()}/hooks`,
    deliveries,
    get rejected() {
      return rejected;
    },
    until(done, timeoutMs = 15_000) {
      if (done()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: not done within ${timeoutMs} ms (${deliveries.length} got)`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    async close() {
      for (const res of hung) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
