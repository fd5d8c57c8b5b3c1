// Why: issue 34 asks what verifying one webhook delivery costs, beside the standardwebhooks
// library's verify on the same deliveries in the same run, as a ratio.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { paymentSettled, webhookBody } from '../test/support/webhook-fixtures';
import { fmt, median, root, table } from './common';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

type WebhooksEntry = typeof import('merchant-gateway/webhooks');

interface Row {
  body: string;
  op: string;
  wallUs: number;
  cpuUs: number;
}

export interface WebhooksResult {
  rows: Row[];
  ratios: { body: string; op: string; versus: string; wall: number; cpu: number }[];
}

/** Median per-call wall and CPU time of `calls` sequential runs of `fn`, over rounds. */
async function perCall(
  fn: () => Promise<unknown> | unknown,
): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < CALLS; i++) await fn();
    const used = process.cpuUsage(cpu);
    walls.push(((performance.now() - t) * 1000) / CALLS);
    cpus.push((used.user + used.system) / CALLS);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

export async function runWebhooks(): Promise<WebhooksResult> {
  const file = join(root, 'dist/webhooks.js');
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  const entry = (await import(pathToFileURL(file).href)) as WebhooksEntry;
  const webhooks = new entry.Webhooks({ secret: SECRET });
  const reference = new Webhook(SECRET);

  // A documented event (1.1 KB, as the service sends them), and one padded to 32 KB.
  const small = webhookBody(paymentSettled);
  const large = webhookBody({ ...paymentSettled, padding: 'x'.repeat(32 * 1024 - small.length) });
  const rows: Row[] = [];
  const ratios: WebhooksResult['ratios'] = [];
  for (const [label, body] of [
    [`${(small.length / 1024).toFixed(1)} KB event`, small],
    [`${(large.length / 1024).toFixed(0)} KB event`, large],
  ] as const) {
    const date = new Date();
    const headers = {
      'webhook-id': 'msg_bench',
      'webhook-timestamp': String(Math.floor(date.getTime() / 1000)),
      'webhook-signature': reference.sign('msg_bench', date, body),
    };
    // As a receiver gets it: the raw body's bytes, and the headers as a record.
    const bytes = Buffer.from(body);
    const ops: [string, () => unknown][] = [
      ['SDK verifySignature', () => webhooks.verifySignature(bytes, headers)],
      [
        'standardwebhooks verify (no JSON.parse)',
        () => reference.verify(bytes, headers, { jsonParse: false }),
      ],
      ['SDK unwrap (verify + parse + schema)', () => webhooks.unwrap(bytes, headers)],
      ['standardwebhooks verify (+ JSON.parse)', () => reference.verify(bytes, headers)],
    ];
    for (const [, fn] of ops) for (let i = 0; i < 500; i++) await fn();
    // Interleaved: each op measured once per pass, three passes, the median pass kept per op.
    const passes = new Map<string, { wall: number; cpu: number }[]>(ops.map(([op]) => [op, []]));
    for (let pass = 0; pass < 3; pass++) {
      for (const [op, fn] of ops) passes.get(op)?.push(await perCall(fn));
    }
    const of = (op: string) => {
      const runs = passes.get(op) ?? [];
      return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) };
    };
    for (const [op] of ops) rows.push({ body: label, op, wallUs: of(op).wall, cpuUs: of(op).cpu });
    for (const [op, versus] of [
      ['SDK verifySignature', 'standardwebhooks verify (no JSON.parse)'],
      ['SDK unwrap (verify + parse + schema)', 'standardwebhooks verify (+ JSON.parse)'],
    ] as const) {
      ratios.push({
        body: label,
        op,
        versus,
        wall: of(op).wall / of(versus).wall,
        cpu: of(op).cpu / of(versus).cpu,
      });
    }
  }
  table(
    `Webhook verification per delivery (${process.version}; ${ROUNDS} rounds × ${CALLS} sequential calls, median of 3 interleaved passes)`,
    ['body', 'op', 'wall', 'CPU'],
    rows.map((r) => [r.body, r.op, fmt.us(r.wallUs / 1000), fmt.us(r.cpuUs / 1000)]),
  );
  table(
    'Webhook verification, the SDK over standardwebhooks on the same deliveries',
    ['body', 'SDK', 'versus', 'wall', 'CPU'],
    ratios.map((r) => [r.body, r.op, r.versus, fmt.ratio(r.wall), fmt.ratio(r.cpu)]),
  );
  return { rows, ratios };
}
