// Why: issue 19's following figures: 10,000 open payments on the mock over HTTP (mock in a child
// process), their statuses changing over a window; reads per reported change, sockets open at most
// and change-to-event delay, for one payments.follower() against 10,000 waitForFinal calls.
import { type ChildProcess, fork } from 'node:child_process';
import type { PaymentCreated } from 'merchant-gateway';
import { fmt, loadSdk, percentile, root, type Sdk, table } from './common';

const COUNT = Number(process.env.BENCH_FOLLOWING_PAYMENTS ?? 10_000);
/** The window over which the statuses change (shortened from "a few minutes"; see the README). */
const WINDOW_MS = Number(process.env.BENCH_FOLLOWING_WINDOW_MS ?? 90_000);
const SWEEP_INTERVAL_MS = 5_000;
const MAX_HELD_READS = 8;

interface Row {
  variant: string;
  changes: number;
  reported: number;
  /** Final changes never reported: must be 0. */
  missingFinals: number;
  /** Intermediate statuses never reported (shorter than the follower could see). */
  skipped: number;
  duplicates: number;
  reads: { status: number; held: number; list: number; total: number };
  readsPerChange: number;
  readsPerPaymentPerSweep: number;
  maxSockets: number;
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  wallMs: number;
}

type Message =
  | { type: 'ready'; url: string; apiKey: string; merchantId: string }
  | { type: 'created'; payments: PaymentCreated[] }
  | { type: 'changes'; changes: [string, string, number][] }
  | { type: 'sockets'; maxSockets: number };

function child() {
  const proc: ChildProcess = fork(`${root}bench/following-mock.mjs`, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<string, (message: Message) => void>();
  proc.on('message', (message: Message) => waiting.get(message.type)?.(message));
  const next = <T extends Message['type']>(type: T) =>
    new Promise<Extract<Message, { type: T }>>((resolve) =>
      waiting.set(type, resolve as (message: Message) => void),
    );
  return { proc, next, send: (message: object) => proc.send(message) };
}

/** Reads by kind, counted in a fetch of the client's own. */
function countingFetch() {
  const reads = { status: 0, held: 0, list: 0, total: 0 };
  const counted: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    reads.total++;
    if (url.pathname.endsWith('/status')) {
      if (url.searchParams.has('maxPollMs')) reads.held++;
      else reads.status++;
    } else if (url.pathname.endsWith('/v1/payments')) {
      reads.list++;
    }
    return fetch(input, init);
  };
  return { reads, fetch: counted };
}

async function phase(
  sdk: Sdk,
  variant: 'follower' | 'waitForFinal',
  service: ReturnType<typeof child>,
  mock: { url: string; apiKey: string; merchantId: string },
): Promise<Row> {
  const created = service.next('created');
  service.send({ type: 'create', count: COUNT });
  const { payments } = await created;
  const counting = countingFetch();
  const gateway = new sdk.MerchantGateway({
    baseUrl: mock.url,
    apiKey: mock.apiKey,
    fetch: counting.fetch,
    // 10,000 reads held at once on a 2-core machine: attempts may queue behind each other.
    timeoutMs: 60_000,
  });
  const { merchantId } = mock;
  const seen = new Map<string, number>();
  let duplicates = 0;
  const record = (paymentId: string, status: string) => {
    const key = `${paymentId} ${status}`;
    if (seen.has(key)) duplicates++;
    else seen.set(key, Date.now());
  };
  const start = Date.now();
  const changesDone = service.next('changes');
  let finished: Promise<unknown>;
  let stop = () => {};
  if (variant === 'follower') {
    const follower = gateway.payments.follower({
      maxHeldReads: MAX_HELD_READS,
      sweepIntervalMs: SWEEP_INTERVAL_MS,
      onError: (error) => console.error(`  follower onError: ${error.message}`),
    });
    for (const payment of payments) follower.add({ ...payment, merchantId });
    stop = () => follower.close();
    finished = (async () => {
      for await (const change of follower) {
        record(change.paymentId, change.status);
        if (follower.size === 0) break;
      }
    })();
  } else {
    finished = Promise.all(
      payments.map((payment) =>
        gateway.payments
          .waitForFinal(payment, {
            merchantId,
            onUpdate: (result) => record(payment.paymentId, result.status),
          })
          .catch((error: Error) => console.error(`  waitForFinal: ${error.message}`)),
      ),
    );
  }
  service.send({ type: 'run', payments, durationMs: WINDOW_MS });
  const { changes } = await changesDone;
  // Every final change reported, or four sweep intervals more at most.
  const limit = new Promise((resolve) => setTimeout(resolve, SWEEP_INTERVAL_MS * 4).unref());
  await Promise.race([finished, limit]);
  stop();
  const wallMs = Date.now() - start;
  const sockets = service.next('sockets');
  service.send({ type: 'sockets' });
  const { maxSockets } = await sockets;
  const delays: number[] = [];
  let missingFinals = 0;
  let skipped = 0;
  for (const [paymentId, status, at] of changes) {
    const reportedAt = seen.get(`${paymentId} ${status}`);
    if (reportedAt !== undefined) delays.push(reportedAt - at);
    else if (status === 'processing') skipped++;
    else missingFinals++;
  }
  const { reads } = counting;
  return {
    variant: variant === 'follower' ? `follower (${MAX_HELD_READS} held)` : `${COUNT} waitForFinal`,
    changes: changes.length,
    reported: delays.length,
    missingFinals,
    skipped,
    duplicates,
    reads: { ...reads },
    readsPerChange: reads.total / Math.max(1, delays.length),
    readsPerPaymentPerSweep: reads.total / COUNT / (wallMs / SWEEP_INTERVAL_MS),
    maxSockets,
    delayP50Ms: percentile(delays, 50),
    delayP99Ms: percentile(delays, 99),
    delayMaxMs: Math.max(...delays),
    wallMs,
  };
}

export async function runFollowing(): Promise<Row[]> {
  const sdk = await loadSdk();
  const service = child();
  try {
    const mock = await service.next('ready');
    const rows: Row[] = [];
    for (const variant of ['follower', 'waitForFinal'] as const) {
      rows.push(await phase(sdk, variant, service, mock));
    }
    table(
      `Following: ${COUNT} open payments, statuses changing over ${WINDOW_MS / 1000} s (2 changes each), mock over HTTP in a child process; sweep every ${SWEEP_INTERVAL_MS / 1000} s`,
      [
        'variant',
        'reported',
        'finals missing',
        'skipped',
        'dup',
        'reads',
        'status/held/list',
        'reads/change',
        'reads/payment/sweep',
        'sockets max',
        'delay p50',
        'delay p99',
        'delay max',
      ],
      rows.map((r) => [
        r.variant,
        `${r.reported}/${r.changes}`,
        String(r.missingFinals),
        String(r.skipped),
        String(r.duplicates),
        String(r.reads.total),
        `${r.reads.status}/${r.reads.held}/${r.reads.list}`,
        r.readsPerChange.toFixed(3),
        r.readsPerPaymentPerSweep.toFixed(4),
        String(r.maxSockets),
        fmt.ms(r.delayP50Ms),
        fmt.ms(r.delayP99Ms),
        fmt.ms(r.delayMaxMs),
      ]),
    );
    console.log(
      '  skipped: processing statuses that ended before a held read or a sweep saw them (a list shows only the current status); the final change then names the last status seen as previousStatus',
    );
    console.log(
      `  targets: follower sockets <= ${MAX_HELD_READS + 2}, < 0.05 reads per payment per sweep interval, every change within ${SWEEP_INTERVAL_MS + 1000} ms`,
    );
    return rows;
  } finally {
    service.send({ type: 'stop' });
  }
}
