import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { handleHttpOnly } from '../service/http/http-only';
import { isNetworkError } from '../service/http/responses';
import { handle } from '../service/http/router';
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

/**
 * After answering, the most of an unread request body drained (read and dropped), so a client
 * that sent a few MiB too much can reuse its connection. Past it the socket is paused, not
 * closed: a client still sending learns its answer before anything resets, and its socket is
 * destroyed after `DRAIN_MS` if it is still open. A client sending gigabytes without a key costs
 * at most this much reading, never memory.
 */
const DRAIN_BYTES = 8 * 1024 * 1024;
const DRAIN_MS = 5000;

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
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method,
    headers,
    signal: aborted.signal,
    // The body streams in only as the router reads it: the router checks the key first.
    ...(hasBody ? { body: bodyStream(req), duplex: 'half' } : {}),
  } as RequestInit);
  // The control API and the checkout page are not service traffic: no record, no queued fault.
  const result =
    (mock && (await handleHttpOnly(mock, store, request))) ?? (await handle(store, request));
  if (isNetworkError(result)) {
    req.socket.destroy();
    return;
  }
  const body = Buffer.from(await result.arrayBuffer());
  if (hasBody && !req.readableEnded) {
    // Node closes a connection whose request body is still arriving as soon as the answer is
    // written, and closing with unread bytes resets it: a client still uploading can meet the
    // reset before it reads its 401 or 413. Keep it open; drainThenClose closes it, later.
    if (!req.complete) res.shouldKeepAlive = true;
    drainThenClose(req);
  }
  res.writeHead(result.status, Object.fromEntries(result.headers));
  res.end(body);
}

/**
 * The request body as a web stream that reads the socket only when pulled, and leaves the rest
 * unread when cancelled (the router stops at its bound). Node's own adapter would destroy the
 * socket on cancel, before the 413 could be written.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let detach = (): void => undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onData = (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          req.pause();
        };
        const onEnd = () => {
          detach();
          controller.close();
        };
        const onError = (error: Error) => {
          detach();
          controller.error(error);
        };
        detach = () => {
          req.off('data', onData);
          req.off('end', onEnd);
          req.off('error', onError);
        };
        req.pause();
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('error', onError);
      },
      pull() {
        req.resume();
      },
      cancel() {
        detach();
        req.pause();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Reads and drops what is left of a body the answer did not need, within bounds, then closes. */
function drainThenClose(req: IncomingMessage): void {
  let drained = 0;
  // As Node's own dump does: the body stream, if it was never pulled, lets go of the data.
  req.removeAllListeners('data');
  const timer = setTimeout(() => req.socket.destroy(), DRAIN_MS);
  timer.unref();
  const stop = () => clearTimeout(timer);
  req.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > DRAIN_BYTES) req.pause();
  });
  req.once('end', stop);
  req.once('close', stop);
  req.resume();
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
