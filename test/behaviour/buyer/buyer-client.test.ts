// merchant-gateway/buyer: a client with the buyer's calls alone, on the main entry's transport.

import { inspect } from 'node:util';
import { MerchantGateway } from 'merchant-gateway';
import {
  BuyerClient,
  ConfigurationError,
  NotFoundError,
  PayError,
  PaymentOptionsSchema,
  PaymentViewSchema,
  RequestValidationError,
} from 'merchant-gateway/buyer';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { BASE_URL, recorder, useMsw } from '../../support';
import { PAYMENT_ID, processing, viewBody } from '../../support/buyer-fixtures';

const server = useMsw();
const APP = { baseUrl: BASE_URL, appId: 'app_PUBLIC_id', clientId: 'client_PUBLIC_id' };
const SECRET = 'sk_live_TOPSECRET_buyer_side';

describe('BuyerClient', () => {
  test('has every method of gateway.buyer, and nothing of the partner side', () => {
    const buyer = new BuyerClient(APP);
    const gateway = new MerchantGateway(APP);
    const methods = ['get', 'status', 'options', 'fetchActions', 'confirm', 'cancel', 'pay'];
    for (const name of methods) {
      expect(typeof (buyer as unknown as Record<string, unknown>)[name]).toBe('function');
      expect(typeof (gateway.buyer as unknown as Record<string, unknown>)[name]).toBe('function');
    }
    expect('payments' in buyer).toBe(false);
    expect('merchants' in buyer).toBe(false);
  });

  test('sends App-Id and Client-Id, and the SDK headers, like the main client', async () => {
    const r = recorder(() => HttpResponse.json(viewBody));
    server.use(http.get(`${BASE_URL}/v1/gateway/payment/:id`, r.resolver));
    const view = await new BuyerClient({ ...APP, apiVersion: '2026-02-18' }).get(PAYMENT_ID);
    expect(PaymentViewSchema).toBeDefined();
    expect(view.merchant.name).toBe('Acme');
    const headers = r.seen[0]?.headers;
    expect(headers?.get('app-id')).toBe(APP.appId);
    expect(headers?.get('client-id')).toBe(APP.clientId);
    expect(headers?.get('api-key')).toBeNull();
    expect(headers?.get('sdk-name')).toBe('merchant-gateway');
    expect(headers?.get('wcp-version')).toBe('2026-02-18');
  });

  test('in a browser, the app scheme needs no flag and a secret apiKey is refused', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => new BuyerClient(APP)).not.toThrow();
    expect(() => new BuyerClient({ baseUrl: BASE_URL, apiKey: SECRET })).toThrow(
      ConfigurationError,
    );
    expect(
      () => new BuyerClient({ baseUrl: BASE_URL, apiKey: SECRET, dangerouslyAllowBrowser: true }),
    ).not.toThrow();
  });

  test('checks its options as the main client does', () => {
    expect(() => new BuyerClient({ baseUrl: BASE_URL })).toThrow(ConfigurationError);
    expect(() => new BuyerClient({ ...APP, apiKey: SECRET })).toThrow(/exactly one auth scheme/);
    expect(() => new BuyerClient({ ...APP, baseUrl: 'http://gateway.example' })).toThrow(/https/);
  });

  test('never shows its keys, and withOptions makes a new client', () => {
    const buyer = new BuyerClient({ baseUrl: BASE_URL, apiKey: SECRET });
    expect(JSON.stringify(buyer)).not.toContain('TOPSECRET');
    expect(inspect(buyer)).not.toContain('TOPSECRET');
    expect(inspect(buyer)).toMatch(/^BuyerClient /);
    const other = buyer.withOptions({ baseUrl: 'https://other.example' });
    expect(other).toBeInstanceOf(BuyerClient);
    expect(other.baseUrl).toBe('https://other.example');
    expect(buyer.baseUrl).toBe(BASE_URL);
  });

  test('maps errors to the same classes, scrubbed of its keys', async () => {
    server.use(
      http.get(`${BASE_URL}/v1/gateway/payment/:id`, () =>
        HttpResponse.json(
          { code: 'payment_not_found', message: `no payment for ${SECRET}` },
          { status: 404 },
        ),
      ),
    );
    const buyer = new BuyerClient({ baseUrl: BASE_URL, apiKey: SECRET, maxRetries: 0 });
    const error = await buyer.get(PAYMENT_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(JSON.stringify(error)).not.toContain('TOPSECRET');
  });

  test('exports the schemas and errors a wallet needs', async () => {
    expect(PaymentOptionsSchema).toBeDefined();
    expect(new PayError('x', { reason: 'no_option', paymentId: PAYMENT_ID }).message).toBe(
      'buyer.pay: x',
    );
    const buyer = new BuyerClient(APP);
    await expect(buyer.confirm(PAYMENT_ID, { optionId: '', results: [] })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
  });

  test('confirms through the gateway like gateway.buyer does', async () => {
    const r = recorder(() => HttpResponse.json(processing));
    server.use(http.post(`${BASE_URL}/v1/gateway/payment/:id/confirm`, r.resolver));
    await new BuyerClient(APP).confirm(PAYMENT_ID, { optionId: 'opt_1', results: [] });
    expect(r.seen).toHaveLength(1);
  });
});
