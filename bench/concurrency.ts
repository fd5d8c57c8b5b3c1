// Why: issue #16's crowd figure: 1,000 concurrent payments.create, SDK against bare ky 2 and raw fetch, on one local stub.
import ky from 'ky';
import { fmt, loadSdk, median, percentile, startStubProcess, table } from './common';
// Issue 23 holds the burst's p50 to the same bound as a single call's time.
import { TARGET_VS_KY } from './per-call';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1_000);
const ROUNDS = Number(process.env.BENCH_CONCURRENCY_ROUNDS ?? 5);
const FLOOR = 'ky 2, retry 0 + timeout off';

interface Row {
  variant: string;
  p50Ms: number;
  p99Ms: number;
  wallMs: number;
  cpuMsPerCall: number;
  errors: number;
}

/** Starts `CONCURRENCY` calls at once; each call's latency, the wall time and CPU per call. */
async function burst(call: () => Promise<unknown>) {
  const latencies: number[] = new Array(CONCURRENCY);
  let errors = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      const t = performance.now();
      await call().catch(() => (errors += 1));
      latencies[i] = performance.now() - t;
    }),
  );
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return {
    latencies,
    wallMs,
    errors,
    cpuMsPerCall: (used.user + used.system) / 1000 / CONCURRENCY,
  };
}

export async function runConcurrency(): Promise<{
  rows: Row[];
  target: { vsKy: number; vsFloor: number; met: boolean };
}> {
  const stub = await startStubProcess();
  try {
    const sdk = await loadSdk();
    const apiKey = 'sk_test_stub';
    const params = {
      merchantId: 'm_stub',
      amount: { unit: 'iso4217/USD', value: '100' },
      referenceId: 'order-1',
    };
    const url = `${stub.url}/v1/payments`;
    const body = JSON.stringify(params);
    const headers = {
      'Api-Key': apiKey,
      accept: 'application/json',
      'content-type': 'application/json',
    };
    const gateway = new sdk.MerchantGateway({ baseUrl: stub.url, apiKey });
    // "bare ky 2" is ky at its defaults, as in the per-call table (a POST is never retried, yet
    // ky still tees its body for a retry and races a 10 s timeout); the floor is ky set up the
    // way the SDK sets it (retry 0, timeout off), which the SDK cannot beat by configuration.
    const floor = ky.create({ retry: 0, timeout: false, throwHttpErrors: false });
    const variants: [string, () => Promise<unknown>][] = [
      ['raw fetch', async () => (await fetch(url, { method: 'POST', headers, body })).json()],
      ['bare ky 2', () => ky.post(url, { headers, body }).json()],
      [FLOOR, () => floor.post(url, { headers, body }).json()],
      ['sdk', () => gateway.payments.create(params)],
    ];
    // Warm every path (connections, JIT) before measuring.
    for (const [, call] of variants) await burst(call);
    type Samples = { p50: number[]; p99: number[]; wall: number[]; cpu: number[]; errors: number };
    const samples = new Map<string, Samples>();
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, so drift on a shared machine hits every variant alike.
      for (const [name, call] of variants) {
        const { latencies, wallMs, cpuMsPerCall, errors } = await burst(call);
        const s = samples.get(name) ?? { p50: [], p99: [], wall: [], cpu: [], errors: 0 };
        s.errors += errors;
        s.p50.push(percentile(latencies, 50));
        s.p99.push(percentile(latencies, 99));
        s.wall.push(wallMs);
        s.cpu.push(cpuMsPerCall);
        samples.set(name, s);
      }
    }
    const rows: Row[] = variants.map(([name]) => {
      const s = samples.get(name) as Samples;
      return {
        variant: name,
        p50Ms: median(s.p50),
        p99Ms: median(s.p99),
        wallMs: median(s.wall),
        cpuMsPerCall: median(s.cpu),
        errors: s.errors,
      };
    });
    table(
      `${CONCURRENCY} concurrent payments.create (median of ${ROUNDS} bursts, node ${process.version})`,
      ['variant', 'p50', 'p99', 'burst wall', 'CPU/call', 'failed calls'],
      rows.map((r) => [
        r.variant,
        fmt.ms(r.p50Ms),
        fmt.ms(r.p99Ms),
        fmt.ms(r.wallMs),
        fmt.ms(r.cpuMsPerCall),
        String(r.errors),
      ]),
    );
    const p50 = (name: string) => rows.find((r) => r.variant === name)?.p50Ms ?? Number.NaN;
    const vsKy = p50('sdk') / p50('bare ky 2');
    const vsFloor = p50('sdk') / p50(FLOOR);
    console.log(
      `1,000 concurrent creates: SDK p50 ${fmt.ratio(vsKy)} bare ky 2's (target ≤ ${TARGET_VS_KY}×: ${vsKy <= TARGET_VS_KY ? 'met' : 'NOT met'}), ${fmt.ratio(vsFloor)} the retry-0 ky floor's`,
    );
    return { rows, target: { vsKy, vsFloor, met: vsKy <= TARGET_VS_KY } };
  } finally {
    await stub.close();
  }
}
