// The README's two webhook receivers, run as written against real sockets: the node:http server
// in a child process of its own (it listens until stopped, so readme.test.ts only type-checks it),
// and the Fetch handler served over node:http. Deliveries are signed by the standardwebhooks
// library, as the service signs them; forged ones must get a 400.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { paymentSettled, paymentSucceeded, webhookBody } from '../support/webhook-fixtures';

const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, '.cache', 'webhook-receivers');
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** The ts blocks of the README's "Receiving webhooks" section, in order. */
function sectionBlocks(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Receiving webhooks\n');
  const end = readme.indexOf('\n## ', start + 1);
  if (start < 0) throw new Error('README.md has no "Receiving webhooks" section');
  const section = readme.slice(start, end);
  return [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

const [nodeHttp = '', fetchHandler = ''] = sectionBlocks();
mkdirSync(DIR, { recursive: true });

/** The headers of a delivery of `body` as the service sends one, signed by standardwebhooks. */
function signed(body: string, secret = SECRET): Record<string, string> {
  const now = new Date();
  const id = `msg_${Math.random().toString(36).slice(2)}`;
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  };
}

const otherSecret = `whsec_${Buffer.from('another endpoint secret!').toString('base64')}`;
const payout = JSON.stringify({
  id: 'evt_payout',
  type: 'payout.paid',
  api_version: '2026-05-18',
  created_at: '2026-07-01T00:00:00.000Z',
  data: { payout_id: 'po_1' },
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the README's node:http receiver", () => {
  let child: ChildProcess | undefined;
  let stdout = '';
  afterAll(() => {
    child?.kill();
  });

  test('answers 204 to signed deliveries, logs payment events, and 400 to forged ones', async () => {
    expect(nodeHttp).toContain("from 'node:http'");
    const file = join(DIR, 'node-http.ts');
    writeFileSync(file, nodeHttp);
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const url = `http://127.0.0.1:${port}/webhooks`;
    // The child's first request may come before it listens: retried until it answers.
    const post = async (body: string, headers: Record<string, string>) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        try {
          return await fetch(url, { method: 'POST', body, headers });
        } catch (error) {
          if (Date.now() > deadline || child?.exitCode !== null) {
            throw new Error(`the receiver did not answer: ${String(error)}\n${stderr}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };

    const succeeded = webhookBody(paymentSucceeded);
    expect((await post(succeeded, signed(succeeded))).status).toBe(204);
    const settled = webhookBody(paymentSettled);
    expect((await post(settled, signed(settled))).status).toBe(204);
    expect((await post(payout, signed(payout))).status).toBe(204);
    // Forged: another endpoint's secret, an altered body, no signature headers.
    expect((await post(succeeded, signed(succeeded, otherSecret))).status).toBe(400);
    expect((await post(succeeded.replace('1000', '9000'), signed(succeeded))).status).toBe(400);
    expect((await post(succeeded, { 'content-type': 'application/json' })).status).toBe(400);
    expect(stdout.trim().split('\n')).toEqual([
      'payment.succeeded pay_fixture_01HZX4V9K3T succeeded',
      'payment.settled pay_fixture_01HZX4V9K3T succeeded',
    ]);
  }, 60_000);
});

describe("the README's Fetch handler", () => {
  let server: Server | undefined;
  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });

  test('served over a real socket, it answers signed deliveries and refuses forged ones', async () => {
    expect(fetchHandler).toContain('export async function POST(request: Request)');
    const file = join(DIR, 'fetch-handler.ts');
    writeFileSync(file, fetchHandler);
    vi.stubEnv('WEBHOOK_SECRET', SECRET);
    const { POST } = (await import(pathToFileURL(file).href)) as {
      POST: (request: Request) => Promise<Response>;
    };
    // node:http to Fetch, as a framework's adapter does: the body stays a stream until unwrap.
    server = createServer(async (req, res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      const request = new Request(`http://127.0.0.1${req.url}`, {
        method: req.method ?? 'POST',
        headers,
        body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
        duplex: 'half',
      } as RequestInit);
      const response = await POST(request);
      res.writeHead(response.status).end(await response.text());
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    const post = (body: string, headers: Record<string, string>) =>
      fetch(url, { method: 'POST', body, headers });

    const succeeded = webhookBody(paymentSucceeded);
    const ok = await post(succeeded, signed(succeeded));
    expect([ok.status, await ok.text()]).toEqual([200, 'received evt_fixture_payment_succeeded']);
    const forged = await post(succeeded, signed(succeeded, otherSecret));
    expect([forged.status, await forged.text()]).toEqual([400, 'invalid_signature']);
    const unsigned = await post(succeeded, { 'content-type': 'application/json' });
    expect([unsigned.status, await unsigned.text()]).toEqual([400, 'missing_header']);
  });
});
