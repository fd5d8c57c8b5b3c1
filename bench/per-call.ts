// Why: issue 23's per-call targets (SDK within 1.05x of a bare ky 2 call, and a GET under 0.95x of openai's, anthropic's and stripe's) need every client measured in one run on one server.

import { pathToFileURL } from 'node:url';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import ky from 'ky';
import { extraBuilds } from './cold-start';
import {
  fmt,
  loadSdk,
  median,
  type PeerProcess,
  percentile,
  type Sdk,
  sdkRequests,
  table,
} from './common';
import { importPeer } from './peers';

// What the table calls of each peer SDK: they are installed into .cache/bench on the first run
// (bench/peers.ts), so their own types are not at hand when the project type-checks.
type OpenAIClient = {
  chat: { completions: { create(body: object): Promise<unknown> } };
  models: { retrieve(id: string): Promise<unknown> };
};
type AnthropicClient = {
  messages: { create(body: object): Promise<unknown> };
  models: { retrieve(id: string): Promise<unknown> };
};
type StripeClient = {
  paymentIntents: {
    create(body: object): Promise<unknown>;
    retrieve(id: string): Promise<unknown>;
  };
};
type StripeClass = (new (
  key: string,
  options: object,
) => StripeClient) & {
  createFetchHttpClient(): unknown;
};

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const CALLS_PER_BLOCK = Number(process.env.BENCH_CALLS ?? 100);
const WARMUP_CALLS = Number(process.env.BENCH_WARMUP ?? 300);
export const TARGET_VS_KY = 1.05;
/** A GET through the SDK against each peer's GET (issue 23): strictly below this. */
export const TARGET_VS_PEER_GET = 0.95;
// ky 2 still clones every request (a body tee for a POST) unless retry is 0, even for a POST it
// would never retry; this row is the floor with that and ky's timer off, as the SDK configures it.
const STRIPPED = 'ky 2, retry 0 + timeout off';
// The same plus a signal of the caller's own, as the SDK passes one per attempt for its timeout:
// ky then joins it with its own controller through AbortSignal.any on every request.
const SIGNALLED = 'ky 2, retry 0 + own signal';
const signal = () => new AbortController().signal;

type Call = () => Promise<unknown>;

/** The SDK with telemetry on (issue 29), against the same build with it off. */
export const TRACED = 'merchant-gateway (SDK), telemetry on';
/** The SDK as built before telemetry, when BENCH_SDK_BASELINE names that build's dist/. */
export const BASELINE = 'merchant-gateway before telemetry';
const SDK = 'merchant-gateway (SDK)';

/** Spans end through the SDK's processor and are dropped: the cost measured is ours and the SDK's, not an export's. */
const dropSpans: SpanExporter = {
  export: (_spans: ReadableSpan[], done) => done({ code: 0 }),
  shutdown: async () => {},
};

/** A reader that is never collected: measurements are aggregated, as under any reader. */
class IdleReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface PerCallRow {
  op: 'create' | 'get';
  client: string;
  /** Route on the peer server whose request and answer sizes this row reports. */
  route: string;
  wallUs: number;
  wallP90Us: number;
  cpuUs: number;
  vsKy: number;
  /** Against ky with retry 0 and timeout off: no request clone, no timer (what the SDK sets). */
  vsKyStripped: number;
  vsFetch: number;
}

export interface PerCallResult {
  node: string;
  rounds: number;
  callsPerBlock: number;
  rows: PerCallRow[];
  sizes: { requestBytes: Record<string, number>; responseBytes: Record<string, number> };
  /** The SDK's time over each other client's, per op, by wall and by CPU: issue 23's table. */
  ratios: { op: string; versus: string; wall: number; cpu: number; target: string }[];
  /** Issue 29: telemetry off over the build before it (when given), and on over off. */
  telemetry: {
    op: string;
    offVsBefore?: { wall: number; cpu: number };
    onVsOff: { wall: number; cpu: number };
  }[];
  targets: {
    op: string;
    vsKy: number;
    vsKyStripped: number;
    cpuVsKy: number;
    withinKy: boolean;
    slowerPeers: string[];
    slowerPeersCpu: string[];
  }[];
}

export async function runPerCall(server: PeerProcess): Promise<PerCallResult> {
  const sdk = await loadSdk();
  const OpenAI = (await importPeer('openai')).default as new (options: object) => OpenAIClient;
  const Anthropic = (await importPeer('@anthropic-ai/sdk')).default as new (
    options: object,
  ) => AnthropicClient;
  const Stripe = (await importPeer('stripe')).default as StripeClass;
  const apiKey = 'sk_test_stub';
  const createParams = {
    merchantId: 'm_stub',
    amount: { unit: 'iso4217/USD', value: '100' },
    referenceId: 'order-1',
  };

  // The exact requests the SDK sends, so fetch and ky send the same ones.
  const {
    created,
    createUrl: postUrl,
    createHeaders: postHeaders,
    createBody: postBody,
    getUrl,
    getHeaders,
  } = await sdkRequests(sdk, server.url, apiKey, createParams);

  // The SDK as a user gets it: default options (its retries never fire on a success).
  const gateway = new sdk.MerchantGateway({ baseUrl: server.url, apiKey });
  // Issue 29: the same with the real OpenTelemetry SDKs behind the option (no context manager).
  const traced = new sdk.MerchantGateway({
    baseUrl: server.url,
    apiKey,
    telemetry: {
      tracerProvider: new BasicTracerProvider({
        spanProcessors: [new SimpleSpanProcessor(dropSpans)],
      }),
      meterProvider: new MeterProvider({ readers: [new IdleReader()] }),
    },
  });
  const baselineDir = process.env.BENCH_SDK_BASELINE;
  const before =
    baselineDir === undefined
      ? undefined
      : new (await loadSdk(baselineDir)).MerchantGateway({ baseUrl: server.url, apiKey });
  // Peers with retries off; none of these three sends telemetry once stripe's is off.
  const openai = new OpenAI({
    apiKey: 'sk-stub',
    baseURL: `${server.url}/openai/v1`,
    maxRetries: 0,
  });
  const anthropic = new Anthropic({
    apiKey: 'sk-ant-stub',
    baseURL: `${server.url}/anthropic`,
    maxRetries: 0,
  });
  const { port } = new URL(server.url);
  const stripe = new Stripe('sk_test_stub', {
    httpClient: Stripe.createFetchHttpClient(),
    host: '127.0.0.1',
    port: Number(port),
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
  // The floor: ky 2 at its defaults (a POST is not retried; a 10 s timeout), and stripped bare.
  const kyBare = ky.create({ retry: 0, timeout: false });
  const message = { role: 'user' as const, content: 'order-1' };
  // BENCH_SDK_EXTRA="label=/abs/dist/node/index.js": other builds of the SDK (a base commit, a
  // lever being tried) as rows of their own in the same interleaved run.
  const extras = await Promise.all(
    extraBuilds().map(async ([label, entry]) => {
      const other = (await import(pathToFileURL(entry).href)) as Sdk;
      return [
        `merchant-gateway (${label})`,
        new other.MerchantGateway({ baseUrl: server.url, apiKey }),
      ] as const;
    }),
  );

  type Row = [client: string, route: string, call: Call];
  const ops: Record<'create' | 'get', Row[]> = {
    create: [
      [
        'fetch',
        'sdk POST',
        async () =>
          (await fetch(postUrl, { method: 'POST', headers: postHeaders, body: postBody })).json(),
      ],
      ['ky 2', 'sdk POST', () => ky.post(postUrl, { headers: postHeaders, body: postBody }).json()],
      [
        STRIPPED,
        'sdk POST',
        () => kyBare.post(postUrl, { headers: postHeaders, body: postBody }).json(),
      ],
      [
        SIGNALLED,
        'sdk POST',
        () =>
          kyBare.post(postUrl, { headers: postHeaders, body: postBody, signal: signal() }).json(),
      ],
      [SDK, 'sdk POST', () => gateway.payments.create(createParams)],
      [TRACED, 'sdk POST', () => traced.payments.create(createParams)],
      ...(before
        ? ([[BASELINE, 'sdk POST', () => before.payments.create(createParams)]] as Row[])
        : []),
      ...extras.map(([client, other]): [string, string, Call] => [
        client,
        'sdk POST',
        () => other.payments.create(createParams),
      ]),
      [
        'openai',
        'openai POST',
        () => openai.chat.completions.create({ model: 'gpt-stub', messages: [message] }),
      ],
      [
        '@anthropic-ai/sdk',
        'anthropic POST',
        () =>
          anthropic.messages.create({ model: 'claude-stub', max_tokens: 16, messages: [message] }),
      ],
      [
        'stripe (fetch client)',
        'stripe POST',
        () =>
          stripe.paymentIntents.create({
            amount: 100,
            currency: 'usd',
            metadata: { referenceId: 'order-1' },
          }),
      ],
    ],
    get: [
      ['fetch', 'sdk GET', async () => (await fetch(getUrl, { headers: getHeaders })).json()],
      ['ky 2', 'sdk GET', () => ky.get(getUrl, { headers: getHeaders }).json()],
      [STRIPPED, 'sdk GET', () => kyBare.get(getUrl, { headers: getHeaders }).json()],
      [
        SIGNALLED,
        'sdk GET',
        () => kyBare.get(getUrl, { headers: getHeaders, signal: signal() }).json(),
      ],
      [SDK, 'sdk GET', () => gateway.payments.get(created.paymentId)],
      [TRACED, 'sdk GET', () => traced.payments.get(created.paymentId)],
      ...(before
        ? ([[BASELINE, 'sdk GET', () => before.payments.get(created.paymentId)]] as Row[])
        : []),
      ...extras.map(([client, other]): [string, string, Call] => [
        client,
        'sdk GET',
        () => other.payments.get(created.paymentId),
      ]),
      ['openai', 'openai GET', () => openai.models.retrieve('gpt-stub')],
      ['@anthropic-ai/sdk', 'anthropic GET', () => anthropic.models.retrieve('claude-stub')],
      ['stripe (fetch client)', 'stripe GET', () => stripe.paymentIntents.retrieve('pi_stub')],
    ],
  };

  const entries = (Object.keys(ops) as ('create' | 'get')[]).flatMap((op) =>
    ops[op].map(([client, route, call]) => ({ op, client, route, call, key: `${op}/${client}` })),
  );
  for (const { call } of entries) for (let i = 0; i < WARMUP_CALLS; i++) await call();

  const walls = new Map<string, number[]>();
  const cpus = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, starting at a different client each round, so drift and load hit all alike.
    for (let i = 0; i < entries.length; i++) {
      const { key, call } = entries[(i + round) % entries.length] as (typeof entries)[0];
      const wall = walls.get(key) ?? [];
      const cpuStart = process.cpuUsage();
      for (let c = 0; c < CALLS_PER_BLOCK; c++) {
        const t = performance.now();
        await call();
        wall.push(performance.now() - t);
      }
      const cpu = process.cpuUsage(cpuStart);
      walls.set(key, wall);
      cpus.set(key, [...(cpus.get(key) ?? []), (cpu.user + cpu.system) / CALLS_PER_BLOCK]);
    }
  }

  const base = entries.map(({ op, client, route, key }) => ({
    op,
    client,
    route,
    wallUs: median(walls.get(key) ?? []) * 1000,
    wallP90Us: percentile(walls.get(key) ?? [], 90) * 1000,
    cpuUs: median(cpus.get(key) ?? []),
  }));
  const find = (op: string, client: string) =>
    base.find((r) => r.op === op && r.client === client) as (typeof base)[0];
  const rows: PerCallRow[] = base.map((r) => ({
    ...r,
    vsKy: r.wallUs / find(r.op, 'ky 2').wallUs,
    vsKyStripped: r.wallUs / find(r.op, STRIPPED).wallUs,
    vsFetch: r.wallUs / find(r.op, 'fetch').wallUs,
  }));
  const sizes = await server.sizes();
  const peers = ['openai', '@anthropic-ai/sdk', 'stripe (fetch client)'];
  const targets = (['create', 'get'] as const).map((op) => {
    const ours = rows.find((r) => r.op === op && r.client === SDK) as PerCallRow;
    const cpuVsKy = ours.cpuUs / find(op, 'ky 2').cpuUs;
    return {
      op,
      vsKy: ours.vsKy,
      vsKyStripped: ours.vsKyStripped,
      cpuVsKy,
      withinKy: ours.vsKy <= TARGET_VS_KY,
      slowerPeers: peers.filter((p) => find(op, p).wallUs <= ours.wallUs),
      slowerPeersCpu: peers.filter((p) => find(op, p).cpuUs <= ours.cpuUs),
    };
  });
  table(
    `Table 1, per call on Node ${process.versions.node}: ${ROUNDS} interleaved rounds × ${CALLS_PER_BLOCK} calls per client (after ${WARMUP_CALLS} warm-up), one loopback node:http server in another process`,
    [
      'op / client',
      'req B',
      'resp B',
      'µs/call',
      'p90 µs',
      'CPU µs',
      '× bare ky',
      '× ky retry 0',
      '× fetch',
    ],
    rows.map((r) => [
      `${r.op === 'create' ? 'payments.create (POST)' : 'payments.get (GET)'} / ${r.client}`,
      String(sizes.requestBytes[r.route] ?? 0),
      String(sizes.responseBytes[r.route] ?? 0),
      r.wallUs.toFixed(1),
      r.wallP90Us.toFixed(1),
      r.cpuUs.toFixed(1),
      fmt.ratio(r.vsKy),
      fmt.ratio(r.vsKyStripped),
      fmt.ratio(r.vsFetch),
    ]),
  );
  for (const [client] of extras) {
    for (const op of ['create', 'get'] as const) {
      const ours = find(op, 'merchant-gateway (SDK)');
      const other = find(op, client);
      console.log(
        `${op}: this build / ${client}: ${fmt.ratio(ours.wallUs / other.wallUs)} by wall, ${fmt.ratio(ours.cpuUs / other.cpuUs)} by CPU; × bare ky ${fmt.ratio(ours.wallUs / find(op, 'ky 2').wallUs)} against ${fmt.ratio(other.wallUs / find(op, 'ky 2').wallUs)}`,
      );
    }
  }
  // Issue 23's table: the SDK's time over each other client's, so the targets read off one run.
  const versus: [string, string][] = [
    ['ky 2', 'bare ky 2'],
    ['openai', 'openai'],
    ['@anthropic-ai/sdk', 'anthropic'],
    ['stripe (fetch client)', 'stripe (fetch client)'],
    ['fetch', 'raw fetch (for scale)'],
  ];
  const ratios = (['create', 'get'] as const).flatMap((op) => {
    const ours = find(op, SDK);
    return versus.map(([client, label]) => {
      const other = find(op, client);
      const target =
        client === 'ky 2'
          ? `≤ ${TARGET_VS_KY}`
          : op === 'get' && client !== 'fetch'
            ? `< ${TARGET_VS_PEER_GET}`
            : '';
      return {
        op,
        versus: label,
        wall: ours.wallUs / other.wallUs,
        cpu: ours.cpuUs / other.cpuUs,
        target,
      };
    });
  });
  const met = (r: (typeof ratios)[0]) => {
    if (r.target === '') return '';
    const limit = Number(r.target.replace(/^\D+/, ''));
    const ok = (x: number) => (r.target.startsWith('<') ? x < limit : x <= limit);
    return `${ok(r.wall) ? 'met' : 'NOT met'} by wall, ${ok(r.cpu) ? 'met' : 'NOT met'} by CPU`;
  };
  table(
    `Issue 23, the SDK per call over each client (same run; < 1 is faster), Node ${process.versions.node}`,
    ['op', 'SDK / …', 'by wall', 'by CPU', 'target', ''],
    ratios.map((r) => [
      r.op === 'create' ? 'POST (payments.create)' : 'GET (payments.get)',
      r.versus,
      fmt.ratio(r.wall),
      fmt.ratio(r.cpu),
      r.target,
      met(r),
    ]),
  );
  // Issue 29: what telemetry costs a call, off (against the build before it) and on.
  const over = (a: (typeof base)[0], b: (typeof base)[0]) => ({
    wall: a.wallUs / b.wallUs,
    cpu: a.cpuUs / b.cpuUs,
  });
  const telemetry = (['create', 'get'] as const).map((op) => {
    const off = find(op, SDK);
    const beforeRow = base.find((r) => r.op === op && r.client === BASELINE);
    return {
      op,
      ...(beforeRow ? { offVsBefore: over(off, beforeRow) } : {}),
      onVsOff: over(find(op, TRACED), off),
    };
  });
  table(
    `Issue 29, telemetry per call (same run), Node ${process.versions.node}`,
    ['op', 'off / before telemetry (wall, CPU)', 'on / off (wall, CPU)'],
    telemetry.map((t) => [
      t.op === 'create' ? 'POST (payments.create)' : 'GET (payments.get)',
      t.offVsBefore
        ? `${fmt.ratio(t.offVsBefore.wall)}, ${fmt.ratio(t.offVsBefore.cpu)}`
        : '- (set BENCH_SDK_BASELINE)',
      `${fmt.ratio(t.onVsOff.wall)}, ${fmt.ratio(t.onVsOff.cpu)}`,
    ]),
  );
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const behind = (names: string[]) =>
    names.length === 0 ? 'met' : `NOT met (${names.join(', ')} as fast or faster)`;
  for (const t of targets) {
    console.log(
      `${t.op}: SDK ${fmt.ratio(t.vsKy)} bare ky by wall, ${fmt.ratio(t.cpuVsKy)} by CPU (target ≤ ${TARGET_VS_KY}×: ${verdict(t.withinKy)} by wall, ${verdict(t.cpuVsKy <= TARGET_VS_KY)} by CPU; ${fmt.ratio(t.vsKyStripped)} the retry-0 ky floor); ahead of every peer by wall: ${behind(t.slowerPeers)}; by CPU: ${behind(t.slowerPeersCpu)}`,
    );
  }
  return {
    node: process.version,
    rounds: ROUNDS,
    callsPerBlock: CALLS_PER_BLOCK,
    rows,
    sizes,
    ratios,
    telemetry,
    targets,
  };
}
