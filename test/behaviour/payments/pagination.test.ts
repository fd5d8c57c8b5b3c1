import { MerchantGatewayError, PagePromise, PaginationError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { gateway, issuesOf, recorder, useMsw } from '../../support';
import {
  LIST_URL,
  MERCHANT_ID,
  page,
  pagedList,
  paymentItem,
  queries,
  stats,
} from '../../support/list-fixtures';

const server = useMsw();
const client = () => gateway({ merchantId: MERCHANT_ID, maxRetries: 0 });

/** A list of `total` items (see pagedList) served for this test; what it recorded. */
function servedList(total: number) {
  const list = pagedList(total);
  server.use(list.handler);
  return list;
}

describe('awaiting a list', () => {
  test('await gives the first page whole: items, cursor and stats', async () => {
    const list = servedList(25);
    const first = await client().payments.list({ limit: 10 });
    expect(first.data.map((p) => p.paymentId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `pay_${i}`),
    );
    expect(first.nextCursor).toBe('10');
    expect(first.stats).toEqual(stats);
    expect(list.seen).toHaveLength(1);
  });

  test('the list call returns a PagePromise, which is a Promise', () => {
    servedList(1);
    const result = client().payments.list();
    expect(result).toBeInstanceOf(PagePromise);
    expect(result).toBeInstanceOf(Promise);
    return result;
  });

  test('withResponse gives the first page with its raw response and request id', async () => {
    server.use(
      http.get(LIST_URL, () =>
        HttpResponse.json(page([paymentItem(1)], null), { headers: { 'x-request-id': 'req_42' } }),
      ),
    );
    const { data, response, requestId } = await client().payments.list().withResponse();
    expect(data.data[0]?.paymentId).toBe('pay_1');
    expect(response.status).toBe(200);
    expect(requestId).toBe('req_42');
  });

  test('awaiting the same list twice sends one request', async () => {
    const list = servedList(5);
    const promise = client().payments.list();
    const [a, b] = await Promise.all([promise, promise]);
    expect(a).toBe(b);
    expect(list.seen).toHaveLength(1);
  });
});

describe('iterating a list', () => {
  test('for await yields every item of every page once, in order', async () => {
    const list = servedList(25);
    const ids: string[] = [];
    for await (const payment of client().payments.list({ limit: 10 })) ids.push(payment.paymentId);
    expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => `pay_${i}`));
    expect(queries(list.seen).map((q) => q.get('cursor'))).toEqual([null, '10', '20']);
  });

  test('every page keeps the filters of the first and adds only the cursor', async () => {
    const list = servedList(4);
    await client()
      .payments.list({ limit: 2, status: ['succeeded', 'failed'] })
      .toArray({
        limit: 10,
      });
    const [first, second] = queries(list.seen);
    expect(second?.getAll('status')).toEqual(['succeeded', 'failed']);
    expect(second?.get('limit')).toBe('2');
    second?.delete('cursor');
    expect(second?.toString()).toBe(first?.toString());
  });

  test('the first page is not fetched again when a loop follows an await', async () => {
    const list = servedList(15);
    const promise = client().payments.list({ limit: 10 });
    await promise;
    let count = 0;
    for await (const _ of promise) count++;
    expect(count).toBe(15);
    expect(list.seen).toHaveLength(2);
  });

  test('the next page is fetched only once the previous one is used up', async () => {
    const list = servedList(30);
    const iterator = client().payments.list({ limit: 10 })[Symbol.asyncIterator]();
    for (let i = 0; i < 10; i++) await iterator.next();
    expect(list.seen).toHaveLength(1);
    await iterator.next();
    expect(list.seen).toHaveLength(2);
    await iterator.return?.();
  });

  test('breaking out of the loop stops fetching', async () => {
    const list = servedList(1000);
    const ids: string[] = [];
    for await (const payment of client().payments.list({ limit: 5 })) {
      ids.push(payment.paymentId);
      if (ids.length === 7) break;
    }
    expect(ids).toHaveLength(7);
    expect(list.seen).toHaveLength(2);
  });

  test('a null cursor ends the walk', async () => {
    const r = recorder(() => HttpResponse.json(page([paymentItem(1)], null)));
    server.use(http.get(LIST_URL, r.resolver));
    expect(await client().payments.list().toArray({ limit: 100 })).toHaveLength(1);
    expect(r.seen).toHaveLength(1);
  });

  test('an absent cursor ends the walk', async () => {
    const r = recorder(() => HttpResponse.json(page([paymentItem(1)], undefined)));
    server.use(http.get(LIST_URL, r.resolver));
    expect(await client().payments.list().toArray({ limit: 100 })).toHaveLength(1);
    expect(r.seen).toHaveLength(1);
  });

  test('an empty page ends the walk even when it carries a cursor', async () => {
    const r = recorder((_, n) =>
      HttpResponse.json(n === 1 ? page([paymentItem(1)], 'c1') : page([], 'c2')),
    );
    server.use(http.get(LIST_URL, r.resolver));
    const pages = [];
    for await (const p of client().payments.list().pages()) pages.push(p);
    expect(pages.map((p) => p.data.length)).toEqual([1, 0]);
    expect(r.seen).toHaveLength(2);
  });

  test('a cursor the service repeats is a PaginationError, not an endless loop', async () => {
    // Ends after 5 requests, so a client that ignored the repeat would finish, not hang.
    const r = recorder((_, n) => HttpResponse.json(page([paymentItem(1)], n < 5 ? 'same' : null)));
    server.use(http.get(LIST_URL, r.resolver));
    const ids: string[] = [];
    const error = await (async () => {
      for await (const payment of client().payments.list()) ids.push(payment.paymentId);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error).toBeInstanceOf(MerchantGatewayError);
    expect((error as PaginationError).cursor).toBe('same');
    expect((error as Error).message).toMatch(/payments\.list.*"same"/);
    expect(ids).toEqual(['pay_1', 'pay_1']);
    expect(r.seen).toHaveLength(2);
  });

  test('a cursor that returns to an earlier one is caught too', async () => {
    const cursors = ['a', 'b', 'c', 'a', 'b', 'c', null];
    const r = recorder((_, n) => HttpResponse.json(page([paymentItem(n)], cursors[n - 1])));
    server.use(http.get(LIST_URL, r.resolver));
    await expect(client().payments.list().toArray({ limit: 100 })).rejects.toThrow(PaginationError);
    expect(r.seen).toHaveLength(4);
  });

  test('the service handing back the cursor the caller started from is a PaginationError', async () => {
    const r = recorder((_, n) => HttpResponse.json(page([paymentItem(1)], n < 3 ? 'start' : null)));
    server.use(http.get(LIST_URL, r.resolver));
    await expect(
      client().payments.list({ cursor: 'start' }).toArray({ limit: 100 }),
    ).rejects.toThrow(PaginationError);
    expect(r.seen).toHaveLength(1);
    expect(queries(r.seen)[0]?.get('cursor')).toBe('start');
  });

  test('a failing later page rejects the loop with that error', async () => {
    const r = recorder((_, n) =>
      n === 1
        ? HttpResponse.json(page([paymentItem(1)], 'c1'))
        : HttpResponse.json({ code: 'internal_error', message: 'boom' }, { status: 500 }),
    );
    server.use(http.get(LIST_URL, r.resolver));
    await expect(client().payments.list().toArray({ limit: 10 })).rejects.toThrow(
      /GET \/v1\/merchants\/payments → 500 internal_error: boom/,
    );
  });

  test('an abort signal stops a walk between pages', async () => {
    const controller = new AbortController();
    const list = servedList(100);
    const ids: string[] = [];
    const error = await (async () => {
      for await (const p of client().payments.list({ limit: 5 }, { signal: controller.signal })) {
        ids.push(p.paymentId);
        if (ids.length === 5) controller.abort('enough');
      }
    })().catch((e: unknown) => e);
    expect(error).toBe('enough');
    expect(ids).toHaveLength(5);
    expect(list.seen).toHaveLength(1);
  });
});

describe('pages()', () => {
  test('yields each page whole, stats included, fetching as it goes', async () => {
    const list = servedList(12);
    const seenBefore: number[] = [];
    const sizes: number[] = [];
    for await (const p of client().payments.list({ limit: 5 }).pages()) {
      seenBefore.push(list.seen.length);
      sizes.push(p.data.length);
      expect(p.stats.totalTransactions).toBe(7);
    }
    expect(sizes).toEqual([5, 5, 2]);
    expect(seenBefore).toEqual([1, 2, 3]);
  });
});

describe('toArray({ limit })', () => {
  test('collects items across pages up to the limit and fetches no further page', async () => {
    const list = servedList(100);
    const items = await client().payments.list({ limit: 10 }).toArray({ limit: 25 });
    expect(items.map((p) => p.paymentId)).toEqual(Array.from({ length: 25 }, (_, i) => `pay_${i}`));
    expect(list.seen).toHaveLength(3);
  });

  test('stops at the end of the list when it holds fewer items than the limit', async () => {
    const list = servedList(7);
    expect(await client().payments.list({ limit: 3 }).toArray({ limit: 50 })).toHaveLength(7);
    expect(list.seen).toHaveLength(3);
  });

  test('a limit reached within the first page needs one request', async () => {
    const list = servedList(100);
    expect(await client().payments.list({ limit: 10 }).toArray({ limit: 10 })).toHaveLength(10);
    expect(list.seen).toHaveLength(1);
  });

  test.each([[0], [-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY], ['10'], [undefined]])(
    'a limit of %s is a RequestValidationError',
    async (limit) => {
      servedList(5);
      expect(
        await issuesOf(
          client()
            .payments.list()
            .toArray({ limit } as { limit: number }),
        ),
      ).toEqual([{ field: 'limit', message: 'must be a positive integer' }]);
    },
  );

  test('a limit of 1 returns one item', async () => {
    servedList(5);
    expect(await client().payments.list().toArray({ limit: 1 })).toHaveLength(1);
  });
});
