// Why: issue 36 bounds what the `telemetry` option costs a call (on ≤ 1.10× off); this measures it
// alone, without the peer SDKs the per-call table installs, so a change to telemetry is checked in
// a minute: `npm run bench -- telemetry` (BENCH_NODE24=0 for Node 22 only).
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { fmt, loadSdk, median, type PeerProcess, table } from './common';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const CALLS_PER_BLOCK = Number(process.env.BENCH_CALLS ?? 100);
const WARMUP_CALLS = Number(process.env.BENCH_WARMUP ?? 300);
/** Issue 36: a call with telemetry on takes at most this many times the same call with it off. */
export const TARGET_ON_VS_OFF = 1.1;

/** Spans end through the SDK's processor and are dropped: the cost measured is ours and the OpenTelemetry SDK's, not an export's. */
const dropSpans: SpanExporter = {
  export: (_spans: ReadableSpan[], done) => done({ code: 0 }),
  shutdown: async () => {},
};

/** A reader that is never collected: measurements are aggregated, as under any reader. */
class IdleReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface TelemetryResult {
  op: 'create' | 'get';
  offUs: number;
  onUs: number;
  offCpuUs: number;
  onCpuUs: number;
  wall: number;
  cpu: number;
}

/** payments.create and payments.get with telemetry off and on, interleaved, against one server. */
export async function runTelemetry(server: PeerProcess): Promise<TelemetryResult[]> {
  const sdk = await loadSdk();
  const apiKey = 'sk_test_stub';
  const off = new sdk.MerchantGateway({ baseUrl: server.url, apiKey });
  const on = new sdk.MerchantGateway({
    baseUrl: server.url,
    apiKey,
    telemetry: {
      tracerProvider: new BasicTracerProvider({
        spanProcessors: [new SimpleSpanProcessor(dropSpans)],
      }),
      meterProvider: new MeterProvider({ readers: [new IdleReader()] }),
    },
  });
  const params = {
    merchantId: 'm_stub',
    amount: { unit: 'iso4217/USD', value: '100' },
    referenceId: 'order-1',
  };
  const { paymentId } = await off.payments.create(params);
  const calls = {
    'create/off': () => off.payments.create(params),
    'create/on': () => on.payments.create(params),
    'get/off': () => off.payments.get(paymentId),
    'get/on': () => on.payments.get(paymentId),
  };
  const keys = Object.keys(calls) as (keyof typeof calls)[];
  for (const key of keys) for (let i = 0; i < WARMUP_CALLS; i++) await calls[key]();
  const walls = new Map<string, number[]>();
  const cpus = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, starting at a different client each round, so drift and load hit all alike.
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(i + round) % keys.length] as keyof typeof calls;
      const wall = walls.get(key) ?? [];
      const cpuStart = process.cpuUsage();
      for (let c = 0; c < CALLS_PER_BLOCK; c++) {
        const t = performance.now();
        await calls[key]();
        wall.push(performance.now() - t);
      }
      const cpu = process.cpuUsage(cpuStart);
      walls.set(key, wall);
      cpus.set(key, [...(cpus.get(key) ?? []), (cpu.user + cpu.system) / CALLS_PER_BLOCK]);
    }
  }
  const us = (key: string) => median(walls.get(key) ?? []) * 1000;
  const cpuUs = (key: string) => median(cpus.get(key) ?? []);
  const results = (['create', 'get'] as const).map((op) => ({
    op,
    offUs: us(`${op}/off`),
    onUs: us(`${op}/on`),
    offCpuUs: cpuUs(`${op}/off`),
    onCpuUs: cpuUs(`${op}/on`),
    wall: us(`${op}/on`) / us(`${op}/off`),
    cpu: cpuUs(`${op}/on`) / cpuUs(`${op}/off`),
  }));
  table(
    `Telemetry per call, on / off (issue 36: ≤ ${TARGET_ON_VS_OFF}), Node ${process.versions.node}: ${ROUNDS} interleaved rounds × ${CALLS_PER_BLOCK} calls (after ${WARMUP_CALLS} warm-up)`,
    ['op', 'off µs', 'on µs', 'on / off wall', 'off CPU µs', 'on CPU µs', 'on / off CPU'],
    results.map((r) => [
      r.op === 'create' ? 'payments.create (POST)' : 'payments.get (GET)',
      r.offUs.toFixed(1),
      r.onUs.toFixed(1),
      fmt.ratio(r.wall),
      r.offCpuUs.toFixed(1),
      r.onCpuUs.toFixed(1),
      fmt.ratio(r.cpu),
    ]),
  );
  return results;
}
