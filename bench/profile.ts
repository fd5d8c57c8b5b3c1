// Why: attributes the SDK's per-call CPU over bare fetch to the code that spends it (ky, undici's Request, zod, p-retry, GC), from V8 CPU profiles.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadSdk, type StubProcess, table } from './common';

const CALLS = 3000;
// Profiles alternate fetch, sdk, fetch, sdk… and are averaged: single runs drift by ±20 %.
const RUNS = 2;

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples: number[];
  timeDeltas: number[];
}

function category(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)' || name === '(root)') return 'idle/program';
  if (url.includes('/node_modules/ky/')) return 'ky';
  if (url.includes('/node_modules/p-retry/') || url.includes('is-network-error')) return 'p-retry';
  if (url.includes('/node_modules/zod/')) return 'zod';
  if (/\/dist\/(node\/)?index\.js/.test(url)) return 'SDK (dist)';
  if (url.includes('/bench/')) return 'bench loop';
  if (url.includes('undici')) return 'undici (fetch, Request, Headers)';
  if (url.includes('abort_controller') || url.includes('js_transferable') || name === 'AbortSignal')
    return 'AbortController/AbortSignal';
  if (url.includes('webstreams')) return 'web streams (bodies, clone tee)';
  if (name === 'runMicrotasks' || url.includes('process/task_queues') || url.includes('promise'))
    return 'promise jobs/microtasks';
  if (
    url.startsWith('node:net') ||
    url.startsWith('node:internal/stream') ||
    /^(writev|writeLatin1String|writeUtf8String|onStreamRead)$/.test(name)
  )
    return 'socket I/O';
  if (url.startsWith('node:') || url === '') return 'other node internals + V8 builtins';
  return 'other';
}

interface Attribution {
  byCategory: Record<string, number>;
  byFunction: Record<string, number>;
}

/** Self time per call (µs) by category and by function. */
function attribute(profile: CpuProfile, calls: number): Attribution {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byCategory: Record<string, number> = {};
  const byFunction: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id);
    if (frame === undefined) return;
    const us = (profile.timeDeltas[i] ?? 0) / calls;
    const cat = category(frame.url, frame.functionName);
    if (cat === 'idle/program') return;
    byCategory[cat] = (byCategory[cat] ?? 0) + us;
    const file = frame.url.replace(/^.*\/(node_modules|dist|bench)\//, '$1/');
    const fn = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    byFunction[fn] = (byFunction[fn] ?? 0) + us;
  });
  return { byCategory, byFunction };
}

/** Child mode: CALLS creates and CALLS gets, through the SDK or bare fetch. */
async function child(mode: string, url: string): Promise<void> {
  const sdk = await loadSdk();
  const gateway = new sdk.MerchantGateway({ baseUrl: url, apiKey: 'sk_test_stub' });
  const headers = {
    accept: 'application/json',
    'sdk-name': 'merchant-gateway',
    'sdk-version': sdk.VERSION,
    'sdk-platform': `node/${process.versions.node}`,
    'merchant-id': 'm_stub',
    'api-key': 'sk_test_stub',
    'content-type': 'application/json',
  };
  const params = {
    merchantId: 'm_stub',
    amount: { unit: 'iso4217/USD', value: '100' },
    referenceId: 'order-1',
  };
  const body = JSON.stringify({ amount: params.amount, referenceId: params.referenceId });
  const run =
    mode === 'sdk'
      ? async () => {
          const p = await gateway.payments.create(params);
          await gateway.payments.get(p.paymentId);
        }
      : async () => {
          const p = (await (
            await fetch(`${url}/v1/payments`, { method: 'POST', headers, body })
          ).json()) as { paymentId: string };
          await (await fetch(`${url}/v1/gateway/payment/${p.paymentId}`, { headers })).json();
        };
  for (let i = 0; i < CALLS; i++) await run();
}

export interface ProfileResult {
  callsPerOp: number;
  /** µs of CPU self time per create+get pair, by category. */
  fetch: Record<string, number>;
  sdk: Record<string, number>;
  topSdkFunctions: { fn: string; us: number; fetchUs: number }[];
}

export async function runProfile(stub: StubProcess): Promise<ProfileResult> {
  const dir = fileURLToPath(new URL('./results/profiles/', import.meta.url));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const profiles: Record<string, Attribution[]> = { fetch: [], sdk: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ['fetch', 'sdk']) {
      const name = `${mode}-${i}.cpuprofile`;
      const run = spawnSync(
        process.execPath,
        [
          '--cpu-prof',
          `--cpu-prof-dir=${dir}`,
          `--cpu-prof-name=${name}`,
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          '--child',
          mode,
          stub.url,
        ],
        { encoding: 'utf8' },
      );
      if (run.status !== 0) throw new Error(`profile ${mode} failed: ${run.stderr}`);
      const profile = JSON.parse(readFileSync(`${dir}${name}`, 'utf8')) as CpuProfile;
      profiles[mode]?.push(attribute(profile, CALLS * RUNS));
    }
  }
  const merge = (list: Attribution[] = []): Attribution => {
    const out: Attribution = { byCategory: {}, byFunction: {} };
    for (const a of list) {
      for (const [k, v] of Object.entries(a.byCategory))
        out.byCategory[k] = (out.byCategory[k] ?? 0) + v;
      for (const [k, v] of Object.entries(a.byFunction))
        out.byFunction[k] = (out.byFunction[k] ?? 0) + v;
    }
    return out;
  };
  const raw = merge(profiles.fetch);
  const sdk = merge(profiles.sdk);
  const cats = [...new Set([...Object.keys(raw.byCategory), ...Object.keys(sdk.byCategory)])];
  const rows = cats
    .map((c) => [c, raw.byCategory[c] ?? 0, sdk.byCategory[c] ?? 0] as const)
    .sort((a, b) => b[2] - b[1] - (a[2] - a[1]));
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  table(
    `CPU self time per create+get pair (V8 --cpu-prof, ${RUNS} × ${CALLS} pairs each, alternating; profiles in bench/results/profiles/)`,
    ['where', 'fetch', 'sdk', 'sdk − fetch'],
    [
      ...rows.map(([c, f, s]) => [
        c,
        `${f.toFixed(1)} µs`,
        `${s.toFixed(1)} µs`,
        `${(s - f).toFixed(1)} µs`,
      ]),
      [
        'total',
        `${sum(raw.byCategory).toFixed(1)} µs`,
        `${sum(sdk.byCategory).toFixed(1)} µs`,
        `${(sum(sdk.byCategory) - sum(raw.byCategory)).toFixed(1)} µs`,
      ],
    ],
  );
  const top = Object.entries(sdk.byFunction)
    .map(([fn, us]) => ({ fn, us, fetchUs: raw.byFunction[fn] ?? 0 }))
    .sort((a, b) => b.us - b.fetchUs - (a.us - a.fetchUs))
    .slice(0, 15);
  table(
    'functions the SDK run spends the most extra self time in (per create+get pair)',
    ['function', 'sdk', 'fetch', 'extra'],
    top.map((t) => [
      t.fn.length > 90 ? `${t.fn.slice(0, 87)}...` : t.fn,
      `${t.us.toFixed(1)} µs`,
      `${t.fetchUs.toFixed(1)} µs`,
      `${(t.us - t.fetchUs).toFixed(1)} µs`,
    ]),
  );
  return { callsPerOp: CALLS, fetch: raw.byCategory, sdk: sdk.byCategory, topSdkFunctions: top };
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] ?? 'sdk', process.argv[4] ?? '');
}
