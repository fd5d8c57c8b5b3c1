// Real sockets for the polling failure tests: the mock served on loopback, a proxy in front of it
// that cuts idle requests as load balancers do, and a restart of the mock on the same port.
import { createServer, request as forward } from 'node:http';
import { type ClientOptions, MerchantGateway, type PaymentCreated } from 'merchant-gateway';
import {
  createMockGateway,
  type MockGateway,
  type MockGatewayOptions,
  type MockServer,
  type RecordedRequest,
} from 'merchant-gateway/testing';
import { listenOnLoopback } from '../../support/servers';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `check()` holds, polling every 10 ms; throws after `withinMs` so a test never hangs. */
export async function until(check: () => boolean, withinMs = 8000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await sleep(10);
  }
}

/** The mock over real HTTP, which a test can stop and start again on the same port. */
export interface ServedMock {
  mock: MockGateway;
  readonly url: string;
  /** Stops the server, dropping open connections: the port refuses connections until `start()`. */
  stop(): Promise<void>;
  /** Serves again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function serveMock(options: MockGatewayOptions = {}): Promise<ServedMock> {
  const mock = createMockGateway({ pollInMs: 100, ...options });
  let server: MockServer | undefined = await mock.listen();
  const url = server.url;
  const port = Number(new URL(url).port);
  return {
    mock,
    url,
    async stop() {
      await server?.close();
      server = undefined;
    },
    async start() {
      server ??= await mock.listen({ port });
    },
    async close() {
      await server?.close();
      server = undefined;
    },
  };
}

/** A loopback proxy that answers 504 to a request its upstream leaves idle for `idleMs`. */
export interface IdleProxy {
  url: string;
  /** How many requests it cut with a 504. */
  readonly cuts: number;
  /** Whether requests that start from now on are cut when idle (true at first). */
  cutting: boolean;
  close(): Promise<void>;
}

export async function idleCuttingProxy(upstream: string, idleMs: number): Promise<IdleProxy> {
  const target = new URL(upstream);
  let cuts = 0;
  let cutting = true;
  const server = createServer((req, res) => {
    const cutsThis = cutting;
    const out = forward({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
    });
    const cut = () => {
      out.destroy();
      if (res.headersSent) return void res.destroy();
      cuts += 1;
      res.writeHead(504, { 'content-type': 'text/html' });
      res.end('<html><body><h1>504 Gateway Time-out</h1></body></html>');
    };
    const arm = () => (cutsThis ? setTimeout(cut, idleMs) : undefined);
    let idle = arm();
    const busy = () => {
      clearTimeout(idle);
      idle = arm();
    };
    out.on('response', (answer) => {
      busy();
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => {
        busy();
        res.write(chunk);
      });
      answer.on('end', () => {
        clearTimeout(idle);
        res.end();
      });
    });
    out.on('error', () => {
      clearTimeout(idle);
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    res.on('close', () => {
      clearTimeout(idle);
      out.destroy();
    });
    req.pipe(out);
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    get cuts() {
      return cuts;
    },
    get cutting() {
      return cutting;
    },
    set cutting(value: boolean) {
      cutting = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An API-key client of the mock's sample merchant at `baseUrl`. */
export function clientOf(
  mock: MockGateway,
  baseUrl: string,
  options: ClientOptions = {},
): MerchantGateway {
  return new MerchantGateway({
    baseUrl,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
    ...options,
  });
}

export function createPayment(
  gateway: MerchantGateway,
  referenceId: string,
): Promise<PaymentCreated> {
  return gateway.payments.create({ amount: { unit: 'iso4217/USD', value: '1250' }, referenceId });
}

/** The status reads of one payment the mock received. */
export function statusReads(mock: MockGateway, paymentId: string): RecordedRequest[] {
  return mock.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${paymentId}/status`));
}

/** The `maxPollMs` of a held read, undefined for an immediate one. */
export function heldFor(read: RecordedRequest): number | undefined {
  const value = read.query.maxPollMs;
  return typeof value === 'string' ? Number(value) : undefined;
}
