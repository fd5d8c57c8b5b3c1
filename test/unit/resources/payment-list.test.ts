import {
  type PaymentListParams,
  RequestValidationError,
  ResponseValidationError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { API_KEY, gateway, recorder, useMsw } from '../../support';
import { LIST_URL, MERCHANT_ID, page, paymentItem, queries } from '../../support/list-fixtures';

const server = useMsw();

/** Calls payments.list with `params` and returns what was sent, or the error and a request count. */
async function send(params: PaymentListParams, options: { merchantId?: string } = {}) {
  const r = recorder(() => HttpResponse.json(page([], null)));
  server.use(http.get(LIST_URL, r.resolver));
  const client = gateway({ maxRetries: 0, ...options });
  const result = await client.payments.list(params).catch((e: unknown) => e);
  return { result, seen: r.seen, query: queries(r.seen)[0] };
}

async function rejected(params: unknown) {
  const { result, seen } = await send(params as PaymentListParams, { merchantId: MERCHANT_ID });
  expect(result).toBeInstanceOf(RequestValidationError);
  expect(seen).toHaveLength(0);
  return (result as RequestValidationError).issues;
}

async function accepted(params: PaymentListParams): Promise<URLSearchParams> {
  const { result, query } = await send(params, { merchantId: MERCHANT_ID });
  expect(result).not.toBeInstanceOf(Error);
  if (!query) throw new Error('no request was sent');
  return query;
}

describe('the request payments.list sends', () => {
  test('is a GET of /v1/merchants/payments with Api-Key and Merchant-Id headers', async () => {
    const { seen } = await send({}, { merchantId: 'mer_client' });
    expect(seen[0]?.method).toBe('GET');
    expect(new URL(seen[0]?.url ?? '').pathname).toBe('/v1/merchants/payments');
    expect(seen[0]?.headers.get('api-key')).toBe(API_KEY);
    expect(seen[0]?.headers.get('merchant-id')).toBe('mer_client');
    expect(new URL(seen[0]?.url ?? '').search).toBe('');
  });

  test("the call's merchantId wins over the client's and is never in the query", async () => {
    const { seen, query } = await send({ merchantId: 'mer_call' }, { merchantId: 'mer_client' });
    expect(seen[0]?.headers.get('merchant-id')).toBe('mer_call');
    expect(query?.has('merchantId')).toBe(false);
  });

  test('no merchant id in the call or the client is a RequestValidationError, nothing sent', async () => {
    const { result, seen } = await send({});
    expect(result).toBeInstanceOf(RequestValidationError);
    expect((result as RequestValidationError).issues[0]?.field).toBe('merchantId');
    expect(seen).toHaveLength(0);
  });

  test('a merchant id with a line break is a RequestValidationError, nothing sent', async () => {
    const { result, seen } = await send({ merchantId: 'mer_1\r\nX-Evil: 1' });
    expect(result).toBeInstanceOf(RequestValidationError);
    expect(seen).toHaveLength(0);
  });

  test('every filter goes out under its wire name, the token symbol snake_case', async () => {
    const query = await accepted({
      startTs: '2026-01-01T00:00:00Z',
      endTs: '2026-02-01T00:00:00+02:00',
      tokenSymbol: ['USDC', 'USDT'],
      network: 'eip155:8453,eip155:1',
      sortBy: 'amount',
      sortDir: 'asc',
      cursor: 'abc',
      limit: 37,
      status: ['succeeded', 'failed'],
      referenceId: 'order-1',
    });
    expect([...query.entries()]).toEqual([
      ['startTs', '2026-01-01T00:00:00Z'],
      ['endTs', '2026-02-01T00:00:00+02:00'],
      ['token_symbol', 'USDC'],
      ['token_symbol', 'USDT'],
      ['network', 'eip155:8453,eip155:1'],
      ['sortBy', 'amount'],
      ['sortDir', 'asc'],
      ['cursor', 'abc'],
      ['limit', '37'],
      ['status', 'succeeded'],
      ['status', 'failed'],
      ['referenceId', 'order-1'],
    ]);
  });

  test('a single status or token symbol is sent once', async () => {
    const query = await accepted({ status: 'expired', tokenSymbol: 'ETH' });
    expect(query.getAll('status')).toEqual(['expired']);
    expect(query.getAll('token_symbol')).toEqual(['ETH']);
  });

  test('a Date is sent as ISO 8601 in UTC to the second', async () => {
    const query = await accepted({
      startTs: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
      endTs: new Date('2026-03-01T00:00:00+01:00'),
    });
    expect(query.get('startTs')).toBe('2026-01-02T03:04:05Z');
    expect(query.get('endTs')).toBe('2026-02-28T23:00:00Z');
  });
});

describe('payments.list checks its query before sending', () => {
  test.each([[1], [200], [37]])('limit %s is accepted', async (limit) => {
    expect((await accepted({ limit })).get('limit')).toBe(String(limit));
  });

  test.each([[0], [201], [1.5], [-1], [Number.NaN], ['20']])(
    'limit %s is rejected',
    async (limit) => {
      expect(await rejected({ limit })).toEqual([
        { field: 'limit', message: 'must be an integer from 1 to 200' },
      ]);
    },
  );

  test.each([
    ['2024-02-29T00:00:00Z'],
    ['2026-01-31T23:59:59.123Z'],
    ['2026-01-01T10:00+02:00'],
    ['2026-01-01T10:00:00-0530'],
  ])('startTs %s is accepted and sent as it is', async (startTs) => {
    expect((await accepted({ startTs })).get('startTs')).toBe(startTs);
  });

  test.each([
    ['2026-02-29T00:00:00Z', 'not a leap year'],
    ['2025-04-31T00:00:00Z', 'April has 30 days'],
    ['2026-01-01T00:00:00', 'no Z or offset'],
    ['2026-01-01', 'no time'],
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-01-01T24:00:00Z', 'hour 24'],
    ['yesterday', 'not a date'],
  ])('startTs %s is rejected (%s)', async (startTs) => {
    const issues = await rejected({ startTs });
    expect(issues[0]?.field).toBe('startTs');
    expect(issues[0]?.message).toMatch(/ISO 8601/);
  });

  test('an invalid Date is rejected', async () => {
    const issues = await rejected({ endTs: new Date('not a date') });
    expect(issues).toEqual([
      { field: 'endTs', message: 'must be an ISO 8601 date-time string or a valid Date' },
    ]);
  });

  test.each([['date'], ['amount']])('sortBy %s is accepted', async (sortBy) => {
    expect((await accepted({ sortBy: sortBy as 'date' })).get('sortBy')).toBe(sortBy);
  });

  test.each([['created'], ['Date'], ['']])('sortBy %j is rejected', async (sortBy) => {
    expect(await rejected({ sortBy })).toEqual([
      { field: 'sortBy', message: 'must be "date" or "amount"' },
    ]);
  });

  test.each([['asc'], ['desc']])('sortDir %s is accepted', async (sortDir) => {
    expect((await accepted({ sortDir: sortDir as 'asc' })).get('sortDir')).toBe(sortDir);
  });

  test.each([['ASC'], ['up']])('sortDir %j is rejected', async (sortDir) => {
    expect(await rejected({ sortDir })).toEqual([
      { field: 'sortDir', message: 'must be "asc" or "desc"' },
    ]);
  });

  test.each([
    ['requires_action'],
    ['processing'],
    ['succeeded'],
    ['failed'],
    ['expired'],
    ['cancelled'],
  ])('status %s is accepted', async (status) => {
    expect((await accepted({ status: status as 'failed' })).getAll('status')).toEqual([status]);
  });

  test.each([
    ['an array holding an unknown status', ['succeeded', 'refunded']],
    ['an empty array', []],
    ['an unknown status', 'pending'],
  ])('status as %s is rejected', async (_, status) => {
    const issues = await rejected({ status });
    expect(issues[0]?.field).toBe('status');
    expect(issues[0]?.message).toMatch(
      /requires_action, processing, succeeded, failed, expired, cancelled/,
    );
  });

  test.each([
    ['abc', '3 characters'],
    ['a'.repeat(35), '35 characters'],
    ['ORD 1/2:3.4,5+6-7', 'every allowed punctuation'],
  ])('referenceId %j is accepted (%s)', async (referenceId) => {
    expect((await accepted({ referenceId })).get('referenceId')).toBe(referenceId);
  });

  test.each([
    ['ab', '2 characters'],
    ['a'.repeat(36), '36 characters'],
    ['abc_def', 'an underscore'],
    ['abc#1', 'a hash'],
    ['café', 'a non-ASCII letter'],
  ])('referenceId %j is rejected (%s)', async (referenceId) => {
    expect(await rejected({ referenceId })).toEqual([
      {
        field: 'referenceId',
        message: 'must be 3 to 35 characters of A-Z a-z 0-9 space / : . , + -',
      },
    ]);
  });

  test.each([
    ['eip155:8453'],
    ['eip155:8453,eip155:1'],
    ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
  ])('network %s is accepted and sent as it is', async (network) => {
    expect((await accepted({ network })).get('network')).toBe(network);
  });

  test.each([
    ['eip155', 'no reference'],
    ['eip155:8453,', 'an empty part'],
    ['eip155:8453, eip155:1', 'a space after the comma'],
    ['EIP155:1', 'an upper-case namespace'],
    ['ei:1', 'a namespace under 3 characters'],
    ['', 'empty'],
  ])('network %j is rejected (%s)', async (network) => {
    expect(await rejected({ network })).toEqual([
      {
        field: 'network',
        message: 'must be comma-separated CAIP-2 chain ids, e.g. eip155:8453,eip155:1',
      },
    ]);
  });

  test.each([[''], [[]], [['USDC', '']]])('tokenSymbol %j is rejected', async (tokenSymbol) => {
    const issues = await rejected({ tokenSymbol });
    expect(issues[0]?.field).toMatch(/^tokenSymbol(\.1)?$/);
  });

  test('an empty cursor is rejected', async () => {
    expect(await rejected({ cursor: '' })).toEqual([
      { field: 'cursor', message: 'must not be empty' },
    ]);
  });

  test('a wire name used as a parameter name is rejected as unknown', async () => {
    const issues = await rejected({ token_symbol: 'USDC' });
    expect(issues[0]?.message).toMatch(/unknown field\(s\) token_symbol/);
  });

  test('several broken rules are reported together', async () => {
    const issues = await rejected({ limit: 0, sortDir: 'up', referenceId: 'ab' });
    expect(issues.map((i) => i.field).sort()).toEqual(['limit', 'referenceId', 'sortDir']);
  });
});

describe('the page payments.list reads', () => {
  test('keeps unknown fields and accepts unknown statuses', async () => {
    const item = { ...paymentItem(1), status: 'refunded', brandNew: { x: 1 } };
    server.use(http.get(LIST_URL, () => HttpResponse.json({ ...page([item], null), extra: true })));
    const first = await gateway({ merchantId: MERCHANT_ID }).payments.list();
    expect(first.data[0]?.status).toBe('refunded');
    // Kept at run time, though the closed types do not name them.
    expect(first.data[0]).toHaveProperty('brandNew', { x: 1 });
    expect(first).toHaveProperty('extra', true);
  });

  test('accepts every optional field, null where the service may send null', async () => {
    const item = {
      ...paymentItem(1),
      merchant: { id: MERCHANT_ID, name: null, iconUrl: null },
      fiatAmount: {
        unit: 'iso4217/USD',
        value: '1250',
        display: { assetName: 'US Dollar', assetSymbol: 'USD', decimals: 2 },
      },
      tokenAmount: { unit: 'caip19/eip155:8453/erc20:0xabc', value: '12500000', display: null },
      buyer: { accountCaip10: 'eip155:8453:0xabc', accountProviderName: null },
      transaction: { networkId: 'eip155:8453', hash: '0x1', nonce: 4 },
      fees: { total: { unit: 'iso4217/USD', value: '10' } },
      settlement: { settled: true, txHash: null },
      settledAt: '2026-01-01T00:01:00.000Z',
    };
    server.use(http.get(LIST_URL, () => HttpResponse.json(page([item], null))));
    const first = await gateway({ merchantId: MERCHANT_ID }).payments.list();
    expect(first.data[0]).toEqual(item);
  });

  test('accepts a page whose nextCursor is absent', async () => {
    server.use(http.get(LIST_URL, () => HttpResponse.json(page([paymentItem(1)], undefined))));
    const first = await gateway({ merchantId: MERCHANT_ID }).payments.list();
    expect(first.nextCursor).toBeUndefined();
  });

  test.each([
    [
      'an item without paymentId',
      { ...page([{ ...paymentItem(1), paymentId: undefined }], null) },
      'data.0.paymentId',
    ],
    [
      'a string isTerminal',
      page([{ ...paymentItem(1), isTerminal: 'yes' }], null),
      'data.0.isTerminal',
    ],
    ['no stats', { data: [], nextCursor: null }, 'stats'],
    ['a numeric cursor', { ...page([], null), nextCursor: 5 }, 'nextCursor'],
  ])('%s is a ResponseValidationError', async (_, body, field) => {
    server.use(http.get(LIST_URL, () => HttpResponse.json(body)));
    const error = await gateway({ merchantId: MERCHANT_ID, maxRetries: 0 })
      .payments.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.field)).toContain(field);
  });
});
