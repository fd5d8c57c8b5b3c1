import {
  AuthenticationError,
  MerchantGateway,
  NotFoundError,
  type PaymentCreated,
  type PaymentFollower,
  type PaymentFollowerOptions,
  type PaymentStatusChange,
  PollTimeoutError,
  RequestValidationError,
  ServerError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_KEY, BASE_URL, createdFor, lastOnConnection, polluted, useMsw } from '../../support';

const MERCHANT = 'mer_follow';
const FINAL = new Set(['succeeded', 'failed', 'expired', 'cancelled']);

/**
 * A scripted service on msw under fake timers: `status` is what a status read answers (a held
 * read waits for a change or its maxPollMs), `listed` what the partner-wide list shows when it
 * differs (a 2026-02-18 service shows a cancelled payment as failed). Every request is recorded.
 */
const server = useMsw();
const service = {
  status: new Map<string, string>(),
  listed: new Map<string, string>(),
  created: new Map<string, number>(),
  requests: [] as { kind: 'status' | 'held' | 'list'; id?: string; url: URL; at: number }[],
  fail: undefined as ((kind: 'status' | 'list', id?: string) => Response | undefined) | undefined,
  wake: new Set<() => void>(),
};

function set(id: string, status: string, listed?: string) {
  service.status.set(id, status);
  if (listed === undefined) service.listed.delete(id);
  else service.listed.set(id, listed);
  if (!service.created.has(id)) service.created.set(id, Date.now());
  for (const wake of [...service.wake]) wake();
}

const kinds = (kind: string) => service.requests.filter((r) => r.kind === kind);

beforeAll(async () => {
  server.use(http.get(`${BASE_URL}/warm-up`, () => lastOnConnection(new HttpResponse(null))));
  await fetch(`${BASE_URL}/warm-up`);
  server.resetHandlers();
  // The follower loads its engine with import() on first use, in real time: done before any fake
  // clock runs.
  const warm = gateway().payments.follower();
  const first = warm[Symbol.asyncIterator]().next();
  warm.close();
  await first;
});

beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  service.status.clear();
  service.listed.clear();
  service.created.clear();
  service.requests = [];
  service.fail = undefined;
  server.use(
    http.get(`${BASE_URL}/v1/payments/:id/status`, async ({ request, params }) => {
      const id = String(params.id);
      const url = new URL(request.url);
      const max = Number(url.searchParams.get('maxPollMs') ?? 0);
      service.requests.push({ kind: max > 0 ? 'held' : 'status', id, url, at: Date.now() });
      const failed = service.fail?.('status', id);
      if (failed) return lastOnConnection(failed);
      const status = service.status.get(id);
      if (status === undefined) {
        return lastOnConnection(
          HttpResponse.json({ code: 'payment_not_found', message: 'no' }, { status: 404 }),
        );
      }
      if (max > 0 && !FINAL.has(status)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            service.wake.delete(wake);
            request.signal.removeEventListener('abort', done);
            resolve();
          };
          const wake = () => service.status.get(id) !== status && done();
          const timer = setTimeout(done, max);
          service.wake.add(wake);
          request.signal.addEventListener('abort', done);
        });
      }
      const now = service.status.get(id) as string;
      return lastOnConnection(
        HttpResponse.json({
          status: now,
          isFinal: FINAL.has(now),
          ...(FINAL.has(now) ? {} : { pollInMs: 1000 }),
          ...(now === 'failed' ? { failureCode: 'declined_user' } : {}),
        }),
      );
    }),
    http.get(`${BASE_URL}/v1/payments`, ({ request }) => {
      const url = new URL(request.url);
      service.requests.push({ kind: 'list', url, at: Date.now() });
      const failed = service.fail?.('list');
      if (failed) return lastOnConnection(failed);
      const limit = Number(url.searchParams.get('limit'));
      const from = Number(url.searchParams.get('cursor') ?? 0);
      const ids = [...service.status.keys()].sort(
        (a, b) => (service.created.get(b) ?? 0) - (service.created.get(a) ?? 0),
      );
      const data = ids.slice(from, from + limit).map((id) => {
        const status = service.listed.get(id) ?? (service.status.get(id) as string);
        return {
          paymentId: id,
          merchant: { id: MERCHANT },
          referenceId: `ref-${id}`,
          status,
          isTerminal: FINAL.has(status),
          createdAt: new Date(service.created.get(id) ?? 0).toISOString(),
          lastUpdatedAt: new Date().toISOString(),
        };
      });
      const next = from + limit < ids.length ? String(from + limit) : null;
      return lastOnConnection(
        HttpResponse.json({
          data,
          nextCursor: next,
          stats: { totalRevenue: [], totalTransactions: ids.length, totalCustomers: 0 },
        }),
      );
    }),
  );
});

afterEach(() => {
  for (const follower of open.splice(0)) follower.close();
  vi.useRealTimers();
});

/** Every follower a test made: closed after it, so a failing test leaves none running. */
const open: PaymentFollower[] = [];

function gateway(options: ConstructorParameters<typeof MerchantGateway>[0] = {}) {
  const client = new MerchantGateway({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    merchantId: MERCHANT,
    ...options,
  });
  const follower = client.payments.follower.bind(client.payments);
  client.payments.follower = (followerOptions) => {
    const made = follower(followerOptions);
    open.push(made);
    return made;
  };
  return client;
}

function created(id: string, status = 'requires_action'): PaymentCreated {
  set(id, status);
  return createdFor(id, { status });
}

/** Pulls changes in the background; `changes` fills as fake time advances. */
/** Adds `pay_ok`, whose first status read fails with a 502, and `pay_missing`, never created. */
function addOneFlakyOneMissing(follower: PaymentFollower): void {
  set('pay_ok', 'requires_action');
  let failures = 1;
  service.fail = (kind, id) =>
    kind === 'status' && id === 'pay_ok' && failures-- > 0
      ? HttpResponse.json({ code: 'bad_gateway', message: 'proxy' }, { status: 502 })
      : undefined;
  follower.add('pay_ok');
  follower.add('pay_missing');
}

/** A follower whose `onError` collects every error it is given into `errors`. */
function followCollectingErrors(
  options: Omit<PaymentFollowerOptions, 'onError'>,
  client = gateway(),
): { follower: PaymentFollower; errors: unknown[] } {
  const errors: unknown[] = [];
  const follower = client.payments.follower({ ...options, onError: (error) => errors.push(error) });
  return { follower, errors };
}

function drain(follower: AsyncIterable<PaymentStatusChange>) {
  const changes: PaymentStatusChange[] = [];
  const result: { error?: unknown; ended: boolean } = { ended: false };
  const done = (async () => {
    for await (const change of follower) changes.push(change);
  })().then(
    () => {
      result.ended = true;
    },
    (error: unknown) => {
      result.error = error;
      result.ended = true;
    },
  );
  return { changes, result, done };
}

/** Real turns of the event loop: an aborted read settles through msw's interceptor in them. */
async function settled() {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

function issuesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    return (error as RequestValidationError).issues.map((i) => i.field);
  }
  throw new Error('did not throw');
}

describe('payments.follower: input', () => {
  it('names every bad option before anything is sent', () => {
    const fields = issuesOf(() =>
      gateway().payments.follower({
        maxHeldReads: -1,
        sweepIntervalMs: 10,
        timeoutMs: 0,
        onError: 'log' as never,
        signal: {} as never,
        resumeFrom: {
          version: 1,
          payments: [{ paymentId: 'pay_1', merchantId: MERCHANT }],
        } as never,
      }),
    );
    expect(fields).toEqual([
      'maxHeldReads',
      'sweepIntervalMs',
      'timeoutMs',
      'onError',
      'signal',
      'resumeFrom.payments.0.deadlineAt',
    ]);
    expect(service.requests).toEqual([]);
  });

  it('is refused to an app-scheme client, which has no list to sweep', () => {
    const app = new MerchantGateway({ baseUrl: BASE_URL, appId: 'app_1', clientId: 'client_1' });
    expect(issuesOf(() => app.payments.follower())).toEqual(['apiKey']);
  });

  it('add checks the payment id and its merchant, and adding one twice changes nothing', async () => {
    const follower = gateway().payments.follower();
    expect(issuesOf(() => follower.add(''))).toEqual(['paymentId']);
    expect(issuesOf(() => follower.add('a'.repeat(256)))).toEqual(['paymentId']);
    expect(issuesOf(() => follower.add({ paymentId: 'pay_1', merchantId: 'has space' }))).toEqual([
      'merchantId',
    ]);
    expect(issuesOf(() => follower.add(42 as never))).toEqual(['payment']);
    const noMerchant = new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY });
    expect(issuesOf(() => noMerchant.payments.follower().add('pay_1'))).toEqual(['merchantId']);
    set('pay_1', 'requires_action');
    follower.add('pay_1');
    follower.add({ paymentId: 'pay_1' });
    expect(follower.size).toBe(1);
    // An already final PaymentCreated has no change left to report: not followed.
    follower.add({ ...created('pay_2'), status: 'succeeded', isFinal: true });
    expect(follower.size).toBe(1);
    follower.remove('pay_1');
    follower.remove('pay_unknown');
    expect(follower.size).toBe(0);
    follower.close();
  });
});

describe('payments.follower: what it reads and reports', () => {
  it('yields the first status read of a payment added by id, not the status of a PaymentCreated', async () => {
    set('pay_id', 'requires_action');
    const follower = gateway().payments.follower({ maxHeldReads: 0 });
    follower.add('pay_id');
    follower.add(created('pay_created'));
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(100);
    expect(run.changes.map((c) => [c.paymentId, c.previousStatus, c.status])).toEqual([
      ['pay_id', undefined, 'requires_action'],
    ]);
    follower.close();
    await run.done;
  });

  it('reports open statuses and unambiguous final ones from the list, and confirms a failed one with one status read', async () => {
    const follower = gateway().payments.follower({ maxHeldReads: 0, sweepIntervalMs: 1000 });
    follower.add(created('pay_a'));
    follower.add(created('pay_b'));
    follower.add(created('pay_c'));
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(10);
    // pay_a pays; pay_b is cancelled, which a 2026-02-18 list shows as failed; pay_c succeeds.
    set('pay_a', 'processing');
    set('pay_b', 'cancelled', 'failed');
    set('pay_c', 'succeeded');
    await vi.advanceTimersByTimeAsync(1000);
    expect(
      run.changes.map((c) => [c.paymentId, c.previousStatus, c.status, c.isFinal]).sort(),
    ).toEqual([
      ['pay_a', 'requires_action', 'processing', false],
      ['pay_b', 'requires_action', 'cancelled', true],
      ['pay_c', 'requires_action', 'succeeded', true],
    ]);
    const results = Object.fromEntries(run.changes.map((c) => [c.paymentId, c.result]));
    expect(results.pay_a).toEqual({ status: 'processing', isFinal: false });
    expect(results.pay_c).toEqual({ status: 'succeeded', isFinal: true });
    expect(kinds('status').map((r) => r.id)).toEqual(['pay_b']);
    expect(follower.size).toBe(1);
    follower.close();
    await run.done;
  });

  it('sweeps newest first, 200 a page, from the oldest creation it knows, naming its merchants, and stops once it has seen them all', async () => {
    for (let i = 0; i < 450; i++) set(`pay_old${i}`, 'requires_action');
    await vi.advanceTimersByTimeAsync(1000);
    const follower = gateway().payments.follower({ maxHeldReads: 0, sweepIntervalMs: 5000 });
    for (let i = 0; i < 250; i++) follower.add(created(`pay_new${i}`));
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(100);
    const lists = kinds('list').map((r) => r.url.searchParams);
    // 250 followed payments, the newest 250 of 700: two pages, then it stops.
    expect(lists.map((q) => q.get('cursor'))).toEqual([null, '200']);
    const [first] = lists;
    expect(first?.get('limit')).toBe('200');
    expect(first?.get('sortBy')).toBe('date');
    expect(first?.get('sortDir')).toBe('desc');
    expect(first?.getAll('merchantId')).toEqual([MERCHANT]);
    // A PaymentCreated was created at most 10 minutes (clock skew) before it was added.
    expect(Date.parse(first?.get('startTs') ?? '')).toBeGreaterThanOrEqual(
      Date.now() - 12 * 60_000,
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(kinds('list')).toHaveLength(4);
    follower.close();
    await run.done;
  });

  it('keeps at most maxHeldReads held reads open, on payments in processing first, then the newest', async () => {
    const follower = gateway().payments.follower({ maxHeldReads: 2, sweepIntervalMs: 60_000 });
    follower.add(created('pay_1'));
    follower.add(created('pay_2', 'processing'));
    follower.add(created('pay_3'));
    follower.add(created('pay_4'));
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(100);
    expect(kinds('held').map((r) => r.id)).toEqual(['pay_2', 'pay_4']);
    set('pay_4', 'processing');
    await vi.advanceTimersByTimeAsync(0);
    expect(run.changes.map((c) => [c.paymentId, c.status])).toEqual([['pay_4', 'processing']]);
    // Never faster than pollInMs: pay_4's slot reads again a second after its read started.
    await vi.advanceTimersByTimeAsync(1000);
    expect(kinds('held').map((r) => r.id)).toEqual(['pay_2', 'pay_4', 'pay_4']);
    expect(kinds('held').every((r) => r.url.searchParams.get('maxPollMs') === '30000')).toBe(true);
    follower.close();
    await run.done;
  });
});

describe('payments.follower: failures', () => {
  it('a sweep that fails transiently is reported to onError and retried after a backoff; the follower goes on', async () => {
    const errors: [unknown, string | undefined][] = [];
    const follower = gateway({ maxRetries: 0 }).payments.follower({
      maxHeldReads: 0,
      sweepIntervalMs: 1000,
      onError: (error, id) => errors.push([error, id]),
    });
    follower.add(created('pay_1'));
    let failures = 2;
    service.fail = (kind) =>
      kind === 'list' && failures-- > 0
        ? HttpResponse.json({ code: 'internal_error', message: 'down' }, { status: 503 })
        : undefined;
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(100);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toBeInstanceOf(ServerError);
    expect(errors[0]?.[1]).toBeUndefined();
    set('pay_1', 'processing');
    // Backoff: 1 s after the first failure, 2 s after the second, then the sweep works.
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors).toHaveLength(2);
    expect(run.changes).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(run.changes.map((c) => c.status)).toEqual(['processing']);
    expect(kinds('list').map((r) => r.at - (kinds('list')[0]?.at ?? 0))).toEqual([0, 1000, 3000]);
    expect(run.result.ended).toBe(false);
    follower.close();
    await run.done;
  });

  it('a read that fails transiently is retried; one that fails permanently makes that payment leave, through onError', async () => {
    const errors: [unknown, string | undefined][] = [];
    const follower = gateway({ maxRetries: 0 }).payments.follower({
      maxHeldReads: 0,
      onError: (error, id) => errors.push([error, id]),
    });
    addOneFlakyOneMissing(follower);
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(2000);
    expect(errors.map(([e, id]) => [(e as Error).name, id])).toEqual([
      ['ServerError', 'pay_ok'],
      ['NotFoundError', 'pay_missing'],
    ]);
    expect(errors[1]?.[0]).toBeInstanceOf(NotFoundError);
    expect(run.changes.map((c) => [c.paymentId, c.status])).toEqual([
      ['pay_ok', 'requires_action'],
    ]);
    expect(follower.size).toBe(1);
    follower.close();
    await run.done;
  });

  it('onError says whether the payment left: a transient failure stays, a 404 and a timeout leave; has() agrees', async () => {
    const seen: [string, string | undefined, boolean, boolean][] = [];
    let follower: PaymentFollower | undefined;
    follower = gateway({ maxRetries: 0 }).payments.follower({
      maxHeldReads: 0,
      timeoutMs: 10_000,
      onError: (error, id, { left }) => {
        seen.push([error.name, id, left, id === undefined ? false : (follower?.has(id) ?? false)]);
      },
    });
    addOneFlakyOneMissing(follower);
    expect(follower.has('pay_ok')).toBe(true);
    expect(follower.has('pay_missing')).toBe(true);
    expect(follower.has('pay_never_added')).toBe(false);
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(2000);
    expect(seen).toEqual([
      ['ServerError', 'pay_ok', false, true],
      ['NotFoundError', 'pay_missing', true, false],
    ]);
    expect(follower.has('pay_ok')).toBe(true);
    expect(follower.has('pay_missing')).toBe(false);
    await vi.advanceTimersByTimeAsync(8000);
    expect(seen[2]).toEqual(['PollTimeoutError', 'pay_ok', true, false]);
    expect(follower.has('pay_ok')).toBe(false);
    follower.close();
    await run.done;
  });

  it('a sweep that fails tells onError no payment left', async () => {
    const seen: [string | undefined, boolean][] = [];
    const follower = gateway({ maxRetries: 0 }).payments.follower({
      maxHeldReads: 0,
      onError: (_error, id, { left }) => seen.push([id, left]),
    });
    follower.add(created('pay_1'));
    service.fail = (kind) =>
      kind === 'list'
        ? HttpResponse.json({ code: 'internal_error', message: 'down' }, { status: 503 })
        : undefined;
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(100);
    expect(seen).toEqual([[undefined, false]]);
    expect(follower.has('pay_1')).toBe(true);
    follower.close();
    await run.done;
  });

  it('a held read is one attempt: a 502 is not retried by the transport with the same long hold', async () => {
    const { follower, errors } = followCollectingErrors(
      { maxHeldReads: 1, sweepIntervalMs: 60_000 },
      gateway({ maxRetries: 3 }),
    );
    let failures = 4;
    service.fail = (kind) =>
      kind === 'status' && failures-- > 0
        ? HttpResponse.json({ code: 'bad_gateway', message: 'proxy' }, { status: 502 })
        : undefined;
    follower.add(created('pay_held'));
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(500);
    expect(kinds('held')).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ServerError);
    follower.close();
    await run.done;
  });

  it('sweeps send no filter inherited from a polluted Object.prototype, and go on', async () => {
    const { follower, errors } = followCollectingErrors({ maxHeldReads: 0, sweepIntervalMs: 1000 });
    follower.add(created('pay_1'));
    const run = drain(follower);
    await polluted(
      {
        cursor: '999',
        referenceId: 'order-evil',
        startTs: '2020-01-01T00:00:00Z',
        endTs: '2020-01-02T00:00:00Z',
        network: 'eip155:1',
        tokenSymbol: 'EVIL',
      },
      async () => {
        await vi.advanceTimersByTimeAsync(100);
        set('pay_1', 'processing');
        await vi.advanceTimersByTimeAsync(1000);
      },
    );
    const names = kinds('list').map((r) => [...new Set(r.url.searchParams.keys())].sort());
    expect(names.length).toBeGreaterThanOrEqual(2);
    for (const list of names) {
      expect(
        list.filter((n) => !['merchantId', 'sortBy', 'sortDir', 'limit', 'startTs'].includes(n)),
      ).toEqual([]);
    }
    for (const r of kinds('list'))
      expect(r.url.searchParams.get('startTs')).not.toBe('2020-01-01T00:00:00Z');
    expect(errors).toEqual([]);
    expect(follower.closed).toBe(false);
    expect(run.changes.map((c) => c.status)).toEqual(['processing']);
    follower.close();
    await run.done;
  });

  it('a payment past its timeoutMs leaves through onError with a PollTimeoutError naming it', async () => {
    const { follower, errors } = followCollectingErrors({ maxHeldReads: 0, timeoutMs: 10_000 });
    follower.add(created('pay_slow'));
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors).toHaveLength(1);
    const [error] = errors as PollTimeoutError[];
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error?.paymentId).toBe('pay_slow');
    expect(error?.lastStatus?.status).toBe('requires_action');
    expect(follower.size).toBe(0);
    expect(run.result.ended).toBe(false); // empty for now, not ended
    follower.close();
    await run.done;
  });

  it('a permanent sweep failure (the key refused) ends the iteration with that error', async () => {
    service.fail = (kind) =>
      kind === 'list'
        ? HttpResponse.json({ code: 'invalid_api_key', message: 'no' }, { status: 401 })
        : undefined;
    const follower = gateway().payments.follower({ maxHeldReads: 0 });
    follower.add(created('pay_1'));
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(100);
    expect(run.result.error).toBeInstanceOf(AuthenticationError);
    expect(follower.closed).toBe(true);
  });
});

describe('payments.follower: ending', () => {
  // msw's interceptor keeps a timer of its own for each aborted request: no held reads here, so
  // every timer left would be the follower's.
  it('close() ends the iteration and leaves no timer and no read behind', async () => {
    const follower = gateway().payments.follower({ maxHeldReads: 0, sweepIntervalMs: 1000 });
    for (let i = 0; i < 5; i++) follower.add(created(`pay_${i}`));
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(2500);
    follower.close();
    await run.done;
    expect(run.result).toEqual({ ended: true });
    const sent = service.requests.length;
    await settled();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(service.requests.length).toBe(sent);
  });

  it('breaking out of the loop closes the follower', async () => {
    set('pay_1', 'requires_action');
    const follower = gateway().payments.follower();
    follower.add('pay_1');
    for await (const change of follower) {
      expect(change.status).toBe('requires_action');
      break;
    }
    expect(follower.closed).toBe(true);
    await settled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('its signal aborting closes it, and the iteration rejects with the reason', async () => {
    const controller = new AbortController();
    const follower = gateway().payments.follower({ signal: controller.signal, maxHeldReads: 0 });
    follower.add(created('pay_1'));
    const run = drain(follower);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort('shutting down');
    await run.done;
    expect(run.result.error).toBe('shutting down');
    expect(follower.closed).toBe(true);
    await settled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a checkpoint records the last status yielded, not one still waiting to be', async () => {
    const follower = gateway().payments.follower({ maxHeldReads: 0, sweepIntervalMs: 1000 });
    follower.add(created('pay_1'));
    const iterator = follower[Symbol.asyncIterator]();
    await vi.advanceTimersByTimeAsync(10);
    set('pay_1', 'processing');
    await vi.advanceTimersByTimeAsync(1000); // learned, not yet yielded
    expect(follower.checkpoint().payments.map((p) => p.status)).toEqual(['requires_action']);
    await expect(iterator.next()).resolves.toMatchObject({ value: { status: 'processing' } });
    const checkpoint = JSON.parse(JSON.stringify(follower.checkpoint()));
    expect(checkpoint).toEqual({
      version: 1,
      payments: [
        {
          paymentId: 'pay_1',
          merchantId: MERCHANT,
          status: 'processing',
          createdAt: expect.any(Number),
          notBefore: expect.any(Number),
          deadlineAt: expect.any(Number),
        },
      ],
    });
    follower.close();
  });
});
