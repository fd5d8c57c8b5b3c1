// The README's two webhook receivers and docs/webhooks.md's Express, Fastify and Hono recipes, run
// as written against real sockets: each server in a child process of its own (it listens until
// stopped, so readme.test.ts only type-checks it), and the Fetch handler served over node:http.
// Deliveries are signed by the standardwebhooks library, as the service signs them; forged ones
// must get a 400. Express with its JSON parser mounted first shows what the refusal says.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Webhooks } from 'merchant-gateway/webhooks';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, test, vi } from 'vitest';
import {
  type LocalPostgres,
  startEmbeddedPostgres,
} from '../../examples/durable-follower/embedded-postgres';
import { bundleForNode } from '../support/node-bundle';
import {
  paymentCreated,
  paymentSettled,
  paymentSucceeded,
  webhookBody,
} from '../support/webhook-fixtures';

const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, '.cache', 'webhook-receivers');
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** The `lang` blocks of a page's section `heading`, in order. */
function sectionBlocks(page: string, heading: string, lang = 'ts|js'): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  const end = text.indexOf('\n## ', start + 1);
  if (start < 0) throw new Error(`${page} has no "${heading}" section`);
  const section = text.slice(start, end);
  return [...section.matchAll(new RegExp(`^\`\`\`(?:${lang})\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (m) => m[1] ?? '',
  );
}

const [nodeHttp = '', fetchHandler = ''] = sectionBlocks('README.md', 'Receiving webhooks');
const [expressRecipe = '', fastifyRecipe = '', honoRecipe = ''] = sectionBlocks(
  'docs/webhooks.md',
  'Receivers by framework',
);
/** docs/webhooks.md's PostgreSQL receiver: the block of "The guard" that makes a pg.Pool. */
const postgresReceiver =
  sectionBlocks('docs/webhooks.md', 'The guard').find((code) => code.includes('new pg.Pool')) ?? '';
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

/** A receiver program run as a child process on a free port, and a way to post to it. */
async function served(code: string, file: string, extraEnv: Record<string, string> = {}) {
  writeFileSync(join(DIR, file), code);
  const port = await freePort();
  // A .mjs runs on node itself (a reader's JavaScript); a .ts bundled with src/ for node.
  const args = [file.endsWith('.ts') ? await bundleForNode(join(DIR, file)) : file];
  const child = spawn(process.execPath, args, {
    cwd: DIR,
    env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: SECRET, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => {
    out.stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    out.stderr += chunk;
  });
  const url = `http://127.0.0.1:${port}/webhooks`;
  // The child's first request may come before it listens: retried until it answers.
  const post = async (body: string, headers: Record<string, string>) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return await fetch(url, { method: 'POST', body, headers });
      } catch (error) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`the receiver did not answer: ${String(error)}\n${out.stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  return { post, out, child, exited };
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
});

/** Signed deliveries answered 204 and logged; forged and unsigned ones 400. */
async function answersAsTheServiceExpects(receiver: Awaited<ReturnType<typeof served>>) {
  const { post, out } = receiver;
  const succeeded = webhookBody(paymentSucceeded);
  expect((await post(succeeded, signed(succeeded))).status).toBe(204);
  const settled = webhookBody(paymentSettled);
  expect((await post(settled, signed(settled))).status).toBe(204);
  expect((await post(payout, signed(payout))).status).toBe(204);
  // Forged: another endpoint's secret, an altered body, no signature headers.
  expect((await post(succeeded, signed(succeeded, otherSecret))).status).toBe(400);
  expect((await post(succeeded.replace('1000', '9000'), signed(succeeded))).status).toBe(400);
  expect((await post(succeeded, { 'content-type': 'application/json' })).status).toBe(400);
  expect(out.stdout.trim().split('\n')).toEqual([
    'payment.succeeded pay_fixture_01HZX4V9K3T succeeded',
    'payment.settled pay_fixture_01HZX4V9K3T succeeded',
  ]);
}

describe('receivers served on real sockets, as written', () => {
  test("the README's node:http server", async () => {
    expect(nodeHttp).toContain("from 'node:http'");
    await answersAsTheServiceExpects(await served(nodeHttp, 'node-http.ts'));
  }, 120_000);

  test("docs/webhooks.md's Express app, the raw route before express.json()", async () => {
    expect(expressRecipe).toContain("express.raw({ type: 'application/json' })");
    const receiver = await served(expressRecipe, 'express.mjs');
    await answersAsTheServiceExpects(receiver);
  }, 120_000);

  test("docs/webhooks.md's Fastify app, a buffer content-type parser in its own plugin", async () => {
    expect(fastifyRecipe).toContain("parseAs: 'buffer'");
    await answersAsTheServiceExpects(await served(fastifyRecipe, 'fastify.ts'));
  }, 120_000);

  test("docs/webhooks.md's Hono app on @hono/node-server, c.req.raw unwrapped", async () => {
    expect(honoRecipe).toContain('webhooks.unwrap(c.req.raw)');
    await answersAsTheServiceExpects(await served(honoRecipe, 'hono.ts'));
  }, 120_000);
});

describe("docs/webhooks.md's PostgreSQL receiver", () => {
  let postgres: LocalPostgres | undefined;
  afterAll(() => postgres?.stop(), 30_000);

  /** Ends every session but the caller's, as a restart of the server does to idle clients. */
  async function dropSessions(url: string): Promise<number> {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = $1',
        ['client backend'],
      );
      return rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  test("lives through its database ending every session, by its pool.on('error'); without it, the process dies", async () => {
    expect(postgresReceiver).toContain("pool.on('error'");
    postgres = await startEmbeddedPostgres();
    const url = postgres.url;
    const receiver = await served(postgresReceiver, 'postgres.ts', { DATABASE_URL: url });
    const first = webhookBody(paymentSucceeded);
    expect((await receiver.post(first, signed(first))).status).toBe(204);
    // The pool's client is idle now: ending its session is what a restart does.
    expect(await dropSessions(url)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.child.exitCode).toBeNull();
    const second = webhookBody(paymentSettled);
    expect((await receiver.post(second, signed(second))).status).toBe(204);
    expect(receiver.out.stdout).toContain('evt_fixture_payment_succeeded handled');
    expect(receiver.out.stdout).toContain('evt_fixture_payment_settled handled');
    expect(receiver.out.stderr).toContain('postgres connection lost');

    // The same receiver without the listener: the same drop ends it.
    const unheard = postgresReceiver.replace(/^pool\.on\('error'.*$/m, '');
    expect(unheard).not.toContain("pool.on('error'");
    const fragile = await served(unheard, 'postgres-unheard.ts', { DATABASE_URL: url });
    const third = webhookBody(paymentCreated);
    expect((await fragile.post(third, signed(third))).status).toBe(204);
    expect(await dropSessions(url)).toBeGreaterThan(0);
    expect(await fragile.exited).not.toBe(0);
  }, 180_000);
});

describe('Express with its JSON parser mounted first', () => {
  test('the refusal says a JSON parser ran first and how to order them', async () => {
    // The integrator's trial: express.json() app-wide, express.raw() on the route after it.
    // By a name TypeScript does not resolve: express ships no types, and @types/express is absent.
    const name = 'express';
    const { default: express } = (await import(name)) as { default: ExpressLike };
    const webhooks = new Webhooks({ secret: SECRET });
    const app = express();
    app.use(express.json());
    app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
      try {
        await webhooks.unwrap(req.body as string, req.headers);
        res.status(204).send('');
      } catch (error) {
        res.status(400).send(error instanceof Error ? error.message : String(error));
      }
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
      const body = webhookBody(paymentSucceeded);
      const answer = await fetch(url, { method: 'POST', body, headers: signed(body) });
      const message = await answer.text();
      expect(answer.status).toBe(400);
      expect(message).toContain('webhook refused (invalid_payload)');
      expect(message).toContain('a JSON parser ran before unwrap');
      expect(message).toContain(
        "mount the webhook route, with express.raw({ type: 'application/json' }), before app.use(express.json())",
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 30_000);
});

/** As much of Express as the test uses (the package ships no types; @types/express is absent). */
type Handler = (
  req: { body: unknown; headers: Record<string, string | string[] | undefined> },
  res: { status(code: number): { send(body: string): void } },
  next: () => void,
) => void | Promise<void>;
interface ExpressLike {
  (): {
    use(handler: Handler): void;
    post(path: string, ...handlers: Handler[]): void;
    listen(port: number, host: string): Server;
  };
  json(): Handler;
  raw(options: { type: string }): Handler;
}

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
