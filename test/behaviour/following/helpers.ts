import type { PaymentCreated, PaymentStatusResult } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import {
  BASE_URL,
  gateway as client,
  createdFor,
  type GatewayFactory,
  lastOnConnection,
  useMsw,
} from '../../support';

export { BASE_URL };
export const PAYMENT_ID = 'pay_1';
export const MERCHANT_ID = 'mer_polling';

const FINAL = new Set(['succeeded', 'failed', 'expired', 'cancelled']);

/** A status read's body: `isFinal` from the documented final statuses unless `extra` says. */
export function result(status: string, extra: Record<string, unknown> = {}) {
  return { status, isFinal: FINAL.has(status), ...extra };
}

/** A creation result that is not final yet and asks for `pollInMs` between reads. */
export function created(overrides: Partial<PaymentCreated> = {}): PaymentCreated {
  return createdFor(PAYMENT_ID, overrides);
}

/** The tests' client factory with a merchant id: it polls GET /v1/payments/{id}/status. */
export const gateway: GatewayFactory = client.with({ merchantId: MERCHANT_ID });

/** One status read as the fake service saw it; times on the fake clock, from the test's start. */
export interface Read {
  /** When the read arrived. */
  at: number;
  /** When it was answered (later than `at` for a held read). */
  answeredAt?: number;
  /** `maxPollMs` of the query; undefined for an immediate read. */
  maxPollMs: number | undefined;
  path: string;
  merchantId: string | null;
}

type Entry = string | ({ status: string } & Record<string, unknown>);

const body = (entry: Entry) =>
  typeof entry === 'string' ? result(entry) : result(entry.status, entry);

/**
 * An msw server answering both status reads (merchant and gateway side) with fake timers on.
 * `state.reads` records every read. Answers come from `state.script`, set by `statuses` (the n-th
 * read gets the n-th entry at once, like a service that ignores maxPollMs) or `timeline` (a status
 * that changes at given times, held reads waiting for the change).
 */
export function useScriptedGateway() {
  const server = useMsw();
  const state = {
    reads: [] as Read[],
    start: 0,
    script: (_read: Read, _n: number): Response | Promise<Response> =>
      HttpResponse.json(result('requires_action')),
  };
  const now = () => Date.now() - state.start;
  beforeAll(async () => {
    // Node's fetch compiles its HTTP parser on first use, in real time: done before any fake clock
    // runs, the first read is not late.
    server.use(
      http.get(`${BASE_URL}/warm-up`, () =>
        lastOnConnection(new HttpResponse(null, { status: 204 })),
      ),
    );
    await fetch(`${BASE_URL}/warm-up`);
    server.resetHandlers();
  });
  beforeEach(() => {
    // Reads land exactly on the pace: the jitter that spreads many pollers is tested on its own.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    state.reads = [];
    state.start = Date.now();
    const answer = async ({ request }: { request: Request }) => {
      const url = new URL(request.url);
      const max = url.searchParams.get('maxPollMs');
      const read: Read = {
        at: now(),
        maxPollMs: max === null ? undefined : Number(max),
        path: url.pathname,
        merchantId: request.headers.get('merchant-id'),
      };
      state.reads.push(read);
      const response = await state.script(read, state.reads.length);
      read.answeredAt = now();
      return lastOnConnection(response);
    };
    server.use(
      http.get(`${BASE_URL}/v1/payments/:id/status`, answer),
      http.get(`${BASE_URL}/v1/gateway/payment/:id/status`, answer),
    );
  });
  afterEach(() => vi.useRealTimers());
  return {
    state,
    server,
    /** Start times of the reads. */
    get reads() {
      return state.reads.map((r) => r.at);
    },
    /** `i` for an immediate read, `h` for a held one, in order. */
    get kinds() {
      return state.reads.map((r) => (r.maxPollMs === undefined ? 'i' : 'h')).join('');
    },
    /** Answers the n-th read at once with the n-th entry, the last one repeating. */
    statuses(...list: Entry[]) {
      state.script = (_read, n) =>
        HttpResponse.json(body(list[Math.min(n, list.length) - 1] ?? 'requires_action'));
    },
    /**
     * The payment has each status from its time on (ms from the test's start). A held read waits
     * until the status changes or its maxPollMs passes (`holds: false`: answers at once).
     */
    timeline(changes: readonly (readonly [number, Entry])[], { holds = true } = {}) {
      const at = (t: number): Entry => {
        let current: Entry = changes[0]?.[1] ?? 'requires_action';
        for (const [from, entry] of changes) if (from <= t) current = entry;
        return current;
      };
      state.script = async (read) => {
        const status = (entry: Entry) => (typeof entry === 'string' ? entry : entry.status);
        if (holds && read.maxPollMs !== undefined && read.maxPollMs > 0) {
          const initial = status(at(read.at));
          const next = changes.find(([from, entry]) => from > read.at && status(entry) !== initial);
          const until = Math.min(
            read.at + read.maxPollMs,
            next ? next[0] : Number.POSITIVE_INFINITY,
          );
          await new Promise((resolve) => setTimeout(resolve, until - read.at));
        }
        return HttpResponse.json(body(at(now())));
      };
    },
  };
}

/** Collects the statuses `updates` yields, in the background, while the test goes on. */
export function collect(updates: AsyncIterable<PaymentStatusResult>) {
  const statuses: string[] = [];
  const done = (async () => {
    for await (const update of updates) statuses.push(update.status);
  })();
  done.catch(() => {});
  return { statuses, done };
}

/** Attaches a no-op catch so a rejection checked later is not reported as unhandled. */
export function settle<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

export { HttpResponse };
