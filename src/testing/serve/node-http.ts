import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { handleHttpOnly } from '../service/http-only';
import { isNetworkError } from '../service/responses';
import { handle } from '../service/router';
import type { Store } from '../state/store';
import type { ListenOptions, MockGateway, MockServer } from '../types';

/**
 * Serves the mock over real HTTP, on 127.0.0.1 unless `host` says otherwise. `node:http` is loaded
 * here, on first use, so the testing entry still loads where Node's modules do not exist (msw in a browser).
 */
export async function listen(
  store: Store,
  options: ListenOptions = {},
  mock?: MockGateway,
): Promise<MockServer> {
  const { createServer } = await import('node:http');
  // Node binds an IPv6 address written without brackets; a URL writes it with them.
  const host = (options.host ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  const server = createServer((req, res) => {
    serve(store, req, res, mock).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { url: `http://${urlHost(host)}:${port}`, close: () => close(server) };
}

/** The host a client dials: a wildcard address names the loopback of its family, IPv6 in brackets. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

async function serve(
  store: Store,
  req: IncomingMessage,
  res: ServerResponse,
  mock: MockGateway | undefined,
): Promise<void> {
  const aborted = new AbortController();
  // The client went away before the answer: a delayed fault stops waiting.
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
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method,
    headers,
    signal: aborted.signal,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
  });
  // The control API and the checkout page are not service traffic: no record, no queued fault.
  const result =
    (mock && (await handleHttpOnly(mock, store, request))) ?? (await handle(store, request));
  if (isNetworkError(result)) {
    req.socket.destroy();
    return;
  }
  const body = Buffer.from(await result.arrayBuffer());
  res.writeHead(result.status, Object.fromEntries(result.headers));
  res.end(body);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
