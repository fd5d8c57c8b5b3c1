// The `merchant-gateway` command as its users run it: in this process through `runCli` (the
// same function the bin calls, so coverage sees it) or as a real child process; the mock over
// real HTTP; and a webhook receiver that verifies every delivery with the `standardwebhooks`
// library, a verifier nobody here wrote.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway, type MockGateway } from 'merchant-gateway/testing';
import {
  isPaymentWebhookEvent,
  type PaymentWebhookEvent,
  Webhooks,
} from 'merchant-gateway/webhooks';
import { Webhook } from 'standardwebhooks';
import type { CliIo } from '../src/io';
import { runCli } from '../src/main';

/** The package's bin, as `npx merchant-gateway` starts it (in a clone: the source through tsx). */
export const BIN = fileURLToPath(new URL('../bin/merchant-gateway.js', import.meta.url));

export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** A file holding `secret`, for `relay --secret FILE` (the command takes no secret on its line). */
export function secretFile(secret: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mg-secret-')), 'secret');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return file;
}

/**
 * The relay's argv as most tests run it: forwarding to `url`, the secret passed by file, a sweep
 * every 200 ms (`sweepMs`), and `--state FILE` or `--json` when asked.
 */
export function relayArgs(
  url: string,
  secret: string,
  options: { state?: string; sweepMs?: number; json?: boolean } = {},
): string[] {
  const { state, sweepMs = 200, json = false } = options;
  return [
    'relay',
    '--forward-to',
    url,
    '--secret',
    secretFile(secret),
    ...(state === undefined ? [] : ['--state', state]),
    '--sweep-interval',
    String(sweepMs),
    ...(json ? ['--json'] : []),
  ];
}

export interface MockService {
  mock: MockGateway;
  url: string;
  apiKey: string;
  merchantId: string;
  gateway: MerchantGateway;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** The mock over real HTTP on a free loopback port, with a client of the sample merchant. */
export async function startMockService(
  options: Parameters<typeof createMockGateway>[0] = {},
): Promise<MockService> {
  const mock = createMockGateway({ pollInMs: 100, ...options });
  const server = await mock.listen({ port: 0 });
  const { apiKey } = mock.credentials;
  const { merchantId } = mock.sample;
  return {
    mock,
    url: server.url,
    apiKey,
    merchantId,
    gateway: new MerchantGateway({ baseUrl: server.url, apiKey, merchantId }),
    env: {
      MERCHANT_GATEWAY_BASE_URL: server.url,
      MERCHANT_GATEWAY_API_KEY: apiKey,
      MERCHANT_GATEWAY_MERCHANT_ID: merchantId,
    },
    close: () => server.close(),
  };
}

export interface Delivery {
  id: string;
  type: string;
  paymentId: string;
  /** The event's type less `payment.`: the status reached, or `settled`. */
  status: string;
  at: number;
  /** The envelope's `created_at`. */
  timestamp: string;
  /** The whole envelope, as the SDK's `Webhooks.unwrap` returned it. */
  event: PaymentWebhookEvent;
}

export interface Receiver {
  url: string;
  /** Every verified delivery the receiver answered 2xx, in arrival order. */
  deliveries: Delivery[];
  /** Requests whose signature did not verify (must stay 0). */
  rejected: number;
  /** Attempts of each id, answered or not. */
  attempts: Map<string, number>;
  /** What to answer the n-th request (from 0); 204 by default. */
  answer: (n: number, delivery: Delivery) => number;
  /** Milliseconds each answer waits (a slow receiver). */
  delayMs: number;
  /** Stops listening (connections refused) until `open()`. */
  down(): Promise<void>;
  open(): Promise<void>;
  close(): Promise<void>;
  /** Resolves when `predicate` holds for the deliveries (polled). */
  until(predicate: (deliveries: Delivery[]) => boolean, timeoutMs?: number): Promise<void>;
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

/**
 * A receiver on a loopback port that verifies with `standardwebhooks` (a verifier nobody here
 * wrote) and then unwraps with the SDK's `Webhooks.unwrap` (the service's envelope, schema
 * checked), and records what it took; a delivery either refuses counts in `rejected`.
 */
export async function startReceiver(secret: string, port = 0): Promise<Receiver> {
  const verifier = new Webhook(secret);
  const webhooks = new Webhooks({ secret });
  let requests = 0;
  let server: Server | undefined;
  const receiver: Receiver = {
    url: '',
    deliveries: [],
    rejected: 0,
    attempts: new Map(),
    answer: () => 204,
    delayMs: 0,
    async down() {
      const current = server;
      server = undefined;
      if (current) {
        current.closeAllConnections();
        await new Promise((resolve) => current.close(resolve));
      }
    },
    async open() {
      const next = createServer((request, response) => {
        void body(request).then(async (text) => {
          const headers = request.headers as Record<string, string>;
          let event: PaymentWebhookEvent;
          try {
            verifier.verify(text, headers);
            const unwrapped = await webhooks.unwrap(text, headers);
            if (!isPaymentWebhookEvent(unwrapped)) throw new Error(`not a payment event`);
            event = unwrapped;
          } catch {
            receiver.rejected++;
            response.writeHead(400).end();
            return;
          }
          const id = request.headers['webhook-id'] as string;
          receiver.attempts.set(id, (receiver.attempts.get(id) ?? 0) + 1);
          const delivery: Delivery = {
            id,
            type: event.type,
            paymentId: event.data.payment_id,
            status: event.type.slice('payment.'.length),
            at: Date.now(),
            timestamp: event.created_at,
            event,
          };
          const status = receiver.answer(requests++, delivery);
          const reply = () => {
            if (status >= 200 && status < 300) receiver.deliveries.push(delivery);
            response.writeHead(status).end();
          };
          if (receiver.delayMs > 0) setTimeout(reply, receiver.delayMs);
          else reply();
        });
      });
      await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve));
      port = (next.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${port}/webhooks`;
      server = next;
    },
    close: () => receiver.down(),
    until: (predicate, timeoutMs = 30_000) =>
      until(() => predicate(receiver.deliveries), {
        timeoutMs,
        everyMs: 50,
        what: () => `receiver (${receiver.deliveries.length} deliveries so far)`,
      }),
  };
  await receiver.open();
  return receiver;
}

export interface InProcessRun {
  stdout: string;
  stderr: string;
  /** Resolves with the exit code. */
  done: Promise<number>;
  /** Sends the stop (as SIGTERM would). */
  stop(): void;
}

/** Runs the command in this process, as bin.ts would, with the environment given (and nothing else). */
export function runInProcess(
  argv: string[],
  env: Record<string, string>,
  options: { stdin?: string; stdinIsTTY?: boolean; stdoutIsTTY?: boolean; answer?: string } = {},
): InProcessRun {
  let stop!: (signal: string) => void;
  const run: InProcessRun = {
    stdout: '',
    stderr: '',
    done: Promise.resolve(0),
    stop: () => stop('SIGTERM'),
  };
  const io: CliIo = {
    stdout: (text) => {
      run.stdout += text;
    },
    stderr: (text) => {
      run.stderr += text;
    },
    env,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stdinIsTTY: options.stdinIsTTY ?? false,
    readStdin: async () => options.stdin ?? '',
    ask: async (question) => {
      run.stderr += question;
      return options.answer ?? '';
    },
    stop: new Promise((resolve) => {
      stop = resolve;
    }),
  };
  run.done = runCli(argv, io);
  return run;
}

/** Runs the command to its end in this process: `{ code, stdout, stderr }`. */
export async function cli(
  argv: string[],
  env: Record<string, string>,
  options?: Parameters<typeof runInProcess>[2],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = runInProcess(argv, env, options);
  const code = await run.done;
  return { code, stdout: run.stdout, stderr: run.stderr };
}

export interface ChildRun {
  pid: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

/** The command as a real process: the package's bin, as `npx merchant-gateway` runs it in the repo. */
export function spawnCli(
  argv: string[],
  env: Record<string, string>,
  nodeFlags: string[] = [],
): ChildRun {
  const child = spawn(process.execPath, [...nodeFlags, BIN, ...argv], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  return {
    pid: child.pid as number,
    stdout: () => out,
    stderr: () => err,
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    kill: (signal) => child.kill(signal),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `predicate` holds, checking every `everyMs`; past `timeoutMs` it throws naming `what`. */
export async function until(
  predicate: () => boolean,
  { timeoutMs = 10_000, everyMs = 25, what }: UntilOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) {
      throw new Error(`${what?.() ?? 'condition'}: not met within ${timeoutMs} ms`);
    }
    await sleep(everyMs);
  }
}

export interface UntilOptions {
  timeoutMs?: number;
  everyMs?: number;
  /** What was awaited, and what was seen, for the error. */
  what?: () => string;
}

/**
 * `count` open payments of the mock's partner, created 50 at a time through its in-process fetch
 * (what goes over sockets is the relay under test), with references `${prefix}-0`, `${prefix}-1`, ….
 */
export async function openPayments(
  s: MockService,
  count: number,
  prefix = 'order',
): Promise<string[]> {
  const gateway = s.gateway.withOptions({ fetch: s.mock.fetch });
  const ids: string[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) =>
        gateway.payments.create({
          amount: { unit: 'iso4217/USD', value: '100' },
          referenceId: `${prefix}-${i + j}`,
        }),
      ),
    );
    ids.push(...batch.map((p) => p.paymentId));
  }
  return ids;
}

/** Events written to the relay's spill segments under `dir` (and its subdirectories). */
export function spilledLines(dir: string): number {
  let lines = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (!/\.spill-\d+\.jsonl$/.test(name)) continue;
    lines += readFileSync(join(dir, name), 'utf8').split('\n').length - 1;
  }
  return lines;
}
