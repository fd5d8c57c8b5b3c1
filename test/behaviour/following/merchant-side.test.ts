import type { PaymentCreated, PaymentStatusResult } from 'merchant-gateway';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { BASE_URL, createdBody, polluted } from '../../support';
import { created, gateway, HttpResponse, PAYMENT_ID, useScriptedGateway } from './helpers';

const mock = useScriptedGateway();

/** Follows to the final status (the service answers `succeeded` at once) with both methods. */
async function follow(run: () => Promise<unknown>): Promise<void> {
  mock.statuses('succeeded');
  await Promise.all([run(), vi.advanceTimersByTimeAsync(0)]);
}

const both = {
  waitForFinal: (
    client: ReturnType<typeof gateway>,
    payment: PaymentCreated | string,
    options = {},
  ) => client.payments.waitForFinal(payment, options),
  watch: async (
    client: ReturnType<typeof gateway>,
    payment: PaymentCreated | string,
    options = {},
  ) => {
    const seen: PaymentStatusResult[] = [];
    for await (const update of client.payments.watch(payment, options)) seen.push(update);
    return seen;
  },
};

describe.each(Object.entries(both))('%s reads the merchant a payment was created for', (_, run) => {
  it('reads GET /v1/payments/{id}/status for a created payment on a client without a merchant id', async () => {
    mock.server.use(
      http.post(`${BASE_URL}/v1/payments`, () => HttpResponse.json(createdBody, { status: 201 })),
    );
    const partner = gateway({ merchantId: undefined });
    const payment = await partner.payments.create({
      merchantId: 'mer_created',
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'order-1042',
    });
    expect(payment.merchantId).toBe('mer_created');

    await follow(() => run(partner, payment));

    expect(mock.state.reads).toMatchObject([
      { path: `/v1/payments/${PAYMENT_ID}/status`, merchantId: 'mer_created' },
    ]);
  });

  it('prefers the payment’s merchant to the client’s, and the merchantId option to both', async () => {
    const payment = created({ merchantId: 'mer_created' });
    await follow(() => run(gateway(), payment));
    await follow(() => run(gateway(), payment, { merchantId: 'mer_option' }));

    expect(mock.state.reads.map((r) => r.merchantId)).toEqual(['mer_created', 'mer_option']);
  });

  it('reads the gateway side for an app-scheme client, whatever the payment says', async () => {
    const app = gateway({ apiKey: undefined, appId: 'app_1', clientId: 'client_1' });
    await follow(() => run(app, created({ merchantId: 'mer_created' })));

    expect(mock.state.reads).toMatchObject([
      { path: `/v1/gateway/payment/${PAYMENT_ID}/status`, merchantId: null },
    ]);
  });

  it('refuses a payment whose merchantId is not a header value, before any read', async () => {
    const error = await run(gateway(), created({ merchantId: 'mer 1' })).catch((e: unknown) => e);

    expect(error).toMatchObject({
      name: 'RequestValidationError',
      issues: [{ field: 'paymentOrId.merchantId' }],
    });
    expect(mock.state.reads).toEqual([]);
  });

  it('refuses a client merchantId that is not a header value when it is the one used', async () => {
    const error = await run(gateway({ merchantId: 'mer 1' }), PAYMENT_ID).catch((e: unknown) => e);
    await follow(() => run(gateway({ merchantId: 'mer 1' }), created({ merchantId: 'mer_ok' })));

    expect(error).toMatchObject({
      name: 'RequestValidationError',
      issues: [{ field: 'merchantId', message: expect.stringContaining("(the client's)") }],
    });
    expect(mock.state.reads.map((r) => r.merchantId)).toEqual(['mer_ok']);
  });

  it('is not redirected by a merchantId on a polluted Object.prototype', async () => {
    const { merchantId: _, ...withoutMerchant } = created();
    await polluted({ merchantId: 'mer_evil' }, async () => {
      await follow(() => run(gateway({ merchantId: 'mer_own' }), PAYMENT_ID, { timeoutMs: 5000 }));
      await follow(() => run(gateway({ merchantId: 'mer_own' }), withoutMerchant, {}));
      await follow(() => run(gateway({ merchantId: undefined }), PAYMENT_ID, { timeoutMs: 5000 }));
    });

    expect(mock.state.reads).toMatchObject([
      { merchantId: 'mer_own' },
      { merchantId: 'mer_own' },
      { path: `/v1/gateway/payment/${PAYMENT_ID}/status`, merchantId: null },
    ]);
  });
});
