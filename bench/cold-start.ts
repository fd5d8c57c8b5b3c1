// Why: a server, CLI or lambda pays a client's import and first call on every cold start; measured in fresh processes against the same peers, with issue 42's targets (SDK import + first call <= 1.4x raw fetch doing the same GET, import <= 0.5x stripe's) checked on the same run.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { distEsm, fmt, median, type PeerProcess, root, table } from './common';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
export const TARGET_VS_STRIPE = 0.5;
/** Issue 42: import, construct and one GET in a fresh process, at most this times raw fetch's. */
export const TARGET_VS_FETCH = 1.4;
const child = fileURLToPath(new URL('./cold-child.mjs', import.meta.url));

interface Sample {
  importMs: number;
  importCpuMs: number;
  callMs?: number;
  callCpuMs?: number;
  sinceStartMs: number;
  processMs: number;
}

export interface ColdCase {
  name: string;
  runs: number;
  importMs: number;
  importCpuMs: number;
  callMs: number | undefined;
  callCpuMs: number | undefined;
  processMs: number;
}

export interface ColdStartResult {
  node: string;
  runs: number;
  /** ky 2 alone, import + first call, over raw fetch's: the floor an SDK on ky starts from. */
  kyVsFetch: number;
  cases: ColdCase[];
  target: {
    sdkVsStripe: number;
    cpuSdkVsStripe: number;
    met: boolean;
    /** Import + first call, over raw fetch's (the same GET, fresh processes, interleaved). */
    sdkVsFetch: number;
    /** The same by CPU over bare node: what survives a loaded machine. */
    cpuSdkVsFetch: number;
  };
}

function sample(args: string[]): Sample {
  const t = performance.now();
  const run = spawnSync(process.execPath, [child, ...args], { cwd: root, encoding: 'utf8' });
  const processMs = performance.now() - t;
  if (run.status !== 0) throw new Error(`cold start failed: ${args.join(' ')}\n${run.stderr}`);
  return { ...(JSON.parse(run.stdout.trim()) as Omit<Sample, 'processMs'>), processMs };
}

/**
 * BENCH_SDK_EXTRA="label=/abs/dist/index.js,..." adds other builds of the SDK (a lever being
 * tried, built elsewhere) to the same round-robin, so they are compared on the same run.
 */
export function extraBuilds(): [string, string][] {
  const raw = process.env.BENCH_SDK_EXTRA ?? '';
  return raw
    .split(',')
    .filter((s) => s.includes('='))
    .map((s) => {
      const at = s.indexOf('=');
      return [s.slice(0, at), s.slice(at + 1)];
    });
}

export async function runColdStart(server: PeerProcess): Promise<ColdStartResult> {
  const cases: { name: string; args: string[] }[] = [
    { name: 'bare node (nothing imported)', args: ['bare'] },
    { name: 'fetch (global, no import)', args: ['fetch', server.url] },
    { name: 'ky 2', args: ['ky', server.url] },
    { name: 'merchant-gateway (SDK)', args: ['sdk', server.url, distEsm] },
    ...extraBuilds().map(([label, entry]) => ({
      name: `SDK, ${label}`,
      args: ['sdk', server.url, entry],
    })),
    { name: 'openai', args: ['openai', server.url] },
    { name: '@anthropic-ai/sdk', args: ['anthropic', server.url] },
    { name: 'stripe (fetch client)', args: ['stripe', server.url] },
    // Where the SDK's import time goes: its runtime dependencies alone.
    { name: '  SDK dependency: zod/mini', args: ['zod/mini'] },
    { name: '  SDK dependency: p-retry', args: ['p-retry'] },
  ];
  for (let i = 0; i < 2; i++) for (const c of cases) sample(c.args);
  const samples = new Map<string, Sample[]>();
  // Round-robin, so load from other work on the machine hits every case alike.
  for (let i = 0; i < RUNS; i++) {
    for (const c of cases) samples.set(c.name, [...(samples.get(c.name) ?? []), sample(c.args)]);
  }
  const out: ColdCase[] = cases.map(({ name }) => {
    const list = samples.get(name) ?? [];
    const calls = list.filter((s) => s.callMs !== undefined);
    return {
      name,
      runs: list.length,
      importMs: median(list.map((s) => s.importMs)),
      importCpuMs: median(list.map((s) => s.importCpuMs)),
      callMs: calls.length === 0 ? undefined : median(calls.map((s) => s.callMs as number)),
      callCpuMs: calls.length === 0 ? undefined : median(calls.map((s) => s.callCpuMs as number)),
      processMs: median(list.map((s) => s.processMs)),
    };
  });
  const byName = (name: string) => out.find((c) => c.name === name) as ColdCase;
  const stripe = byName('stripe (fetch client)');
  const bare = byName('bare node (nothing imported)');
  const ours = byName('merchant-gateway (SDK)');
  const rawFetch = byName('fetch (global, no import)');
  const sdkVsStripe = ours.importMs / stripe.importMs;
  const overBare = (c: ColdCase) => (c.callCpuMs ?? Number.NaN) - bare.importCpuMs;
  const sdkVsFetch = (ours.callMs ?? Number.NaN) / (rawFetch.callMs ?? Number.NaN);
  const cpuSdkVsFetch = overBare(ours) / overBare(rawFetch);
  // CPU of the import alone: the process's CPU at that point minus bare node's.
  const cpuSdkVsStripe =
    (ours.importCpuMs - bare.importCpuMs) / (stripe.importCpuMs - bare.importCpuMs);
  const dash = (v: number | undefined) => (v === undefined ? '-' : fmt.ms(v));
  table(
    `Table 2, cold start on Node ${process.versions.node}: medians over ${RUNS} fresh processes each (round-robin); "CPU" is the process's own CPU time at that point`,
    [
      'client',
      'import',
      'CPU at import',
      'import + 1st call',
      'CPU at 1st call',
      'process (spawn→exit)',
      'import × stripe',
      'CPU over bare × stripe',
      '1st call × fetch',
      'CPU over bare × fetch',
    ],
    out.map((c) => [
      c.name,
      fmt.ms(c.importMs),
      fmt.ms(c.importCpuMs),
      dash(c.callMs),
      dash(c.callCpuMs),
      fmt.ms(c.processMs),
      c.name.startsWith('bare') ? '-' : fmt.ratio(c.importMs / stripe.importMs),
      c.name.startsWith('bare')
        ? '-'
        : fmt.ratio((c.importCpuMs - bare.importCpuMs) / (stripe.importCpuMs - bare.importCpuMs)),
      c.callMs === undefined ? '-' : fmt.ratio(c.callMs / (rawFetch.callMs ?? Number.NaN)),
      c.callMs === undefined ? '-' : fmt.ratio(overBare(c) / overBare(rawFetch)),
    ]),
  );
  const met = sdkVsStripe <= TARGET_VS_STRIPE;
  // Wall time is what the target names; CPU over bare node is what survives a loaded machine.
  console.log(
    `cold start: SDK import ${fmt.ratio(sdkVsStripe)} stripe's by wall, ${fmt.ratio(cpuSdkVsStripe)} by CPU over bare node; target ≤ ${TARGET_VS_STRIPE}×: ${met ? 'met' : 'NOT met'} by wall, ${cpuSdkVsStripe <= TARGET_VS_STRIPE ? 'met' : 'NOT met'} by CPU`,
  );
  console.log(
    `cold start: SDK import + first call ${fmt.ratio(sdkVsFetch)} raw fetch's by wall, ${fmt.ratio(cpuSdkVsFetch)} by CPU over bare node; target ≤ ${TARGET_VS_FETCH}×: ${sdkVsFetch <= TARGET_VS_FETCH ? 'met' : 'NOT met'} by wall, ${cpuSdkVsFetch <= TARGET_VS_FETCH ? 'met' : 'NOT met'} by CPU`,
  );
  // How much of each target ky alone takes (the stack's transport, loaded with the SDK: its
  // import-time Request check loads Node's fetch, which raw fetch loads only at its first call).
  const ky = byName('ky 2');
  const kyVsFetch = (ky.callMs ?? Number.NaN) / (rawFetch.callMs ?? Number.NaN);
  console.log(
    `cold start: ky 2 alone ${fmt.ratio(kyVsFetch)} raw fetch's (import + first call) and ${fmt.ratio(ky.importMs / stripe.importMs)} stripe's import, by wall; the SDK ${fmt.ratio((ours.callMs ?? Number.NaN) / (ky.callMs ?? Number.NaN))} bare ky's, ${fmt.ratio(ours.importMs / ky.importMs)} its import`,
  );
  return {
    node: process.version,
    runs: RUNS,
    kyVsFetch,
    cases: out,
    target: { sdkVsStripe, cpuSdkVsStripe, met, sdkVsFetch, cpuSdkVsFetch },
  };
}
