import type { CreateRequestOptions, MerchantGateway } from 'merchant-gateway';
import { describe, expect, it } from 'vitest';
import {
  answer,
  answerInTurn,
  expectRefused,
  noRetryGateway,
  useFakeService,
} from '../../support/fake-service';
import { createdMerchant, PAYOUT_ACCOUNT, paymentCreated, USDC_BASE } from '../../support/samples';

useFakeService();

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Create {
  name: string;
  call: (gw: MerchantGateway, options?: CreateRequestOptions) => Promise<unknown>;
  body: unknown;
}

const merchantsCreate: Create = {
  name: 'merchants.create',
  call: (gw, options) =>
    gw.merchants.create({ merchantName: 'Acme', merchantEmail: 'pay@acme.io' }, options),
  body: { merchant: createdMerchant },
};
const settlementsCreate: Create = {
  name: 'settlements.createCrypto',
  call: (gw, options) =>
    gw.settlements.createCrypto(
      'mer_1',
      [{ asset: USDC_BASE, destination: PAYOUT_ACCOUNT }],
      options,
    ),
  body: { settlements: [] },
};
const paymentsCreate: Create = {
  name: 'payments.create',
  call: (gw, options) =>
    gw.payments.create(
      { merchantId: 'mer_1', amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'r-1' },
      options,
    ),
  body: paymentCreated,
};

describe.each([merchantsCreate, settlementsCreate, paymentsCreate])(
  '$name Idempotency-Key',
  ({ call, body }) => {
    it('sends a fresh UUID v4 when the caller gives none', async () => {
      const seen = answer(body, 201);
      await call(noRetryGateway());
      await call(noRetryGateway());
      const keys = seen.map((request) => request.headers.get('idempotency-key'));
      expect(keys[0]).toMatch(UUID_V4);
      expect(keys[1]).toMatch(UUID_V4);
      expect(keys[0]).not.toBe(keys[1]);
    });

    it('reuses the generated key on every retry of one call', async () => {
      const seen = answerInTurn([
        {
          status: 429,
          body: { code: 'rate_limited', message: 'slow down' },
          headers: { 'retry-after-ms': '0' },
        },
        { status: 201, body },
      ]);
      await call(noRetryGateway({ maxRetries: 1 }));
      expect(seen).toHaveLength(2);
      expect(seen[0]?.headers.get('idempotency-key')).toMatch(UUID_V4);
      expect(seen[1]?.headers.get('idempotency-key')).toBe(seen[0]?.headers.get('idempotency-key'));
    });

    it("sends the caller's key as given", async () => {
      const seen = answer(body, 201);
      await call(noRetryGateway(), { idempotencyKey: 'order-1042:create' });
      expect(seen[0]?.headers.get('idempotency-key')).toBe('order-1042:create');
    });
  },
);

describe.each([merchantsCreate, settlementsCreate, paymentsCreate])(
  '$name idempotencyKey rules',
  ({ call, body }) => {
    it('accepts a key of 255 visible ASCII characters, the whole range', async () => {
      const visible = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
      const key = visible.repeat(3).slice(0, 255);
      const seen = answer(body, 201);
      await call(noRetryGateway(), { idempotencyKey: key });
      expect(seen[0]?.headers.get('idempotency-key')).toBe(key);
    });

    it.each([
      { rule: 'a key of 256 characters', key: 'k'.repeat(256) },
      { rule: 'an empty key', key: '' },
      { rule: 'a space', key: 'order 1042' },
      { rule: 'a non-ASCII character', key: 'commande-é' },
      { rule: 'a line feed', key: 'order-1042\n' },
      { rule: 'a tab', key: 'order\t1042' },
    ])('refuses $rule before sending', async ({ key }) => {
      const seen = answer(body, 201);
      await expectRefused(call(noRetryGateway(), { idempotencyKey: key }), seen, 'idempotencyKey');
    });
  },
);
