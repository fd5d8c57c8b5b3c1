#!/usr/bin/env node
// Soak run of the `merchant-gateway-mock` command: the command from source in a child process,
// driven over loopback HTTP with ordinary calls mixed with hostile ones (huge bodies without a
// key, oversized bodies with one, bodies just under the 1 MiB limit that the mock reads and
// records), its memory read in the child itself. Bounded in count and time.
//
//   npm run soak -- --requests 300000 --concurrency 16 --max-seconds 300 --near-limit 1000
//
// The suite runs a short one (test/behaviour/testing/soak.test.ts); this prints the figures of a
// long one and exits 1 when a request went unanswered or the mock's heap grew.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../src/testing/serve/cli.ts', import.meta.url));
const PROBE = fileURLToPath(new URL('./soak-probe.mjs', import.meta.url));
const MiB = 1024 * 1024;
/** What a hostile client claims to send: the mock must answer without reading it. */
const HUGE_BODY_BYTES = 100 * MiB;
const OVERSIZED_BODY_BYTES = 2 * MiB;
/**
 * A body the mock reads whole and records (64 KiB of it): a merchant name just under the 1 MiB
 * limit, refused as too long (400) after it was read.
 */
const NEAR_LIMIT_BODY = JSON.stringify({ merchantName: 'n'.repeat(MiB - 4 * 1024) });
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/**
 * Starts the mock command (`--port 0`) in a child process with the memory probe preloaded.
 * @param {{ requestLogSize?: number }} [options]
 */
export async function startMockCommand(options = {}) {
  const args = ['--expose-gc', '--import', 'tsx', '--import', PROBE, CLI, '--port', '0'];
  if (options.requestLogSize !== undefined) {
    args.push('--request-log-size', String(options.requestLogSize));
  }
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock did not start: ${stderr}`)), 30_000);
    child.stdout.on('data', () => {
      if (stdout.includes('Stop with')) {
        clearTimeout(timer);
        resolve(undefined);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`mock exited ${code}: ${stderr}`));
    });
  });
  const read = (pattern) => {
    const value = pattern.exec(stdout)?.[1];
    if (value === undefined) throw new Error(`no ${pattern} in the banner:\n${stdout}`);
    return value;
  };
  return {
    url: read(/listening on (http:\/\/\S+) /),
    apiKey: read(/Api-Key +(\S+)/),
    merchantId: read(/Sample merchant: +(\S+)/),
    pid: child.pid,
    /** The child's memory after a full collection, in bytes. */
    memory() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no memory answer')), 10_000);
        child.once('message', (message) => {
          clearTimeout(timer);
          resolve(message.memory);
        });
        child.send('memory');
      });
    },
    /** SIGTERM, then the exit code (0 after a clean stop). */
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * One request; resolves `{ status }`, or `{ status: 0, error }` when no answer came. A body of
 * `bodyBytes` is streamed 64 KiB at a time and stops as soon as the answer arrives (as a client
 * does on an early 401 or 413); `declare` sends its size as Content-Length, else it is chunked.
 */
function send(url, { method = 'GET', path, headers = {}, body, bodyBytes, declare, agent }) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let answered = false;
    const finish = (result) => {
      if (answered) return;
      answered = true;
      resolve(result);
    };
    const req = request(
      {
        host: hostname,
        port,
        method,
        path,
        agent,
        headers: {
          ...headers,
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...(bodyBytes !== undefined && declare ? { 'content-length': String(bodyBytes) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => {
          finish({ status: res.statusCode ?? 0 });
          // A hostile upload stops here: the rest is never sent.
          if (bodyBytes !== undefined) req.destroy();
        });
      },
    );
    req.on('error', (error) => finish({ status: 0, error: error.message }));
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    if (bodyBytes === undefined) {
      req.end(body);
      return;
    }
    let written = 0;
    const pump = () => {
      while (!answered && written < bodyBytes) {
        written += CHUNK.length;
        if (!req.write(CHUNK)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered && !req.writableEnded) req.end();
    };
    pump();
  });
}

/**
 * The traffic mix, by request number: per 100 requests, 2 huge bodies without a key (declared
 * 100 MiB), 1 declared and 1 chunked oversized body with the key (2 MiB), 2 bodies just under
 * 1 MiB with the key (read and recorded), and 94 ordinary calls
 * (merchant reads and updates, the merchant's payment list, payment details, status and gateway
 * reads, a refund of an unknown payment, a wrong key).
 */
function requestFor(n, mock, paymentId, keepAlive) {
  const auth = { 'api-key': mock.apiKey };
  const merchant = { ...auth, 'merchant-id': mock.merchantId };
  const json = { 'content-type': 'application/json' };
  switch (n % 100) {
    case 0:
    case 50:
      return {
        kind: 'huge-without-key',
        expect: 401,
        method: 'POST',
        path: '/v1/merchants',
        headers: json,
        bodyBytes: HUGE_BODY_BYTES,
        declare: true,
        agent: false,
      };
    case 25:
      return {
        kind: 'oversized-with-key',
        expect: 413,
        method: 'POST',
        path: '/v1/merchants',
        headers: { ...auth, ...json, 'idempotency-key': `soak-${n}` },
        bodyBytes: OVERSIZED_BODY_BYTES,
        declare: true,
        agent: false,
      };
    case 10:
    case 60:
      return nearLimit(mock, keepAlive);
    case 75:
      return {
        kind: 'oversized-with-key',
        expect: 413,
        method: 'PATCH',
        path: `/v1/merchants/${mock.merchantId}`,
        headers: { ...auth, ...json },
        bodyBytes: OVERSIZED_BODY_BYTES,
        declare: false,
        agent: false,
      };
  }
  const ordinary = [
    { expect: 200, path: `/v1/merchants/${mock.merchantId}`, headers: auth },
    { expect: 200, path: '/v1/merchants/payments?limit=5', headers: merchant },
    { expect: 200, path: `/v1/payments/${paymentId}`, headers: merchant },
    { expect: 200, path: `/v1/payments/${paymentId}/status`, headers: merchant },
    { expect: 200, path: `/v1/gateway/payment/${paymentId}`, headers: auth },
    {
      expect: 200,
      method: 'PATCH',
      path: `/v1/merchants/${mock.merchantId}`,
      headers: { ...auth, ...json },
      body: JSON.stringify({ merchantName: `Soak ${n % 7}` }),
    },
    {
      expect: 404,
      method: 'POST',
      path: '/v1/refunds',
      headers: { ...merchant, ...json },
      body: JSON.stringify({ paymentId: 'pay_unknown' }),
    },
    { expect: 401, path: `/v1/merchants/${mock.merchantId}`, headers: { 'api-key': 'sk_wrong' } },
  ];
  return { kind: 'ordinary', agent: keepAlive, ...ordinary[n % ordinary.length] };
}

/** An authenticated PATCH whose body is just under the 1 MiB limit: read, recorded, then 400. */
function nearLimit(mock, agent) {
  return {
    kind: 'near-limit-with-key',
    expect: 400,
    method: 'PATCH',
    path: `/v1/merchants/${mock.merchantId}`,
    headers: { 'api-key': mock.apiKey, 'content-type': 'application/json' },
    body: NEAR_LIMIT_BODY,
    agent,
  };
}

/**
 * Sends `count` bodies just under the 1 MiB limit, each read whole and recorded by the mock, and
 * reads the mock's memory before and after: with a log of 1,000 entries, 64 KiB kept of each
 * (not the whole body behind a V8 sliced string) is at most 64 MiB, whatever the count.
 * @param {Awaited<ReturnType<typeof startMockCommand>>} mock
 * @param {{ count: number, concurrency?: number }} options
 */
export async function soakNearLimit(mock, { count, concurrency = 4 }) {
  const keepAlive = new Agent({ keepAlive: true, maxSockets: concurrency });
  const before = await mock.memory();
  const unexpected = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const spec = nearLimit(mock, keepAlive);
      const result = await send(mock.url, spec);
      if (result.status !== spec.expect && unexpected.length < 10) {
        unexpected.push(`near-limit #${n}: ${result.status || result.error}, expected 400`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const after = await mock.memory();
  keepAlive.destroy();
  return {
    sent: next,
    bytesSent: next * Buffer.byteLength(NEAR_LIMIT_BODY),
    unexpected,
    before,
    after,
    heapGrowth: after.heapUsed - before.heapUsed,
    rssGrowth: after.rss - before.rss,
  };
}

/**
 * Drives `requests` requests (or as many as fit in `maxMs`) at `concurrency`, sampling the
 * child's memory after `warmup` requests, `samples` times along the run, and at its end.
 * @param {Awaited<ReturnType<typeof startMockCommand>>} mock
 * @param {{ requests: number, maxMs: number, concurrency?: number, samples?: number, warmup?: number }} options
 */
export async function soak(
  mock,
  { requests, maxMs, concurrency = 16, samples = 10, warmup = 300 },
) {
  const keepAlive = new Agent({ keepAlive: true, maxSockets: concurrency });
  const list = await fetch(`${mock.url}/v1/merchants/payments?limit=1`, {
    headers: { 'api-key': mock.apiKey, 'merchant-id': mock.merchantId },
  }).then((res) => {
    if (res.status !== 200) throw new Error(`the mock answered ${res.status} to a list`);
    return res.json();
  });
  const paymentId = list.data[0].paymentId;

  const started = performance.now();
  const deadline = started + maxMs;
  const byKind = {};
  const unexpected = [];
  const memory = [];
  let next = 0;
  let answered = 0;
  let unanswered = 0;
  let bytesOffered = 0;
  const sampleEvery = Math.max(1, Math.floor(requests / samples));
  let sampling = Promise.resolve();

  const worker = async () => {
    while (next < requests && performance.now() < deadline) {
      const n = next++;
      const spec = requestFor(n, mock, paymentId, keepAlive);
      const sentAt = performance.now();
      const result = await send(mock.url, spec);
      byKind[spec.kind] ??= { sent: 0, answered: 0, totalMs: 0 };
      const figures = byKind[spec.kind];
      figures.sent++;
      figures.totalMs += performance.now() - sentAt;
      if (spec.bodyBytes !== undefined) bytesOffered += spec.bodyBytes;
      if (result.status === 0) {
        unanswered++;
        if (unexpected.length < 10) unexpected.push(`${spec.kind} #${n}: ${result.error}`);
      } else {
        answered++;
        figures.answered++;
        if (result.status !== spec.expect && unexpected.length < 10) {
          unexpected.push(`${spec.kind} #${n}: ${result.status}, expected ${spec.expect}`);
        }
      }
      if (n + 1 === warmup || (n + 1) % sampleEvery === 0) {
        sampling = sampling.then(async () => {
          memory.push({ at: n + 1, ...(await mock.memory()) });
        });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await sampling;
  memory.push({ at: next, ...(await mock.memory()) });
  keepAlive.destroy();
  const elapsedMs = performance.now() - started;
  const warm = memory.find((m) => m.at >= warmup) ?? memory[0];
  return {
    requests: next,
    answered,
    unanswered,
    unexpected,
    byKind,
    refusedBodies:
      (byKind['huge-without-key']?.answered ?? 0) + (byKind['oversized-with-key']?.answered ?? 0),
    bytesOffered,
    elapsedMs,
    memory,
    peakRss: Math.max(...memory.map((m) => m.rss)),
    peakHeapUsed: Math.max(...memory.map((m) => m.heapUsed)),
    /** Heap growth from the sample after `warmup` requests to the last. */
    heapGrowth: (memory.at(-1)?.heapUsed ?? 0) - (warm?.heapUsed ?? 0),
    /** Requests between those two samples. */
    requestsAfterWarmup: next - (warm?.at ?? 0),
  };
}

function arg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`--${name} must be a positive integer`);
  }
  return value;
}

async function main() {
  const requests = arg('requests', 300_000);
  const concurrency = arg('concurrency', 16);
  const maxMs = arg('max-seconds', 600) * 1000;
  const nearLimitCount = arg('near-limit', 1000);
  const mock = await startMockCommand();
  const before = await mock.memory();
  let figures;
  let near;
  try {
    // First a run of bodies just under 1 MiB alone (issue 28's case: 1,000 of them took the
    // sidecar from 69 to 1,139 MiB), then the mixed run.
    near = await soakNearLimit(mock, { count: nearLimitCount });
    figures = await soak(mock, { requests, maxMs, concurrency, samples: 20 });
  } finally {
    await mock.stop();
  }
  const mb = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
  console.log(
    `near-limit      ${near.sent} bodies of ~1 MiB (${mb(near.bytesSent)}): heap ${mb(near.before.heapUsed)} → ${mb(near.after.heapUsed)}, rss ${mb(near.before.rss)} → ${mb(near.after.rss)}`,
  );
  for (const line of near.unexpected) console.log(`unexpected      ${line}`);
  console.log(`requests        ${figures.requests} in ${(figures.elapsedMs / 1000).toFixed(1)} s`);
  console.log(`answered        ${figures.answered} (unanswered ${figures.unanswered})`);
  for (const [kind, { sent, answered, totalMs }] of Object.entries(figures.byKind)) {
    const mean = (totalMs / sent).toFixed(1);
    console.log(`  ${kind.padEnd(20)} ${sent} sent, ${answered} answered, ${mean} ms each`);
  }
  console.log(
    `refused bodies  ${figures.refusedBodies} (401 without a key, 413 over 1 MiB), ${mb(figures.bytesOffered)} offered`,
  );
  console.log(`mock at start   rss ${mb(before.rss)}, heap ${mb(before.heapUsed)}`);
  console.log(`mock peak       rss ${mb(figures.peakRss)}, heap ${mb(figures.peakHeapUsed)}`);
  console.log(`heap growth     ${mb(figures.heapGrowth)} after warm-up`);
  for (const { at, rss, heapUsed } of figures.memory) {
    console.log(`  after ${String(at).padStart(7)} requests: rss ${mb(rss)}, heap ${mb(heapUsed)}`);
  }
  for (const line of figures.unexpected) console.log(`unexpected      ${line}`);
  if (
    figures.unanswered > 0 ||
    figures.unexpected.length > 0 ||
    near.unexpected.length > 0 ||
    figures.heapGrowth > 16 * MiB ||
    near.after.heapUsed > 128 * MiB
  ) {
    process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
