// The listen/close setup the tests share: a node:http server of a test's own on 127.0.0.1, and a
// mock served over real HTTP for a whole file.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MerchantGateway } from 'merchant-gateway';
import type { MockGateway, MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll } from 'vitest';

/** Starts `server` on 127.0.0.1 on a free port; resolves its URL (`http://127.0.0.1:PORT`). */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A real HTTP server on 127.0.0.1 with a handler of the test's own; `close` drops every connection. */
export async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer(handler);
  const url = await listenOnLoopback(server);
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `mock` over real HTTP for the whole file: listening before the first test, closed after the last. */
export function useListeningMock(mock: MockGateway): { readonly url: string } {
  let server: MockServer | undefined;
  beforeAll(async () => {
    server = await mock.listen();
  });
  afterAll(() => server?.close());
  return {
    get url() {
      if (server === undefined) throw new Error('the mock listens from beforeAll on');
      return server.url;
    },
  };
}

/** `mock` over real HTTP for the whole file (as `useListeningMock`), with a partner's client on it. */
export function useListeningPartner(mock: MockGateway): {
  readonly url: string;
  readonly gateway: MerchantGateway;
} {
  const served = useListeningMock(mock);
  let gateway: MerchantGateway | undefined;
  return {
    get url() {
      return served.url;
    },
    get gateway() {
      gateway ??= new MerchantGateway({ baseUrl: served.url, apiKey: mock.credentials.apiKey });
      return gateway;
    },
  };
}
