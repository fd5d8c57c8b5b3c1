// Why: issue 23's table is one command: after `npm run bench` has run on Node 22 and 24, every figure it names, read back from both runs' results, beside its target.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TARGET_VS_FETCH, TARGET_VS_STRIPE } from './cold-start';
import { fmt, table } from './common';
import { TARGET_VS_KY, TARGET_VS_PEER_GET } from './per-call';

interface Ratio {
  op: string;
  versus: string;
  wall: number;
  cpu: number;
}
interface Results {
  'per-call'?: {
    ratios: Ratio[];
    telemetry?: {
      op: string;
      offVsBefore?: { wall: number; cpu: number };
      onVsOff: { wall: number; cpu: number };
    }[];
  };
  'cold-start'?: {
    target: { sdkVsStripe: number; cpuSdkVsStripe: number; sdkVsFetch?: number };
  };
  concurrency?: { target: { vsKy: number; vsFloor: number } };
  size?: { report: string };
}

/** One entry of the size report: gzip bytes at first load and of every chunk, and its budgets. */
interface SizeEntry {
  file: string;
  firstLoad: number;
  total: number;
  budget: { firstLoad?: number; total?: number };
}

function read(file: string): Results | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Results) : undefined;
}

/** One figure: what each run measured (undefined where it did not run), and its target. */
interface Figure {
  name: string;
  of: (r: Results) => number | undefined;
  /** What the figure must not exceed, and whether it must stay below it instead. */
  max: number;
  strict?: boolean;
}

const perCall = (op: string, versus: string) => (r: Results) =>
  r['per-call']?.ratios.find((x) => x.op === op && x.versus === versus)?.wall;

const figures: Figure[] = [
  { name: 'SDK POST / bare ky 2 POST', of: perCall('create', 'bare ky 2'), max: TARGET_VS_KY },
  { name: 'SDK GET / bare ky 2 GET', of: perCall('get', 'bare ky 2'), max: TARGET_VS_KY },
  {
    name: 'SDK GET / openai GET',
    of: perCall('get', 'openai'),
    max: TARGET_VS_PEER_GET,
    strict: true,
  },
  {
    name: 'SDK GET / anthropic GET',
    of: perCall('get', 'anthropic'),
    max: TARGET_VS_PEER_GET,
    strict: true,
  },
  {
    name: 'SDK GET / stripe (fetch client) GET',
    of: perCall('get', 'stripe (fetch client)'),
    max: TARGET_VS_PEER_GET,
    strict: true,
  },
  {
    name: "import / stripe's import",
    of: (r) => r['cold-start']?.target.sdkVsStripe,
    max: TARGET_VS_STRIPE,
  },
  {
    name: "import + first GET / raw fetch's",
    of: (r) => r['cold-start']?.target.sdkVsFetch,
    max: TARGET_VS_FETCH,
  },
  {
    name: '1,000 concurrent creates, p50 SDK / bare ky 2',
    of: (r) => r.concurrency?.target.vsKy,
    max: TARGET_VS_KY,
  },
];

/** Prints the table from bench/results/node22.json, node24.json (when this run wrote it) and size.json. */
export function printSummary(resultsDir: URL, withNode24: boolean): void {
  const runs = [
    read(fileURLToPath(new URL('node22.json', resultsDir))),
    withNode24 ? read(fileURLToPath(new URL('node24.json', resultsDir))) : undefined,
  ];
  printTelemetry(runs);
  const ok = (f: Figure, v: number) => (f.strict ? v < f.max : v <= f.max);
  const rows = figures.map((f) => {
    const values = runs.map((r) => (r === undefined ? undefined : f.of(r)));
    const measured = values.filter((v): v is number => v !== undefined);
    const verdict =
      measured.length === 0 ? 'not run' : measured.every((v) => ok(f, v)) ? 'met' : 'NOT met';
    return [
      f.name,
      ...values.map((v) => (v === undefined ? '-' : fmt.ratio(v))),
      `${f.strict ? '<' : '≤'} ${f.max}`,
      verdict,
    ];
  });
  // The bundle does not depend on the Node line: one figure per entry and load, from this run's
  // size report (scripts/check-size.mjs), against the budgets it carries.
  const sizeReport = runs[0]?.size?.report;
  const size =
    sizeReport !== undefined && existsSync(sizeReport)
      ? (JSON.parse(readFileSync(sizeReport, 'utf8')) as { entries: SizeEntry[] })
      : undefined;
  // Nothing of the table ran (`npm run bench -- following`, say): no table.
  if (size === undefined && rows.every((row) => row.at(-1) === 'not run')) return;
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
  for (const entry of size?.entries ?? []) {
    for (const load of ['firstLoad', 'total'] as const) {
      const budget = entry.budget[load];
      rows.push([
        `${entry.file} ${load === 'firstLoad' ? 'first load' : 'total'}, min+gzip`,
        kb(entry[load]),
        '',
        budget === undefined ? '' : `≤ ${kb(budget)}`,
        budget === undefined ? '' : entry[load] <= budget ? 'met' : 'NOT met',
      ]);
    }
  }
  table(
    'Issue 23, by wall time, from this run on each Node line (a "-": that part or that line did not run)',
    ['figure', 'Node 22', 'Node 24', 'target', 'verdict'],
    rows,
  );
}

/** Issue 29's figures: a call with telemetry off over the build before it, and on over off. */
function printTelemetry(runs: (Results | undefined)[]): void {
  const cell = (r: Results | undefined, op: string, pick: 'offVsBefore' | 'onVsOff') => {
    const v = r?.['per-call']?.telemetry?.find((t) => t.op === op)?.[pick];
    return v === undefined ? '-' : `${fmt.ratio(v.wall)} (CPU ${fmt.ratio(v.cpu)})`;
  };
  if (!runs.some((r) => r?.['per-call']?.telemetry)) return;
  table(
    'Issue 29, telemetry per call by wall (CPU), from this run on each Node line',
    ['figure', 'Node 22', 'Node 24'],
    (['create', 'get'] as const).flatMap((op) => {
      const name = op === 'create' ? 'POST' : 'GET';
      return [
        [`${name} telemetry off / before it`, ...runs.map((r) => cell(r, op, 'offVsBefore'))],
        [`${name} telemetry on / off`, ...runs.map((r) => cell(r, op, 'onVsOff'))],
      ];
    }),
  );
}
