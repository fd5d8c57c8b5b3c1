// Why: measures what one SDK call costs over a bare fetch with the same request, and which layer the difference comes from.
import ky from 'ky';
import pRetry from 'p-retry';
import * as z from 'zod/mini';
import { fmt, loadSdk, median, percentile, type StubProcess, sdkRequests, table } from './common';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const CALLS_PER_BLOCK = Number(process.env.BENCH_CALLS ?? 100);
const WARMUP_CALLS = 500;
const TARGET_RATIO = 1.15;

type Call = () => Promise<unknown>;

interface VariantResult {
  op: string;
  variant: string;
  wallMs: number;
  wallP90Ms: number;
  cpuMs: number;
}

export interface OverheadResult {
  rounds: number;
  callsPerBlock: number;
  variants: VariantResult[];
  ratios: { op: string; wall: number; cpu: number; targetMet: boolean }[];
  parseCostUs: Record<string, number>;
}

/** Per-call costs of the zod parses the SDK does on each call, in tight loops. */
async function parseCosts(
  sdk: Awaited<ReturnType<typeof loadSdk>>,
  createdBody: unknown,
  viewBody: unknown,
) {
  const viewText = JSON.stringify(viewBody);
  const input = {
    merchantId: 'm_stub',
    amount: { unit: 'iso4217/USD', value: '100' },
    referenceId: 'order-1',
  };
  const cases: [string, () => unknown][] = [
    [
      'PaymentCreateParamsSchema (request)',
      () => z.safeParse(sdk.PaymentCreateParamsSchema, input),
    ],
    ['PaymentCreatedSchema (response)', () => z.safeParse(sdk.PaymentCreatedSchema, createdBody)],
    ['PaymentViewSchema (response)', () => z.safeParse(sdk.PaymentViewSchema, viewBody)],
    ['JSON.parse of the view body (for scale)', () => JSON.parse(viewText)],
  ];
  const out: Record<string, number> = {};
  for (const [name, fn] of cases) {
    for (let i = 0; i < 20_000; i++) fn();
    const samples: number[] = [];
    for (let r = 0; r < 7; r++) {
      const t = performance.now();
      for (let i = 0; i < 20_000; i++) fn();
      samples.push(((performance.now() - t) / 20_000) * 1000);
    }
    out[name] = median(samples);
  }
  return out;
}

export async function runOverhead(stub: StubProcess): Promise<OverheadResult> {
  const sdk = await loadSdk();
  const merchantId = 'm_stub';
  const apiKey = 'sk_test_stub';

  const createParams = {
    merchantId,
    amount: { unit: 'iso4217/USD', value: '100' },
    referenceId: 'order-1',
  };
  // The exact requests the SDK sends, so the raw fetch sends the same ones.
  const { created, createUrl, createHeaders, createBody, getUrl, getHeaders } = await sdkRequests(
    sdk,
    stub.url,
    apiKey,
    createParams,
  );

  const gateway = new sdk.MerchantGateway({ baseUrl: stub.url, apiKey });
  // A second build (e.g. a proposed change, built elsewhere) measured in the same rounds.
  const compareDir = process.env.BENCH_COMPARE_DIST;
  const candidate =
    compareDir === undefined
      ? undefined
      : new (await loadSdk(compareDir)).MerchantGateway({ baseUrl: stub.url, apiKey });
  const k = ky.create({ retry: 0, timeout: false, throwHttpErrors: false });

  // The SDK's own per-attempt work around fetch: a controller, a timer and a listener.
  const withSignal = async (run: (signal: AbortSignal) => Promise<Response>) => {
    const outer = new AbortController();
    const controller = new AbortController();
    const onAbort = () => controller.abort(outer.signal.reason);
    outer.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(), 30_000);
    try {
      const response = await run(controller.signal);
      return JSON.parse(await response.text()) as unknown;
    } finally {
      clearTimeout(timer);
      outer.signal.removeEventListener('abort', onAbort);
    }
  };
  const retried = <T>(fn: () => Promise<T>) =>
    pRetry(fn, { retries: 2, minTimeout: 0, shouldRetry: async () => false });

  const ops: Record<string, Record<string, Call>> = {
    create: {
      fetch: async () =>
        (
          await fetch(createUrl, { method: 'POST', headers: createHeaders, body: createBody })
        ).json(),
      'fetch + signal/timer': () =>
        withSignal((signal) =>
          fetch(createUrl, { method: 'POST', headers: createHeaders, body: createBody, signal }),
        ),
      // What ky does before fetch: a Request object, then a clone kept for retries.
      'fetch(new Request)': () =>
        withSignal((signal) =>
          fetch(
            new Request(createUrl, {
              method: 'POST',
              headers: createHeaders,
              body: createBody,
              signal,
            }),
          ),
        ),
      'fetch(Request) + clone': () =>
        withSignal((signal) => {
          const request = new Request(createUrl, {
            method: 'POST',
            headers: createHeaders,
            body: createBody,
            signal,
          });
          request.clone();
          return fetch(request);
        }),
      ky: () =>
        withSignal((signal) =>
          k(createUrl, { method: 'POST', headers: createHeaders, body: createBody, signal }),
        ),
      'ky + p-retry': () =>
        retried(() =>
          withSignal((signal) =>
            k(createUrl, { method: 'POST', headers: createHeaders, body: createBody, signal }),
          ),
        ),
      sdk: () => gateway.payments.create(createParams),
      ...(candidate
        ? { 'sdk (BENCH_COMPARE_DIST)': () => candidate.payments.create(createParams) }
        : {}),
    },
    get: {
      fetch: async () => (await fetch(getUrl, { headers: getHeaders })).json(),
      'fetch + signal/timer': () =>
        withSignal((signal) => fetch(getUrl, { headers: getHeaders, signal })),
      'fetch(new Request)': () =>
        withSignal((signal) => fetch(new Request(getUrl, { headers: getHeaders, signal }))),
      'fetch(Request) + clone': () =>
        withSignal((signal) => {
          const request = new Request(getUrl, { headers: getHeaders, signal });
          request.clone();
          return fetch(request);
        }),
      ky: () => withSignal((signal) => k(getUrl, { method: 'GET', headers: getHeaders, signal })),
      'ky + p-retry': () =>
        retried(() =>
          withSignal((signal) => k(getUrl, { method: 'GET', headers: getHeaders, signal })),
        ),
      sdk: () => gateway.payments.get(created.paymentId),
      ...(candidate
        ? { 'sdk (BENCH_COMPARE_DIST)': () => candidate.payments.get(created.paymentId) }
        : {}),
    },
  };

  const entries = Object.entries(ops).flatMap(([op, variants]) =>
    Object.entries(variants).map(([variant, call]) => ({ op, variant, call })),
  );
  for (const { call } of entries) for (let i = 0; i < WARMUP_CALLS; i++) await call();

  const walls = new Map<string, number[]>();
  const cpus = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, starting at a different variant each round, so drift hits all alike.
    for (let i = 0; i < entries.length; i++) {
      const { op, variant, call } = entries[(i + round) % entries.length] as (typeof entries)[0];
      const key = `${op}/${variant}`;
      const wall = walls.get(key) ?? [];
      const cpuStart = process.cpuUsage();
      for (let c = 0; c < CALLS_PER_BLOCK; c++) {
        const t = performance.now();
        await call();
        wall.push(performance.now() - t);
      }
      const cpu = process.cpuUsage(cpuStart);
      walls.set(key, wall);
      cpus.set(key, [...(cpus.get(key) ?? []), (cpu.user + cpu.system) / 1000 / CALLS_PER_BLOCK]);
    }
  }

  const variants: VariantResult[] = entries.map(({ op, variant }) => {
    const key = `${op}/${variant}`;
    return {
      op,
      variant,
      wallMs: median(walls.get(key) ?? []),
      wallP90Ms: percentile(walls.get(key) ?? [], 90),
      cpuMs: median(cpus.get(key) ?? []),
    };
  });
  const find = (op: string, variant: string) =>
    variants.find((v) => v.op === op && v.variant === variant) as VariantResult;
  const ratios = Object.keys(ops).map((op) => {
    const raw = find(op, 'fetch');
    const s = find(op, 'sdk');
    const wall = s.wallMs / raw.wallMs;
    return { op, wall, cpu: s.cpuMs / raw.cpuMs, targetMet: wall <= TARGET_RATIO };
  });

  table(
    `(a) per-call overhead: ${ROUNDS} interleaved rounds × ${CALLS_PER_BLOCK} calls per variant, stub server in another process`,
    ['op / variant', 'wall median', 'wall p90', 'cpu/call', 'wall ×fetch', 'cpu ×fetch'],
    variants.map((v) => {
      const raw = find(v.op, 'fetch');
      return [
        `${v.op} / ${v.variant}`,
        fmt.us(v.wallMs),
        fmt.us(v.wallP90Ms),
        fmt.us(v.cpuMs),
        fmt.ratio(v.wallMs / raw.wallMs),
        fmt.ratio(v.cpuMs / raw.cpuMs),
      ];
    }),
  );
  for (const r of ratios) {
    console.log(
      `${r.op}: SDK/fetch wall ${fmt.ratio(r.wall)}, cpu ${fmt.ratio(r.cpu)}; target ≤ ${TARGET_RATIO}× wall: ${r.targetMet ? 'met' : 'NOT met'}`,
    );
  }

  const createdBody = await (
    await fetch(createUrl, { method: 'POST', headers: createHeaders, body: createBody })
  ).json();
  const viewBody = await (await fetch(getUrl, { headers: getHeaders })).json();
  const parseCostUs = await parseCosts(sdk, createdBody, viewBody);
  table(
    'zod/mini parses the SDK runs per call (tight loop, median of 7 × 20,000)',
    ['parse', 'per call'],
    Object.entries(parseCostUs).map(([name, us]) => [name, `${us.toFixed(2)} µs`]),
  );
  return { rounds: ROUNDS, callsPerBlock: CALLS_PER_BLOCK, variants, ratios, parseCostUs };
}
