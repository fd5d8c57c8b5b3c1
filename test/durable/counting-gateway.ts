// The mock served over real HTTP on 127.0.0.1, counting what it serves by kind: the durable test
// reports how many status and list reads 500 followed payments cost. (The mock's own request log
// keeps only the latest requests, so it cannot count a long run.)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { MockGateway } from 'merchant-gateway/testing';

export interface Counts {
  /** `GET /v1/payments/{id}/status` and `GET /v1/gateway/payment/{id}/status`. */
  statusReads: number;
  /** Held ones among them (`maxPollMs` > 0). */
  heldReads: number;
  /** `GET /v1/payments` (the partner-wide list a follower sweeps) and `GET /v1/merchants/payments`. */
  listReads: number;
  creates: number;
  cancels: number;
  other: number;
}

export interface CountingGateway {
  url: string;
  counts: Counts;
  close(): Promise<void>;
}

/**
 * @param onCreated called with each payment the mock created, before the answer leaves: a test
 * can act on the payment before anything else sees it.
 */
export async function serveCounting(
  mock: MockGateway,
  onCreated: (paymentId: string, referenceId: string) => void = () => {},
): Promise<CountingGateway> {
  const counts: Counts = {
    statusReads: 0,
    heldReads: 0,
    listReads: 0,
    creates: 0,
    cancels: 0,
    other: 0,
  };
  const server = createServer((req, res) => {
    count(counts, req);
    forward(mock, req, res, onCreated).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function count(counts: Counts, req: IncomingMessage): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname;
  if (req.method === 'GET' && /^\/v1\/(payments|gateway\/payment)\/[^/]+\/status$/.test(path)) {
    counts.statusReads++;
    if (Number(url.searchParams.get('maxPollMs') ?? '0') > 0) counts.heldReads++;
  } else if (
    req.method === 'GET' &&
    (path === '/v1/payments' || path === '/v1/merchants/payments')
  ) {
    counts.listReads++;
  } else if (req.method === 'POST' && path === '/v1/payments') {
    counts.creates++;
  } else if (req.method === 'POST' && /^\/v1\/payments\/[^/]+\/cancel$/.test(path)) {
    counts.cancels++;
  } else {
    counts.other++;
  }
}

// Real HTTP in, the mock's own fetch behind: a client that goes away aborts its held read.
async function forward(
  mock: MockGateway,
  req: IncomingMessage,
  res: ServerResponse,
  onCreated: (paymentId: string, referenceId: string) => void,
): Promise<void> {
  const aborted = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  const method = req.method ?? 'GET';
  const response = await mock.fetch(`http://127.0.0.1${req.url ?? '/'}`, {
    method,
    headers,
    signal: aborted.signal,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
  });
  const body = Buffer.from(await response.arrayBuffer());
  if (method === 'POST' && req.url === '/v1/payments' && response.status === 201) {
    const created = JSON.parse(body.toString()) as { paymentId: string };
    const sent = JSON.parse(Buffer.concat(chunks).toString()) as { referenceId: string };
    onCreated(created.paymentId, sent.referenceId);
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}
