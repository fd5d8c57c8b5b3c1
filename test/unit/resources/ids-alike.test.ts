// Every method that takes an id checks it before sending, by the same bounds (issue 28, item 11):
// empty, over 255 characters or with a control character is refused by all, naming the field, and
// a well-formed id such as `acme-coffee` is sent by all. (A path percent-encodes what a header
// cannot carry, so `merchants.get('café')` is sent where a Merchant-Id header refuses it: the
// security suite pins that on purpose.)

import { type MerchantGateway, RequestValidationError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { BASE_URL, gateway, useMsw } from '../../support';

const server = useMsw();

const USDC = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PAYOUT = 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
const amount = { unit: 'iso4217/USD', value: '100' };

type Call = (g: MerchantGateway, id: string) => PromiseLike<unknown>;

/** Every method that takes a merchant id, in a path or in the Merchant-Id header. */
const MERCHANT_ID_METHODS: Record<string, Call> = {
  'merchants.get': (g, id) => g.merchants.get(id),
  'merchants.update': (g, id) => g.merchants.update(id, { merchantName: 'Acme' }),
  'merchants.delete': (g, id) => g.merchants.delete(id),
  'settlements.createCrypto': (g, id) =>
    g.settlements.createCrypto(id, [{ asset: USDC, destination: PAYOUT }]),
  'settlements.list': (g, id) => g.settlements.list(id),
  'settlements.updateCrypto': (g, id) =>
    g.settlements.updateCrypto(id, 'cs_1', { destination: PAYOUT }),
  'settlements.deleteCrypto': (g, id) => g.settlements.deleteCrypto(id, 'cs_1'),
  'legacyPayments.list': (g, id) => g.legacyPayments.list(id),
  'payments.create': (g, id) => g.payments.create({ merchantId: id, amount, referenceId: 'o-1' }),
  'payments.list': (g, id) => g.payments.list({ merchantId: id }),
  'partnerPayments.list': (g, id) => g.partnerPayments.list({ merchantId: id }),
  'payments.details': (g, id) => g.payments.details('pay_1', { merchantId: id }),
  'payments.status': (g, id) => g.payments.status('pay_1', { merchantId: id }),
  'payments.cancel': (g, id) => g.payments.cancel('pay_1', { merchantId: id }),
  'refunds.create': (g, id) => g.refunds.create({ paymentId: 'pay_1', merchantId: id }),
};

/** Every method that takes a payment id. */
const PAYMENT_ID_METHODS: Record<string, Call> = {
  'payments.get': (g, id) => g.payments.get(id),
  'payments.details': (g, id) => g.payments.details(id, { merchantId: 'mer_1' }),
  'payments.status': (g, id) => g.payments.status(id, { merchantId: 'mer_1' }),
  'payments.cancel': (g, id) => g.payments.cancel(id, { merchantId: 'mer_1' }),
  'payments.waitForFinal': (g, id) => g.payments.waitForFinal(id, { merchantId: 'mer_1' }),
  'refunds.create': (g, id) => g.refunds.create({ paymentId: id, merchantId: 'mer_1' }),
};

/** Records every request and answers 404, so a call that sends ends as a NotFoundError. */
function recordAll(): string[] {
  const seen: string[] = [];
  server.use(
    http.all(`${BASE_URL}/*`, ({ request }) => {
      seen.push(
        `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search} ${request.headers.get('merchant-id') ?? ''}`,
      );
      return HttpResponse.json({ code: 'not_found', message: 'nothing here' }, { status: 404 });
    }),
  );
  return seen;
}

const client = () => gateway({ maxRetries: 0, logLevel: 'off' });

describe('a merchant id is checked alike by every method', () => {
  const bad: [string, string][] = [
    ['empty', ''],
    ['with a control character', 'mer_1\n'],
    ['of 256 characters', 'm'.repeat(256)],
  ];
  for (const [method, call] of Object.entries(MERCHANT_ID_METHODS)) {
    test.each(bad)(`${method} refuses one %s before sending, naming the field`, async (_, id) => {
      const seen = recordAll();
      const error = await Promise.resolve(call(client(), id)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      const { issues } = error as RequestValidationError;
      expect(issues.map((i) => i.field)).toContainEqual(expect.stringMatching(/^merchant_?[iI]d$/));
      expect(seen).toEqual([]);
    });

    test(`${method} sends a well-formed id such as acme-coffee`, async () => {
      const seen = recordAll();
      await Promise.resolve(call(client(), 'acme-coffee')).then(
        () => undefined,
        () => undefined,
      );
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.join('\n')).toContain('acme-coffee');
    });
  }
});

describe('a payment id is checked alike by every method', () => {
  const bad: [string, string][] = [
    ['empty', ''],
    ['of dots', '..'],
    ['with a control character', 'pay_1\n'],
    ['of 256 characters', 'p'.repeat(256)],
  ];
  for (const [method, call] of Object.entries(PAYMENT_ID_METHODS)) {
    test.each(bad)(`${method} refuses one %s before sending, naming paymentId`, async (_, id) => {
      const seen = recordAll();
      const error = await Promise.resolve(call(client(), id)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      // waitForFinal names its first parameter, which also takes a PaymentCreated.
      expect((error as RequestValidationError).issues.map((i) => i.field)).toContainEqual(
        expect.stringMatching(/^payment(Id|OrId)$/),
      );
      expect(seen).toEqual([]);
    });
  }
});
