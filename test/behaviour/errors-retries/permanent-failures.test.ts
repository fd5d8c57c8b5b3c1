// Why: a connection failure a retry cannot change (a certificate the client refuses) must end the
// call at its first attempt, with the reason, rather than be tried again with backoff; one that a
// retry can change (the connection dropped) is retried. Real TLS and TCP on 127.0.0.1.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionError, MerchantGateway } from 'merchant-gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const API_KEY = 'sk_test_permanent_failures_key';
let dir: string;
let https: HttpsServer;
let tcp: TcpServer;
let httpsUrl: string;
let tcpUrl: string;
const connections = { https: 0, tcp: 0 };

function listen(server: HttpsServer | TcpServer): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

beforeAll(async () => {
  // A self-signed certificate, made for this run: the client's fetch refuses it.
  dir = mkdtempSync(join(tmpdir(), 'mg-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      '/CN=127.0.0.1',
      '-days',
      '1',
    ],
    { stdio: 'ignore' },
  );
  https = createHttpsServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (_request, response) => response.end('{}'),
  );
  https.on('connection', () => {
    connections.https += 1;
  });
  httpsUrl = `https://127.0.0.1:${await listen(https)}`;
  // Accepts, then drops the connection without an answer: a failure a retry may well change.
  tcp = createTcpServer((socket) => {
    connections.tcp += 1;
    socket.destroy();
  });
  tcpUrl = `http://127.0.0.1:${await listen(tcp)}`;
});

afterAll(async () => {
  await new Promise((resolve) => https.close(resolve));
  await new Promise((resolve) => tcp.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('connection failures no retry can change', () => {
  it('a certificate the client refuses ends a GET at its first attempt, saying why', async () => {
    const gateway = new MerchantGateway({ baseUrl: httpsUrl, apiKey: API_KEY, maxRetries: 2 });
    const error = await gateway.merchants.get('mer_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).attempts).toBe(1);
    expect((error as Error).message).toMatch(
      /^GET \/v1\/merchants\/mer_1: after 1 attempt in \d+ ms: connection failed: .*certificate/,
    );
    expect((error as Error).message).not.toContain(API_KEY);
    expect(connections.https).toBe(1);
  });

  it('a dropped connection is retried, as the policy allows a GET', async () => {
    const gateway = new MerchantGateway({ baseUrl: tcpUrl, apiKey: API_KEY, maxRetries: 1 });
    const error = await gateway.merchants.get('mer_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).attempts).toBe(2);
    expect(connections.tcp).toBe(2);
  });
});
