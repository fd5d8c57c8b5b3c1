// One rule per input, every method alike: each method is called with each bad input it takes (a
// path id, a merchant id, maxPollMs, a signal, a Date) and must reject with a
// RequestValidationError naming the field, with nothing sent.

import {
  type MerchantGateway,
  type RequestOptions,
  RequestValidationError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { BASE_URL, gateway, recorder, useMsw } from '../../support';

const everything = recorder(() =>
  HttpResponse.json({ code: 'not_found', message: 'no' }, { status: 404 }),
);
useMsw(http.all('*', everything.resolver));

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** What one call takes from the test: good defaults, one of them replaced by a bad value. */
interface Input {
  id: string;
  merchantId: string;
  maxPollMs: number;
  signal: AbortSignal | undefined;
  date: Date;
}
type Kind = 'id' | 'merchantId' | 'maxPollMs' | 'signal' | 'date';
type Call = (c: MerchantGateway, i: Input) => PromiseLike<unknown>;

const GOOD: Input = {
  id: 'id_1',
  merchantId: 'mer_1',
  maxPollMs: 1000,
  signal: undefined,
  date: new Date('2026-01-01T00:00:00Z'),
};
const amount = { unit: 'iso4217/USD', value: '100' };
const settlement = { asset: 'eip155:1/erc20:0xabc', destination: 'eip155:1:0xdef' };
const opts = (i: Input): RequestOptions => ({ signal: i.signal });

/** Every method, the inputs it takes, and how it is called with them. */
const METHODS: [string, Kind[], Call][] = [
  [
    'merchants.create',
    ['signal'],
    (c, i) => c.merchants.create({ merchantName: 'A', merchantEmail: 'a@b.io' }, opts(i)),
  ],
  [
    'merchants.update',
    ['id', 'signal'],
    (c, i) => c.merchants.update(i.id, { merchantName: 'A' }, opts(i)),
  ],
  ['merchants.get', ['id', 'signal'], (c, i) => c.merchants.get(i.id, opts(i))],
  ['merchants.list', ['signal'], (c, i) => c.merchants.list({}, opts(i))],
  ['merchants.delete', ['id', 'signal'], (c, i) => c.merchants.delete(i.id, opts(i))],
  [
    'settlements.createCrypto',
    ['id', 'signal'],
    (c, i) => c.settlements.createCrypto(i.id, [settlement], opts(i)),
  ],
  ['settlements.list', ['id', 'signal'], (c, i) => c.settlements.list(i.id, opts(i))],
  [
    'settlements.updateCrypto (merchant id)',
    ['id', 'signal'],
    (c, i) => c.settlements.updateCrypto(i.id, 'set_1', { destination: 'eip155:1:0xdef' }, opts(i)),
  ],
  [
    'settlements.updateCrypto (settlement id)',
    ['id'],
    (c, i) => c.settlements.updateCrypto('mer_1', i.id, { destination: 'eip155:1:0xdef' }),
  ],
  [
    'settlements.deleteCrypto (merchant id)',
    ['id', 'signal'],
    (c, i) => c.settlements.deleteCrypto(i.id, 'set_1', opts(i)),
  ],
  [
    'settlements.deleteCrypto (settlement id)',
    ['id'],
    (c, i) => c.settlements.deleteCrypto('mer_1', i.id),
  ],
  [
    'payments.create',
    ['merchantId', 'signal', 'date'],
    (c, i) =>
      c.payments.create(
        { merchantId: i.merchantId, amount, referenceId: 'order-1', expiresAt: i.date },
        opts(i),
      ),
  ],
  ['payments.get', ['id', 'signal'], (c, i) => c.payments.get(i.id, opts(i))],
  [
    'payments.list',
    ['merchantId', 'signal', 'date'],
    (c, i) => c.payments.list({ merchantId: i.merchantId, startTs: i.date }, opts(i)),
  ],
  [
    'legacyPayments.list',
    ['id', 'signal', 'date'],
    (c, i) => c.legacyPayments.list(i.id, { end_ts: i.date }, opts(i)),
  ],
  [
    'partnerPayments.list',
    ['merchantId', 'signal', 'date'],
    (c, i) => c.partnerPayments.list({ merchantId: [i.merchantId], endTs: i.date }, opts(i)),
  ],
  [
    'payments.details',
    ['id', 'merchantId', 'signal'],
    (c, i) => c.payments.details(i.id, { merchantId: i.merchantId }, opts(i)),
  ],
  [
    'payments.status',
    ['id', 'merchantId', 'maxPollMs', 'signal'],
    (c, i) =>
      c.payments.status(i.id, { merchantId: i.merchantId, maxPollMs: i.maxPollMs }, opts(i)),
  ],
  [
    'payments.cancel',
    ['id', 'merchantId', 'signal'],
    (c, i) => c.payments.cancel(i.id, { merchantId: i.merchantId }, opts(i)),
  ],
  [
    'refunds.create',
    ['merchantId', 'signal'],
    (c, i) => c.refunds.create({ paymentId: 'pay_1', merchantId: i.merchantId }, opts(i)),
  ],
  [
    'payments.waitForFinal',
    ['id', 'merchantId', 'signal'],
    (c, i) =>
      c.payments.waitForFinal(i.id, {
        merchantId: i.merchantId,
        signal: i.signal,
        timeoutMs: 1000,
      }),
  ],
  [
    'payments.watch',
    ['id', 'merchantId', 'signal'],
    async (c, i) => {
      const options = { merchantId: i.merchantId, signal: i.signal, timeoutMs: 1000 };
      for await (const _ of c.payments.watch(i.id, options)) break;
    },
  ],
];

/** A Date whose own getTime() says one valid instant while the Date itself holds no time at all. */
class LyingDate extends Date {
  override getTime(): number {
    return Date.parse('2027-01-01T00:00:00Z');
  }
}

const TEN_MB = 'x'.repeat(10 * 2 ** 20);
/** Bad values of each kind, and the field a refusal must name. */
const BAD: Record<Kind, [label: string, value: unknown][]> = {
  id: [
    ['empty', ''],
    ['"."', '.'],
    ['".."', '..'],
    ['a newline', 'a\nb'],
    ['256 characters', 'x'.repeat(256)],
    ['10 MB', TEN_MB],
  ],
  merchantId: [
    ['256 characters', 'm'.repeat(256)],
    ['10 MB', TEN_MB],
  ],
  maxPollMs: [
    ['60,001', 60_001],
    ['1e9', 1e9],
  ],
  signal: [
    [
      'a look-alike',
      { aborted: true, reason: 'x', addEventListener() {}, removeEventListener() {} },
    ],
    ['an AbortController', new AbortController()],
    ['a string', 'signal'],
    ['null', null],
  ],
  date: [
    ['an invalid Date', new Date(Number.NaN)],
    ['a Date past year 9999 (or as seconds past the limit)', new Date(8.64e15)],
    ['a Date subclass whose getTime() lies about an invalid time', new LyingDate(Number.NaN)],
  ],
};

const CASES = METHODS.flatMap(([name, kinds, call]) =>
  kinds.flatMap((kind) =>
    BAD[kind].map(([label, value]) => ({ name, kind, label, value, call }) as const),
  ),
);

/** The field a refusal names: the id's own name varies by method, so any non-empty one. */
function expectedField(kind: Kind): RegExp {
  if (kind === 'id') return /^(merchantId|merchant_id|paymentId|settlementId|paymentOrId)$/;
  if (kind === 'date') return /^(expiresAt|startTs|endTs|end_ts)$/;
  // One merchant id of partnerPayments.list's array is named by its index.
  return new RegExp(`^${kind}(\\.\\d+)?$`);
}

describe('every method refuses each bad input before sending', () => {
  test.each(CASES)('$name: $kind $label', async ({ kind, value, call }) => {
    const client = gateway({ maxRetries: 0, logger: quiet, merchantId: 'mer_1' });
    const before = everything.seen.length;
    const error = await Promise.resolve()
      .then(() => call(client, { ...GOOD, [kind]: value }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RequestValidationError);
    const fields = (error as RequestValidationError).issues.map((issue) => issue.field);
    expect(
      fields.some((field) => expectedField(kind).test(field)),
      fields.join(),
    ).toBe(true);
    // A refusal is short: it never quotes the 10 MB value back.
    expect((error as Error).message.length).toBeLessThan(2_100);
    expect(everything.seen).toHaveLength(before);
  });

  test('the good inputs themselves are sent (the table is not refusing everything)', async () => {
    const client = gateway({ maxRetries: 0, logger: quiet });
    for (const [name, , call] of METHODS) {
      const before = everything.seen.length;
      await Promise.resolve()
        .then(() => call(client, GOOD))
        .catch(() => undefined);
      expect(everything.seen.length, name).toBeGreaterThan(before);
    }
  });

  test('a client default merchantId past 255 characters is refused by every call that sends it', async () => {
    const client = gateway({ maxRetries: 0, merchantId: 'm'.repeat(256) });
    const before = everything.seen.length;
    const calls: (() => PromiseLike<unknown>)[] = [
      () => client.payments.create({ amount, referenceId: 'order-1' }),
      () => client.payments.list(),
      () => client.payments.details('pay_1'),
      () => client.payments.status('pay_1'),
      () => client.payments.cancel('pay_1'),
      () => client.refunds.create({ paymentId: 'pay_1' }),
    ];
    for (const call of calls) {
      const error = await Promise.resolve()
        .then(call)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.field).toBe('merchantId');
    }
    expect(everything.seen).toHaveLength(before);
  });

  // Characters, not UTF-16 units: 255 emoji are 510 units and still within the bound.
  test.each(
    [1, 254, 255, 256, 300].flatMap((length) =>
      ['a', 'é', '😀'].map((char) => ({ id: char.repeat(length), length, char })),
    ),
  )(
    'an id of $length × $char is sent up to 255 characters and refused past it',
    async ({ id, length }) => {
      const client = gateway({ maxRetries: 0 });
      const before = everything.seen.length;
      const error = await client.merchants.get(id).catch((e: unknown) => e);
      if (length > 255) {
        expect(error).toBeInstanceOf(RequestValidationError);
        expect(everything.seen).toHaveLength(before);
      } else {
        expect(error).not.toBeInstanceOf(RequestValidationError);
        expect(everything.seen).toHaveLength(before + 1);
      }
    },
  );
});

describe('a Date is read once', () => {
  test('a Date subclass whose getTime() changes between reads is sent as the instant it holds', async () => {
    const at = Date.parse('2030-01-01T00:00:00Z');
    class Flipping extends Date {
      #reads = 0;
      override getTime(): number {
        this.#reads += 1;
        return this.#reads === 1 ? at : -8_640_000_000_000_000;
      }
    }
    const before = everything.seen.length;
    await gateway({ maxRetries: 0 })
      .payments.create({
        merchantId: 'mer_1',
        amount,
        referenceId: 'o',
        expiresAt: new Flipping(at),
      })
      .catch(() => undefined);
    const sent = everything.seen[before];
    expect(sent?.url).toBe(`${BASE_URL}/v1/payments`);
    const body = (await (sent as Request).json()) as { expiresAt: number };
    expect(body.expiresAt).toBe(at / 1000);
  });

  test('the same for a list date: sent as the instant the Date holds', async () => {
    const at = Date.parse('2026-05-01T00:00:00Z');
    class Flipping extends Date {
      #reads = 0;
      override toISOString(): string {
        this.#reads += 1;
        return this.#reads === 1 ? new Date(at).toISOString() : 'garbage';
      }
      override getTime(): number {
        return this.#reads++ === 0 ? at : Number.NaN;
      }
    }
    const before = everything.seen.length;
    await gateway({ maxRetries: 0 })
      .payments.list({ merchantId: 'mer_1', startTs: new Flipping(at) })
      .catch(() => undefined);
    expect(new URL(everything.seen[before]?.url as string).searchParams.get('startTs')).toBe(
      '2026-05-01T00:00:00Z',
    );
  });
});

// Unused input kinds would make a case silently skip: every kind is exercised by some method.
test('the table covers every kind of bad input', () => {
  const kinds = new Set(METHODS.flatMap(([, k]) => k));
  expect([...kinds].sort()).toEqual(Object.keys(BAD).sort());
});
