/** `merchant-gateway relay`: flags, the state it keeps, and the run from start to drained stop. */
import {
  CLIENT_HELP,
  CLIENT_OPTIONS,
  type CliIo,
  clientOf,
  parse,
  readSecret,
  sweepInterval,
  UsageError,
} from '../io';
import { liveOf } from './envelope';
import { DEFAULT_RETRY_DELAYS_MS, Outbox } from './outbox';
import { Relay } from './relay';
import { FileStateStore, lockStateFile, type StateStore } from './state';
import { DELIVERY_TIMEOUT_MS, type RelayEvent, SecretFormatError, secretKey } from './webhook';

export const RELAY_USAGE = `Usage: merchant-gateway relay --forward-to URL [--secret FILE|-]
                              [--state FILE | --database-url postgres://...] [--sweep-interval MS]

Webhooks for a service that has none: follows every open payment of the partner (and each one
created while it runs, found by its sweeps) and POSTs one signed event per status change to URL,
per the Standard Webhooks specification (webhook-id, webhook-timestamp, webhook-signature), body
the service's own envelope { id: "evt_...", type: "payment.<status>" | "payment.settled",
api_version: "2026-05-18", created_at, data: the payment's snapshot } (webhook-id = id).

  --forward-to URL      where events are POSTed (http or https)
  --secret FILE|-       read the signing secret (whsec_ + base64 of 24 to 64 bytes) from FILE, or
                        from stdin with - (default env MERCHANT_GATEWAY_WEBHOOK_SECRET; never the
                        secret itself: it would stay in shell history)
  --state FILE          keep the follow and undelivered events in FILE (atomic writes): a restart
                        loses nothing; past 1,000 undelivered events the next ones spill to
                        FILE.spill-*.jsonl (without --state, to a temporary directory); FILE.lock
                        holds the relay's pid: a second relay on FILE is refused
  --database-url URL    keep them in PostgreSQL (pg-boss): several relays share the work, each
                        change delivered once between them
  --sweep-interval MS   how often the partner's list is read for new payments (default 5000)

A delivery not answered 2xx within 10 s is retried with the same webhook-id after 5, 10, 20, 40 and
80 s, then kept for the next start; one payment's events keep their order. 410 Gone stops the
relay. SIGTERM or Ctrl+C lets deliveries in flight end and saves the state.

${CLIENT_HELP}
`;

/** Undelivered events held in memory; the next ones spill to disk until deliveries catch up. */
const MAX_BACKLOG = 1_000;
/** Payments delivered to at once. */
const CONCURRENCY = 16;

export async function runRelay(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, {
    ...CLIENT_OPTIONS,
    'forward-to': { type: 'string' },
    secret: { type: 'string' },
    state: { type: 'string' },
    'database-url': { type: 'string' },
    'sweep-interval': { type: 'string' },
  });
  if (values.help) {
    io.stdout(RELAY_USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError('relay takes no arguments, only flags');
  const url = values['forward-to'];
  if (url === undefined) throw new UsageError('--forward-to URL is required');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new UsageError('--forward-to must be an http or https URL');
  }
  const shown = new URL(url);
  if (shown.username || shown.password) {
    // fetch refuses such a URL, and it would print a password in every line naming the receiver.
    throw new UsageError(
      '--forward-to must not hold a user or password: authenticate by the signature',
    );
  }
  const secret = await readSecret(values.secret, io, {
    flag: '--secret',
    env: 'MERCHANT_GATEWAY_WEBHOOK_SECRET',
    what: 'signing secret',
    missing:
      'no signing secret: set MERCHANT_GATEWAY_WEBHOOK_SECRET, or pass --secret FILE (a file holding it) or --secret - (read from stdin)',
  });
  try {
    secretKey(secret);
  } catch (error) {
    if (error instanceof SecretFormatError) throw new UsageError(error.message);
    throw error;
  }
  if (values.state !== undefined && values['database-url'] !== undefined) {
    throw new UsageError('--state and --database-url are exclusive: one place keeps the state');
  }
  const sweepIntervalMs = sweepInterval(values['sweep-interval']);
  const retryDelaysMs = retryDelays(io.env.MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS);
  const maxBacklog = Number(io.env.MERCHANT_GATEWAY_RELAY_MAX_BACKLOG) || MAX_BACKLOG;
  let live = false;
  const gateway = await clientOf(values, io, (apiKey) => {
    live = liveOf(apiKey);
  });
  const warn = (message: string) => io.stderr(`merchant-gateway relay: ${message}\n`);
  const report = (line: object) =>
    values.json
      ? io.stdout(`${JSON.stringify(line)}\n`)
      : io.stdout(
          `${Object.entries(line)
            .map(([k, v]) => (k === 'event' ? String(v) : `${k}=${v}`))
            .join(' ')}\n`,
        );

  let relay: Relay | undefined;
  let store: StateStore | undefined;
  let sink: ConstructorParameters<typeof Relay>[0]['sink'];
  let close = async () => {};
  let delivered = 0;
  const onDelivered = (event: RelayEvent) => {
    delivered++;
    report({
      event: 'delivered',
      id: event.id,
      type: event.type,
      paymentId: event.data.payment_id,
    });
  };
  const databaseUrl = values['database-url'];
  if (databaseUrl !== undefined) {
    const { connectPg } = await import('./pg');
    const pg = await connectPg({
      databaseUrl,
      url,
      secret,
      retryDelaysMs,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      concurrency: CONCURRENCY,
      warn,
      onDelivered,
      onGone: () => relay?.gone(),
    });
    store = pg.store;
    sink = pg.sink;
    close = pg.close;
  } else {
    store = values.state === undefined ? undefined : new FileStateStore(values.state);
    const outbox = new Outbox({
      url,
      secret,
      retryDelaysMs,
      concurrency: CONCURRENCY,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxHeld: maxBacklog,
      // Beside the state file; without one, a temporary directory (the backlog still leaves the heap).
      spillAt: values.state,
      warn,
      onSettled(event, ok) {
        if (ok) onDelivered(event);
        relay?.settled();
      },
      onGone: (event) => {
        warn(
          `${shown} answered 410 Gone to ${event.id}: no more deliveries; undelivered events stay in the state`,
        );
        relay?.gone();
      },
    });
    sink = outbox;
    close = () => outbox.close();
    if (values.state !== undefined) {
      // One relay per state file: a second is refused (the lock names the holder's pid).
      const unlock = await lockStateFile(values.state);
      close = async () => {
        await outbox.close();
        await unlock();
      };
    }
    if (store === undefined) {
      warn('no --state or --database-url: undelivered events are lost when the relay stops');
    }
  }
  relay = new Relay({
    gateway,
    sink,
    store,
    sweepIntervalMs,
    live,
    warn,
    onStarted: (followed, resumed) =>
      warn(
        `following ${followed} open payment${followed === 1 ? '' : 's'}${resumed ? ' (resumed)' : ''}, forwarding to ${shown}${store ? `, state in ${store.where}` : ''}`,
      ),
  });
  let peakHeap = 0;
  const sampleHeap = () => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  };
  const sampler = setInterval(sampleHeap, 1_000).unref();
  let end: Awaited<ReturnType<Relay['run']>>;
  try {
    end = await relay.run(io.stop);
  } finally {
    clearInterval(sampler);
    await close();
  }
  sampleHeap();
  warn(
    `stopped (${end.reason}): ${delivered} delivered, peak heap ${(peakHeap / 2 ** 20).toFixed(1)} MiB${store ? `, state saved in ${store.where}` : ''}`,
  );
  if (end.reason === 'failed') throw end.error;
  return end.reason === 'gone' ? 1 : 0;
}

/** The hidden test knob `MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS=100,200`: shorter waits for tests. */
function retryDelays(value: string | undefined): readonly number[] {
  if (value === undefined || value === '') return DEFAULT_RETRY_DELAYS_MS;
  const delays = value.split(',').map(Number);
  if (!delays.every((ms) => Number.isInteger(ms) && ms >= 0)) {
    throw new UsageError(
      'MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS must be whole milliseconds, comma-separated',
    );
  }
  return delays;
}
