// Every code block of docs/command-line.md, run: the relay's command line (sh) as a real process
// in a directory holding its secret file, the example envelope (json) against a real delivery,
// and the two receivers (python with Flask, js with node:http) as written, in processes of their
// own, taking the relay's deliveries. The receivers print the payment id they fulfil: the page
// once read `event.data.paymentId` (the envelope has `payment_id`), a KeyError in Python.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BIN,
  type MockService,
  newSecret,
  type Receiver,
  relayArgs,
  runInProcess,
  startMockService,
  startReceiver,
  until,
} from './helpers';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const PAGE = join(PACKAGE, '..', '..', 'docs', 'command-line.md');
/** Git-ignored: where the js receiver is written (inside the repository, so `standardwebhooks` resolves). */
const SCRATCH = join(PACKAGE, '.cache', 'docs-command-line');
/** A stand-in for the Python `standardwebhooks` package, used only where it is not installed. */
const PYTHON_STAND_IN = fileURLToPath(new URL('./fixtures/python', import.meta.url));
/** A stand-in for Flask's few names the receiver uses, likewise only where Flask is missing. */
const FLASK_STAND_IN = fileURLToPath(new URL('./fixtures/python-flask', import.meta.url));

const page = readFileSync(PAGE, 'utf8');
const blocks = [...page.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  lang: m[1] ?? '',
  code: m[2] ?? '',
}));
const block = (lang: string): string => {
  const found = blocks.filter((b) => b.lang === lang);
  expect(found, `one ${lang} block`).toHaveLength(1);
  return (found[0] as { code: string }).code;
};

const canImport = (module: string) =>
  spawnSync('python3', ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let service: MockService | undefined;
let receiver: Receiver | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await receiver?.close();
  await service?.close();
  receiver = undefined;
  service = undefined;
});

/** The mock with one open payment, the only one (its sample payments closed): its id. */
async function onePayment(reference: string): Promise<{ s: MockService; paymentId: string }> {
  const s = await startMockService({ settleAfterMs: 2_147_483_647 });
  service = s;
  for (const sample of s.mock.payments()) {
    if (sample.status === 'requires_action' || sample.status === 'processing') {
      s.mock.setPaymentStatus(sample.id, 'failed');
    }
  }
  const payment = await s.gateway.payments.create({
    amount: { unit: 'iso4217/USD', value: '1250' },
    referenceId: reference,
  });
  return { s, paymentId: payment.paymentId };
}

/** A child whose output is collected; it is killed after the test. */
function start(command: string, args: string[], options: Parameters<typeof spawn>[2]) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const output = { text: '' };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output.text += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output.text += chunk;
  });
  return { child, output };
}

/** Resolves once something answers HTTP on the port. */
async function listening(port: number, output: { text: string }): Promise<void> {
  let up = false;
  await until(
    () => {
      void fetch(`http://127.0.0.1:${port}/`).then(
        () => {
          up = true;
        },
        () => {},
      );
      return up;
    },
    { timeoutMs: 60_000, everyMs: 200, what: () => `a receiver on port ${port}: ${output.text}` },
  );
}

/**
 * Runs a relay to the receiver at `url`, moves the payment to succeeded, and waits until the
 * receiver printed that it fulfilled that payment.
 */
async function relayTo(
  url: string,
  secret: string,
  s: MockService,
  paymentId: string,
  output: { text: string },
) {
  const relay = runInProcess(relayArgs(url, secret), s.env);
  await until(() => relay.stderr.includes('forwarding to'), {
    timeoutMs: 30_000,
    what: () => relay.stderr,
  });
  s.mock.setPaymentStatus(paymentId, 'succeeded');
  await until(() => output.text.includes(`payment ${paymentId} succeeded`), {
    timeoutMs: 30_000,
    what: () =>
      `the receiver printing the payment; receiver: ${output.text}; relay: ${relay.stderr}`,
  });
  relay.stop();
  expect(await relay.done).toBe(0);
  expect(relay.stdout + relay.stderr).not.toMatch(/attempt 2/);
}

describe('docs/command-line.md', () => {
  it('has blocks in the languages this test runs, each run below', () => {
    expect(blocks.map((b) => b.lang).sort()).toEqual(['js', 'json', 'python', 'sh']);
  });

  it('the relay command line runs as shown, and its deliveries have the example envelope’s fields', async () => {
    const { s, paymentId } = await onePayment('docs-sh');
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const cwd = mkdtempSync(join(tmpdir(), 'relay-docs-sh-'));
    writeFileSync(join(cwd, 'secret.txt'), `${secret}\n`, { mode: 0o600 });
    const words = block('sh').replace(/\\\n/g, ' ').trim().split(/\s+/);
    expect(words[0]).toBe('merchant-gateway');
    const argv = words
      .slice(1)
      .map((word) =>
        word === 'https://shop.example/webhooks' ? (receiver as Receiver).url : word,
      );
    const { child, output } = start(process.execPath, [BIN, ...argv], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...s.env },
    });
    await until(() => output.text.includes('forwarding to'), {
      timeoutMs: 30_000,
      what: () => output.text,
    });
    s.mock.setPaymentStatus(paymentId, 'succeeded');
    await until(() => receiver?.deliveries.some((d) => d.paymentId === paymentId) ?? false, {
      timeoutMs: 30_000,
      what: () => output.text,
    });
    child.kill('SIGTERM');
    await until(() => child.exitCode !== null, { timeoutMs: 30_000, what: () => output.text });
    expect(child.exitCode).toBe(0);
    expect(existsSync(join(cwd, 'relay-state.json'))).toBe(true);

    // The example envelope has the fields of a real one, at every level both fill.
    const example = JSON.parse(block('json')) as Record<string, unknown>;
    const real = receiver.deliveries.find((d) => d.paymentId === paymentId)?.event as unknown;
    const shape = (value: unknown, other: unknown, at: string): string[] => {
      if (typeof value !== 'object' || value === null) return [];
      if (typeof other !== 'object' || other === null) return [];
      const a = value as Record<string, unknown>;
      const b = other as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      return keys.flatMap((key) =>
        key in a && key in b ? shape(a[key], b[key], `${at}.${key}`) : [`${at}.${key}`],
      );
    };
    expect(example.type).toBe('payment.succeeded');
    expect(shape(example, real, 'event')).toEqual([]);
  }, 90_000);

  it('the Node receiver, run as written, takes the relay’s deliveries', async () => {
    const { s, paymentId } = await onePayment('docs-js');
    const secret = newSecret();
    mkdirSync(SCRATCH, { recursive: true });
    const file = join(SCRATCH, 'receiver.mjs');
    writeFileSync(file, block('js'));
    const port = await freePort();
    const { output } = start(process.execPath, [file], {
      env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET: secret, PORT: String(port) },
    });
    await listening(port, output);
    await relayTo(`http://127.0.0.1:${port}/webhooks`, secret, s, paymentId, output);
  }, 90_000);

  it('the Python receiver, run as written with flask, takes the relay’s deliveries', async () => {
    expect(canImport('json'), 'python3').toBe(true);
    // Real Flask and standardwebhooks where python3 has them; each stand-in only where it does not.
    const standIns = [
      ...(canImport('standardwebhooks') ? [] : [PYTHON_STAND_IN]),
      ...(canImport('flask') ? [] : [FLASK_STAND_IN]),
    ];
    const { s, paymentId } = await onePayment('docs-py');
    const secret = newSecret();
    const dir = mkdtempSync(join(tmpdir(), 'relay-docs-py-'));
    writeFileSync(join(dir, 'receiver.py'), block('python'));
    const port = await freePort();
    const { output } = start(
      'python3',
      ['-m', 'flask', '--app', 'receiver', 'run', '--host', '127.0.0.1', '--port', String(port)],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          WEBHOOK_SECRET: secret,
          ...(standIns.length === 0 ? {} : { PYTHONPATH: standIns.join(delimiter) }),
        },
      },
    );
    await listening(port, output);
    await relayTo(`http://127.0.0.1:${port}/webhooks`, secret, s, paymentId, output);
    // Flask logs each request: every delivery was answered 204.
    expect(output.text).toMatch(/"POST \/webhooks HTTP\/1\.1" 204/);
    expect(output.text).not.toMatch(/"POST \/webhooks HTTP\/1\.1" [45]\d\d/);
  }, 120_000);
});
