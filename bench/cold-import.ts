// Why: a server or CLI pays the SDK's import on every cold start; measured in fresh processes against the same bare node.
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { distCjs, distEsm, fmt, median, root, table } from './common';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 20);
const TARGET_MS = 20;

interface Sample {
  spawnMs: number;
  insideMs: number;
  cpuMs: number;
}

// Every child, the bare one included, reports the wall time of its import and its own CPU time.
const report =
  'const w = performance.now() - t; const c = process.cpuUsage(); console.log(JSON.stringify({ w, cpu: (c.user + c.system) / 1000 }));';

function esm(specifier: string): string[] {
  return [
    '--input-type=module',
    '-e',
    `const t = performance.now(); await import(${JSON.stringify(specifier)}); ${report}`,
  ];
}

function cjs(specifier: string): string[] {
  return ['-e', `const t = performance.now(); require(${JSON.stringify(specifier)}); ${report}`];
}

function sample(args: string[]): Sample {
  const t = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  const spawnMs = performance.now() - t;
  if (run.status !== 0) throw new Error(`cold import failed: ${args.join(' ')}\n${run.stderr}`);
  const { w, cpu } = JSON.parse(run.stdout.trim()) as { w: number; cpu: number };
  return { spawnMs, insideMs: w, cpuMs: cpu };
}

export interface ColdImportCase {
  name: string;
  runs: number;
  processMs: number;
  minusBareMs: number;
  minMinusBareMinMs: number;
  insideMs: number;
  cpuMinusBareMs: number;
}

export interface ColdImportResult {
  bare: { processMs: number; cpuMs: number };
  cases: ColdImportCase[];
  targetMs: number;
  targetMet: boolean;
}

export async function runColdImport(): Promise<ColdImportResult> {
  // For scale: the same code and dependencies as one file, as a single-file build would ship.
  const bundled = fileURLToPath(new URL('./results/dist-bundled.mjs', import.meta.url));
  await esbuild.build({
    entryPoints: [distEsm],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundled,
    logLevel: 'warning',
  });
  const cases: { name: string; args: string[]; runs: number; sdk: boolean }[] = [
    { name: 'import dist/index.js', args: esm(pathToFileURL(distEsm).href), runs: RUNS, sdk: true },
    { name: 'require dist/index.cjs', args: cjs(distCjs), runs: RUNS, sdk: true },
    // Where the ESM import's time goes: each runtime dependency alone.
    { name: '  of which: import zod/mini', args: esm('zod/mini'), runs: RUNS / 2, sdk: false },
    { name: '  of which: import ky', args: esm('ky'), runs: RUNS / 2, sdk: false },
    { name: '  of which: import p-retry', args: esm('p-retry'), runs: RUNS / 2, sdk: false },
    {
      name: 'for scale: node loading fetch (ky does it at import)',
      args: ['-e', `const t = performance.now(); globalThis.Request; ${report}`],
      runs: RUNS / 2,
      sdk: false,
    },
    {
      name: 'for scale: dist + deps bundled into one file',
      args: esm(pathToFileURL(bundled).href),
      runs: RUNS / 2,
      sdk: false,
    },
  ];
  const bareArgs = ['-e', `const t = performance.now(); ${report}`];
  for (let i = 0; i < 3; i++) sample(bareArgs);
  const bare: Sample[] = [];
  const samples = new Map<string, Sample[]>();
  // Round-robin over bare node and every case, so load on the machine hits all alike.
  const most = Math.max(...cases.map((c) => c.runs));
  for (let i = 0; i < most; i++) {
    bare.push(sample(bareArgs));
    for (const c of cases) {
      if (i >= c.runs) continue;
      samples.set(c.name, [...(samples.get(c.name) ?? []), sample(c.args)]);
    }
  }
  const bareMs = median(bare.map((s) => s.spawnMs));
  const bareCpu = median(bare.map((s) => s.cpuMs));
  const bareMin = Math.min(...bare.map((s) => s.spawnMs));
  const out: ColdImportCase[] = cases.map((c) => {
    const list = samples.get(c.name) ?? [];
    const processMs = median(list.map((s) => s.spawnMs));
    return {
      name: c.name,
      runs: list.length,
      processMs,
      minusBareMs: processMs - bareMs,
      // Noise from other work on the machine only adds time: the minimums are its floor.
      minMinusBareMinMs: Math.min(...list.map((s) => s.spawnMs)) - bareMin,
      insideMs: median(list.map((s) => s.insideMs)),
      cpuMinusBareMs: median(list.map((s) => s.cpuMs)) - bareCpu,
    };
  });
  const targetMet = out
    .filter((_, i) => cases[i]?.sdk === true)
    .every((c) => c.minusBareMs <= TARGET_MS);
  table(
    `(d) cold import: medians over fresh node processes; bare \`node -e ""\` = ${fmt.ms(bareMs)} wall, ${fmt.ms(bareCpu)} CPU`,
    [
      'case',
      'runs',
      'process',
      'minus bare',
      'min − bare min',
      'import (inside)',
      'CPU minus bare',
    ],
    out.map((c) => [
      c.name,
      String(c.runs),
      fmt.ms(c.processMs),
      fmt.ms(c.minusBareMs),
      fmt.ms(c.minMinusBareMinMs),
      fmt.ms(c.insideMs),
      fmt.ms(c.cpuMinusBareMs),
    ]),
  );
  console.log(
    `cold import target ≤ ${TARGET_MS} ms over bare node: ${targetMet ? 'met' : 'NOT met'}`,
  );
  return {
    bare: { processMs: bareMs, cpuMs: bareCpu },
    cases: out,
    targetMs: TARGET_MS,
    targetMet,
  };
}
