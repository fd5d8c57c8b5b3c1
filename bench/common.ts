// Why: what every benchmark shares: the built SDK, a stub server in its own process, and statistics.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
// BENCH_DIST points the benchmarks at another build (e.g. a branch's dist/) to compare the two.
const dist = process.env.BENCH_DIST ?? fileURLToPath(new URL('../dist/', import.meta.url));
// What Node's import (and a bundler, and every other runtime) resolves the package to.
export const distEsm = join(dist, 'index.js');
export const distCjs = join(dist, 'index.cjs');

export type Sdk = typeof import('merchant-gateway');

/** The built package (what users run), typed from the sources; or the build in `dir`. */
export async function loadSdk(dir?: string): Promise<Sdk> {
  // A build from before issue 36 had Node's own ESM build in node/: the one its users ran.
  const entry =
    dir === undefined
      ? distEsm
      : ([join(dir, 'node', 'index.js'), join(dir, 'index.js')].find((f) => existsSync(f)) ?? '');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  return (await import(pathToFileURL(entry).href)) as Sdk;
}

/**
 * The exact requests the SDK sends for `payments.create` and then `payments.get`, read through a
 * fetch of its own, so raw fetch and bare ky can send the same headers and body.
 */
export async function sdkRequests(
  sdk: Sdk,
  baseUrl: string,
  apiKey: string,
  createParams: Parameters<InstanceType<Sdk['MerchantGateway']>['payments']['create']>[0],
) {
  let captured: Record<string, string> = {};
  const probe = new sdk.MerchantGateway({
    baseUrl,
    apiKey,
    fetch: (input, init) => {
      // ky may hand fetch a Request; reading only its headers leaves the body unused.
      captured = Object.fromEntries(
        input instanceof Request ? input.headers : new Headers(init?.headers),
      );
      return fetch(input, init);
    },
  });
  const created = await probe.payments.create(createParams);
  const createHeaders = captured;
  await probe.payments.get(created.paymentId);
  return {
    created,
    createUrl: `${baseUrl}/v1/payments`,
    createHeaders,
    createBody: JSON.stringify({
      amount: createParams.amount,
      referenceId: createParams.referenceId,
    }),
    getUrl: `${baseUrl}/v1/gateway/payment/${encodeURIComponent(created.paymentId)}`,
    getHeaders: captured,
  };
}

export interface StubProcess {
  url: string;
  close(): Promise<void>;
}

export interface PeerProcess extends StubProcess {
  /** Bytes of each route's last request body and of its answer, e.g. `'openai POST'`. */
  sizes(): Promise<{ requestBytes: Record<string, number>; responseBytes: Record<string, number> }>;
}

/** The stub gateway in a child process, so its CPU time is not the client's. */
export function startStubProcess(env: Record<string, string> = {}): Promise<StubProcess> {
  return startServerProcess('../scripts/stub-gateway.mjs', env);
}

/** bench/peer-server.mjs in a child process: the SDK's routes and each peer SDK's. */
export function startPeerProcess(): Promise<PeerProcess> {
  return startServerProcess('./peer-server.mjs', {});
}

async function startServerProcess(
  script: string,
  env: Record<string, string>,
): Promise<PeerProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [fileURLToPath(new URL(script, import.meta.url))],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  if (child.stdout === null || child.stdin === null) throw new Error('stub: no pipes');
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`stub exited with ${code}`)));
  });
  const stdin = child.stdin;
  return {
    url,
    sizes: () =>
      new Promise((resolve) => {
        lines.once('line', (line) => resolve(JSON.parse(line)));
        stdin.write('sizes\n');
      }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        stdin.end();
      }),
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * Forces full collections (the benchmarks run under --expose-gc) and returns the heap in use.
 * Turns of the event loop between them let finalizers (undici registers some per response) run,
 * so what they release is counted as released.
 */
export async function heapAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

export const fmt = {
  us: (ms: number) => `${(ms * 1000).toFixed(1)} µs`,
  ms: (ms: number) => `${ms.toFixed(1)} ms`,
  ratio: (r: number) => `${r.toFixed(2)}×`,
  kb: (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`,
};

/** Prints rows as an aligned table. */
export function table(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}
