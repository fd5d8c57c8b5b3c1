import { inspect } from 'node:util';
import fc from 'fast-check';
import {
  ApiError,
  CryptoSettlementDeletionSchema,
  CryptoSettlementSchema,
  LegacyPaymentsPageSchema,
  MerchantDeletionSchema,
  type MerchantGateway,
  MerchantGatewayError,
  MerchantPaymentsPageSchema,
  MerchantSchema,
  MerchantsPageSchema,
  MerchantWithSettlementsSchema,
  PaymentCancellationSchema,
  PaymentCreatedSchema,
  PaymentDetailsSchema,
  PaymentStatusResultSchema,
  PaymentViewSchema,
  RefundSchema,
  ResponseValidationError,
  SettlementListSchema,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import * as z from 'zod/mini';
import {
  BASE_URL,
  createdBody,
  gateway,
  merchantBody,
  merchantGetBody,
  useMsw,
  viewBody,
} from '../../support';
import { legacyItem, paymentItem } from '../../support/list-fixtures';

interface Reply {
  status: number;
  body: string | Uint8Array;
  headers: Record<string, string>;
}

let reply: Reply = { status: 200, body: '', headers: {} };
let requests = 0;
useMsw(
  http.all(`${BASE_URL}/*`, () => {
    requests += 1;
    const { status, body, headers } = reply;
    // fetch refuses a body on these statuses.
    const empty = status === 204 || status === 205 || status === 304;
    return new HttpResponse(empty ? null : body, { status, headers });
  }),
);

// The deprecated list warns once through the logger: keep that out of the test output.
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const client = gateway({ maxRetries: 0, merchantId: 'mer_1', logger: quiet });
const ASSET = 'eip155:1/erc20:0xabc';
const DESTINATION = 'eip155:1:0xdef';

interface Method {
  call: (c: MerchantGateway) => Promise<unknown>;
  /** The exported schema every result must satisfy. */
  schema: z.ZodMiniType;
  /** A body this method accepts, to mutate and to make some runs succeed. */
  valid: unknown;
}

const METHODS: Record<string, Method> = {
  'merchants.create': {
    call: (c) => c.merchants.create({ merchantName: 'Acme', merchantEmail: 'pay@acme.io' }),
    schema: MerchantSchema,
    valid: merchantBody,
  },
  'merchants.update': {
    call: (c) => c.merchants.update('mer_1', { merchantName: 'New' }),
    schema: MerchantSchema,
    valid: merchantBody,
  },
  'merchants.get': {
    call: (c) => c.merchants.get('mer_1'),
    schema: MerchantWithSettlementsSchema,
    valid: merchantGetBody,
  },
  'settlements.createCrypto': {
    call: (c) => c.settlements.createCrypto('mer_1', [{ asset: ASSET, destination: DESTINATION }]),
    schema: z.array(CryptoSettlementSchema),
    valid: { settlements: [{ id: 'set_1', asset: ASSET, destination: DESTINATION }] },
  },
  'payments.create': {
    call: (c) =>
      c.payments.create({ amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'r' }),
    schema: PaymentCreatedSchema,
    valid: createdBody,
  },
  'payments.get': {
    call: (c) => c.payments.get('pay_1'),
    schema: PaymentViewSchema,
    valid: viewBody,
  },
  'payments.details': {
    call: (c) => c.payments.details('pay_1'),
    schema: PaymentDetailsSchema,
    valid: {
      status: 'succeeded',
      referenceId: 'order-1',
      info: { txId: '0xab', optionAmount: viewBody.amount },
      settlement: { successful: { txId: '0xcd', amount: { unit: 'caip19/x' } } },
    },
  },
  'payments.status': {
    call: (c) => c.payments.status('pay_1', { maxPollMs: 10 }),
    schema: PaymentStatusResultSchema,
    valid: { status: 'failed', isFinal: true, pollInMs: null, failureCode: 'declined_user' },
  },
  'payments.cancel': {
    call: (c) => c.payments.cancel('pay_1'),
    schema: PaymentCancellationSchema,
    valid: {
      paymentId: 'pay_1',
      status: 'cancelled',
      cancelledReason: 'cancelled_by_merchant',
      cancelledAt: '2026-01-01T00:00:00.000Z',
    },
  },
  'refunds.create': {
    call: (c) => c.refunds.create({ paymentId: 'pay_1' }),
    schema: RefundSchema,
    valid: { paymentId: 'pay_1' },
  },
  'payments.list': {
    call: async (c) => await c.payments.list({ limit: 10 }),
    schema: MerchantPaymentsPageSchema,
    valid: {
      data: [paymentItem(1)],
      nextCursor: null,
      stats: {
        totalRevenue: [{ amount: 12.5, currency: 'USD' }],
        totalTransactions: 1,
        totalCustomers: 1,
      },
    },
  },
  'partnerPayments.list': {
    call: async (c) => await c.partnerPayments.list({ merchantId: ['mer_1', 'mer_2'] }),
    schema: MerchantPaymentsPageSchema,
    valid: {
      data: [],
      nextCursor: null,
      stats: { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 },
    },
  },
  'merchants.list': {
    call: async (c) => await c.merchants.list({ limit: 10 }),
    schema: MerchantsPageSchema,
    valid: { merchants: [merchantBody.merchant], totalCount: 1, nextCursor: 'c_2' },
  },
  'merchants.delete': {
    call: (c) => c.merchants.delete('mer_1'),
    schema: MerchantDeletionSchema,
    valid: { id: 'mer_1', deleted: true },
  },
  'settlements.list': {
    call: (c) => c.settlements.list('mer_1'),
    schema: SettlementListSchema,
    valid: {
      fiat: [{ id: 'fset_1', status: 'active', bankType: 'sepa' }],
      crypto: [{ id: 'set_1', asset: ASSET, destination: DESTINATION }],
    },
  },
  'settlements.updateCrypto': {
    call: (c) => c.settlements.updateCrypto('mer_1', 'set_1', { destination: DESTINATION }),
    schema: CryptoSettlementSchema,
    valid: { id: 'set_1', asset: ASSET, destination: DESTINATION },
  },
  'settlements.deleteCrypto': {
    call: (c) => c.settlements.deleteCrypto('mer_1', 'set_1'),
    schema: CryptoSettlementDeletionSchema,
    valid: { id: 'set_1', deleted: true },
  },
  'legacyPayments.list': {
    call: async (c) => await c.legacyPayments.list('mer_1', { limit: 10 }),
    schema: LegacyPaymentsPageSchema,
    valid: {
      data: [legacyItem(1)],
      next_cursor: null,
      stats: {
        total_customers: 1,
        total_transactions: 1,
        total_revenue: { amount: 12.5, currency: 'USD' },
      },
    },
  },
};

const ERROR_BODIES = [
  { code: 'rate_limited', message: 'slow down' },
  { code: 'params_validation', message: 'bad', issues: [{ field: 'x', message: 'y' }] },
];

/** Every path to a value inside a JSON value, the root included. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const children = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : value !== null && typeof value === 'object'
      ? Object.entries(value)
      : [];
  return [prefix, ...children.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}

const DELETE = Symbol('delete');

/** `body` with one value (the root included) replaced by arbitrary JSON, or deleted. */
function mutated(body: unknown): fc.Arbitrary<string> {
  return fc
    .tuple(fc.nat(), fc.oneof(fc.constant(DELETE), fc.jsonValue({ maxDepth: 2 })))
    .map(([n, replacement]) => {
      const holder: Record<string, unknown> = { root: structuredClone(body) };
      const paths = pathsOf(holder.root, ['root']);
      const path = paths[n % paths.length] as (string | number)[];
      const parent = path
        .slice(0, -1)
        .reduce((node, key) => (node as Record<string | number, unknown>)[key], holder as unknown);
      const target = parent as Record<string | number, unknown>;
      const key = path.at(-1) as string | number;
      if (replacement === DELETE) delete target[key];
      else target[key] = replacement;
      return JSON.stringify(holder.root) ?? '';
    });
}

const others = [...Object.values(METHODS).map((m) => m.valid), ...ERROR_BODIES];

function bodyFor(method: Method): fc.Arbitrary<string | Uint8Array> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(JSON.stringify(method.valid)) },
    { weight: 3, arbitrary: mutated(method.valid) },
    fc.constantFrom(...others).chain(mutated),
    fc.constantFrom(...others).map((b) => JSON.stringify(b)),
    fc.json({ maxDepth: 4 }),
    fc.anything({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''),
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.uint8Array({ maxLength: 80 }),
    fc.constantFrom('', '{', '{"merchant":', 'null', '<html>502</html>', '\u0000'),
  );
}

const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 20 }).map((s) => s.trim());

/** A method name and a reply to its request: any status from 200 to 599, any body. */
const exchange = fc.constantFrom(...Object.keys(METHODS)).chain((name) =>
  fc.record({
    name: fc.constant(name),
    reply: fc.record({
      // 421 and 407 never reach the SDK as such: Node's fetch resends a 421 on a new connection
      // itself, and turns a 407 into a network error, as the fetch standard says (a ConnectionError).
      status: fc.oneof(
        fc.integer({ min: 200, max: 299 }),
        fc.integer({ min: 200, max: 599 }).filter((status) => status !== 421 && status !== 407),
      ),
      body: bodyFor(METHODS[name] as Method),
      headers: fc.record(
        {
          'content-type': fc.constantFrom('application/json', 'text/html', 'text/plain', ''),
          'retry-after': fc.oneof(headerValue, fc.integer({ min: -5, max: 100 }).map(String)),
          'x-request-id': headerValue,
        },
        { requiredKeys: [] },
      ),
    }),
  }),
);

describe('arbitrary responses', () => {
  const seen = { resolved: 0, apiError: 0, responseValidation: 0 };

  test('every method either resolves with a value its exported schema accepts, or rejects with a MerchantGatewayError', async () => {
    await fc.assert(
      fc.asyncProperty(exchange, async ({ name, reply: next }) => {
        const { call, schema } = METHODS[name] as Method;
        reply = next;
        const before = requests;
        const outcome = await call(client).then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        expect(requests).toBe(before + 1);
        const success = next.status >= 200 && next.status < 300;
        if (outcome.ok) {
          expect(success).toBe(true);
          expect(z.safeParse(schema, outcome.value).success).toBe(true);
          seen.resolved += 1;
          return;
        }
        const { error } = outcome;
        expect(error).toBeInstanceOf(MerchantGatewayError);
        if (success) {
          expect(error).toBeInstanceOf(ResponseValidationError);
          expect((error as ResponseValidationError).status).toBe(next.status);
          seen.responseValidation += 1;
        } else {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).status).toBe(next.status);
          seen.apiError += 1;
        }
        // Whatever came back, the error can be shown and logged.
        expect(String(error)).toMatch(/^\w+Error: /);
        expect(() => JSON.stringify(error)).not.toThrow();
        expect(() => inspect(error, { depth: 5 })).not.toThrow();
      }),
      { numRuns: 250 },
    );
    // The generators reach every branch: some bodies fit, some do not, some are errors.
    expect(seen.resolved).toBeGreaterThan(0);
    expect(seen.responseValidation).toBeGreaterThan(0);
    expect(seen.apiError).toBeGreaterThan(0);
    // 250 runs take about 5 s on a loaded 2-core machine and 33 s were seen under heavy load.
  }, 180_000);
});
