import {
  AuthenticationError,
  type LegacyPaymentListParams,
  type Logger,
  RequestValidationError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { resetDeprecationWarnings } from '../../../src/core/deprecation';
import {
  API_KEY,
  BASE_URL,
  gateway,
  LEGACY_KEY,
  MERCHANT_URL,
  merchantGetBody,
  recorder,
  useMsw,
} from '../../support';
import {
  LEGACY_URL,
  LIST_URL,
  legacyItem,
  legacyPage,
  MERCHANT_ID,
  page,
  queries,
} from '../../support/list-fixtures';

const server = useMsw();
let emitWarning: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  resetDeprecationWarnings();
  // Keeps the test output clean and lets each test count the warnings.
  emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
});

/** Serves the legacy list; `respond` gets the 1-based number of the request. */
function legacyServer(
  respond: (n: number) => Response = () => HttpResponse.json(legacyPage([legacyItem(1)], null)),
) {
  const r = recorder((_, n) => respond(n));
  server.use(http.get(LEGACY_URL, r.resolver));
  return r;
}

describe('the request legacyPayments.list sends', () => {
  test('is a GET of /v1/merchants/{merchant_id}/payments with the id percent-encoded', async () => {
    const r = recorder(() => HttpResponse.json(legacyPage([], null)));
    server.use(http.get(`${BASE_URL}/v1/merchants/:id/payments`, r.resolver));
    await gateway().legacyPayments.list('mer 1/x');
    expect(new URL(r.seen[0]?.url ?? '').pathname).toBe('/v1/merchants/mer%201%2Fx/payments');
  });

  test('carries the legacy key as X-Api-Key and no Api-Key', async () => {
    const r = legacyServer();
    await gateway({ legacyApiKey: LEGACY_KEY }).legacyPayments.list(MERCHANT_ID);
    expect(r.seen[0]?.headers.get('x-api-key')).toBe(LEGACY_KEY);
    expect(r.seen[0]?.headers.has('api-key')).toBe(false);
  });

  test('falls back to the partner key as Api-Key when the client has no legacy key', async () => {
    vi.stubEnv('MERCHANT_GATEWAY_LEGACY_API_KEY', '');
    const r = legacyServer();
    await gateway().legacyPayments.list(MERCHANT_ID);
    expect(r.seen[0]?.headers.get('api-key')).toBe(API_KEY);
    expect(r.seen[0]?.headers.has('x-api-key')).toBe(false);
  });

  test('the legacy key is never sent to any other endpoint', async () => {
    const list = recorder(() => HttpResponse.json(page([], null)));
    const merchant = recorder(() => HttpResponse.json(merchantGetBody));
    server.use(http.get(LIST_URL, list.resolver), http.get(MERCHANT_URL, merchant.resolver));
    const client = gateway({ legacyApiKey: LEGACY_KEY, merchantId: MERCHANT_ID });
    await client.payments.list();
    await client.merchants.get('mer_1');
    for (const request of [...list.seen, ...merchant.seen]) {
      expect(request.headers.has('x-api-key')).toBe(false);
      expect(request.headers.get('api-key')).toBe(API_KEY);
      expect([...request.headers.values()].join('\n')).not.toContain(LEGACY_KEY);
    }
    expect(list.seen.length + merchant.seen.length).toBe(2);
  });

  test('every filter goes out under its snake_case wire name', async () => {
    const r = legacyServer();
    await gateway().legacyPayments.list(MERCHANT_ID, {
      start_ts: '2026-01-01T00:00:00Z',
      end_ts: new Date(Date.UTC(2026, 1, 1)),
      asset: 'USDC',
      network: '8453',
      sort_by: 'amount',
      sort_dir: 'desc',
      cursor: 'abc',
      limit: 200,
      status: ['processing', 'requires_action'],
    });
    expect([...(queries(r.seen)[0]?.entries() ?? [])]).toEqual([
      ['start_ts', '2026-01-01T00:00:00Z'],
      ['end_ts', '2026-02-01T00:00:00Z'],
      ['asset', 'USDC'],
      ['network', '8453'],
      ['sort_by', 'amount'],
      ['sort_dir', 'desc'],
      ['cursor', 'abc'],
      ['limit', '200'],
      ['status', 'processing'],
      ['status', 'requires_action'],
    ]);
  });

  test('iterating follows next_cursor and stops when it is absent', async () => {
    const cursors = ['c1', 'c2', undefined];
    const r = legacyServer((n) => HttpResponse.json(legacyPage([legacyItem(n)], cursors[n - 1])));
    const items = await gateway().legacyPayments.list(MERCHANT_ID).toArray({ limit: 100 });
    expect(items.map((p) => p.payment_id)).toEqual(['pay_1', 'pay_2', 'pay_3']);
    expect(queries(r.seen).map((q) => q.get('cursor'))).toEqual([null, 'c1', 'c2']);
  });

  test('await gives the first page with its snake_case stats', async () => {
    legacyServer();
    const first = await gateway().legacyPayments.list(MERCHANT_ID);
    expect(first.stats.total_revenue).toEqual({ amount: 12.5, currency: 'USD' });
    expect(first.next_cursor).toBeNull();
    expect(first.data[0]?.token_symbol).toBeNull();
  });
});

describe('legacy list authentication errors', () => {
  test.each([['missing_api_key'], ['invalid_api_key']])(
    'a 401 %s is an AuthenticationError carrying the code',
    async (code) => {
      const r = legacyServer(() => HttpResponse.json({ code, message: 'no' }, { status: 401 }));
      const error = await gateway({ legacyApiKey: LEGACY_KEY })
        .legacyPayments.list(MERCHANT_ID)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as AuthenticationError).code).toBe(code);
      expect((error as AuthenticationError).status).toBe(401);
      expect((error as Error).message).not.toContain(LEGACY_KEY);
      expect(r.seen).toHaveLength(1);
    },
  );
});

describe('legacyPayments.list checks its query before sending', () => {
  async function rejected(merchantId: string, params: unknown) {
    const r = legacyServer();
    const error = await gateway()
      .legacyPayments.list(merchantId, params as LegacyPaymentListParams)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(r.seen).toHaveLength(0);
    return (error as RequestValidationError).issues;
  }

  test.each([[0], [201], [1.5]])('limit %s is rejected', async (limit) => {
    expect(await rejected(MERCHANT_ID, { limit })).toEqual([
      { field: 'limit', message: 'must be an integer from 1 to 200' },
    ]);
  });

  test.each([[1], [200]])('limit %s is accepted', async (limit) => {
    const r = legacyServer();
    await gateway().legacyPayments.list(MERCHANT_ID, { limit });
    expect(queries(r.seen)[0]?.get('limit')).toBe(String(limit));
  });

  test.each([
    ['start_ts', '2026-02-29T00:00:00Z'],
    ['end_ts', '2025-04-31T10:00:00Z'],
    ['start_ts', '2026-01-01T00:00:00'],
    ['end_ts', new Date('nope')],
  ])('%s %s is rejected', async (field, value) => {
    const issues = await rejected(MERCHANT_ID, { [field]: value });
    expect(issues[0]?.field).toBe(field);
  });

  test('start_ts 2024-02-29 with an offset is accepted as it is', async () => {
    const r = legacyServer();
    await gateway().legacyPayments.list(MERCHANT_ID, { start_ts: '2024-02-29T12:00+05:30' });
    expect(queries(r.seen)[0]?.get('start_ts')).toBe('2024-02-29T12:00+05:30');
  });

  test.each([
    ['sort_by', 'created'],
    ['sort_dir', 'DESC'],
    ['status', 'cancelled'],
    ['status', ['failed', 'cancelled']],
    ['asset', ''],
    ['network', ''],
    ['cursor', ''],
  ])('%s %j is rejected', async (field, value) => {
    const issues = await rejected(MERCHANT_ID, { [field]: value });
    expect(issues[0]?.field).toBe(field);
  });

  test('camelCase names of the replacement list are rejected as unknown', async () => {
    const issues = await rejected(MERCHANT_ID, { startTs: '2026-01-01T00:00:00Z' });
    expect(issues[0]?.message).toMatch(/unknown field\(s\) startTs/);
  });

  test.each([[''], ['.'], ['..'], ['mer\n1']])('merchant id %j is rejected', async (id) => {
    const issues = await rejected(id, {});
    expect(issues[0]?.field).toBe('merchant_id');
  });
});

describe('the deprecation warning', () => {
  const MESSAGE = /legacyPayments\.list .* is deprecated .*use payments\.list instead/;

  test('is emitted once per process through process.emitWarning, however many calls', async () => {
    legacyServer();
    const client = gateway();
    for (let i = 0; i < 5; i++) await client.legacyPayments.list(MERCHANT_ID);
    await gateway().legacyPayments.list(MERCHANT_ID);
    expect(emitWarning).toHaveBeenCalledTimes(1);
    expect(emitWarning).toHaveBeenCalledWith(expect.stringMatching(MESSAGE), {
      type: 'DeprecationWarning',
      code: 'MERCHANT_GATEWAY_LEGACY_LIST',
    });
  });

  test('goes to a configured logger instead, once, even with logging off', async () => {
    legacyServer();
    const logger: Logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const client = gateway({ logger, logLevel: 'off' });
    for (let i = 0; i < 3; i++) await client.legacyPayments.list(MERCHANT_ID);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringMatching(MESSAGE) }),
      expect.stringMatching(MESSAGE),
    );
    expect(emitWarning).not.toHaveBeenCalled();
  });

  test('is not repeated by a later client that has a logger', async () => {
    legacyServer();
    await gateway().legacyPayments.list(MERCHANT_ID);
    const logger: Logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    await gateway({ logger }).legacyPayments.list(MERCHANT_ID);
    expect(emitWarning).toHaveBeenCalledTimes(1);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  test('is emitted when the call is made, even if its input is then rejected', async () => {
    const error = await gateway()
      .legacyPayments.list(MERCHANT_ID, { limit: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(emitWarning).toHaveBeenCalledTimes(1);
  });

  test('is not emitted by the replacement list', async () => {
    server.use(http.get(LIST_URL, () => HttpResponse.json(page([], null))));
    await gateway({ merchantId: MERCHANT_ID }).payments.list();
    expect(emitWarning).not.toHaveBeenCalled();
  });

  describe('where process.emitWarning does not exist', () => {
    const original = process.emitWarning;
    beforeEach(() => {
      // @ts-expect-error: simulating a runtime without Node's process.emitWarning
      process.emitWarning = undefined;
    });
    afterEach(() => {
      process.emitWarning = original;
    });

    test('falls back to console.warn, once', async () => {
      legacyServer();
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      await gateway().legacyPayments.list(MERCHANT_ID);
      await gateway().legacyPayments.list(MERCHANT_ID);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(MESSAGE));
    });
  });
});
