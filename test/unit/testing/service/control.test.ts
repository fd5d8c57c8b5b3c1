// The control API under /__mock/, over real HTTP (the only way it is served).
import { MerchantGateway } from 'merchant-gateway';
import type { MockMerchant, MockPayment, RecordedRequest } from 'merchant-gateway/testing';
import { describe, expect, it } from 'vitest';
import { type ErrorBody, useMockGateway } from '../../../support/mock-harness';

describe('the control API (/__mock/) over real HTTP', () => {
  const h = useMockGateway('http', { pollInMs: 100 });
  const control = <T = Record<string, unknown>>(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    h.call<T & ErrorBody>(`/__mock/${path}`, {
      ...init,
      headers: init.headers ?? h.auth,
      ...(init.method === undefined && init.body !== undefined ? { method: 'POST' } : {}),
    });
  const createPayment = async () => {
    const res = await h.call<{ paymentId: string }>('/v1/payments', {
      method: 'POST',
      headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId },
      body: { referenceId: 'control-1', amount: { unit: 'iso4217/USD', value: '1250' } },
    });
    expect(res.status).toBe(201);
    return res.body.paymentId;
  };

  it.each([
    ['no key', {}, 'missing_api_key'],
    ['a wrong key', { 'Api-Key': 'sk_test_wrong' }, 'invalid_api_key'],
    [
      'the app scheme',
      { 'App-Id': 'app_test_mock', 'Client-Id': 'client_test_mock' },
      'missing_api_key',
    ],
  ])('answers 401 in the service shape with %s, and changes nothing', async (_, headers, code) => {
    const id = await createPayment();
    const res = await control(`payments/${id}/status`, { headers, body: { status: 'succeeded' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code, message: expect.any(String) });
    expect(h.mock.getPayment(id)?.status).toBe('requires_action');
  });

  it('sets a payment status: the answer is the payment, and /v1 reads it back', async () => {
    const id = await createPayment();
    const res = await control<MockPayment>(`payments/${id}/status`, {
      body: { status: 'succeeded' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'succeeded',
      merchantId: h.mock.sample.merchantId,
    });
    expect(res.body.buyer).not.toBeNull();
    const gateway = new MerchantGateway({ baseUrl: h.baseUrl, apiKey: h.mock.credentials.apiKey });
    const read = await gateway.payments.status(id, { merchantId: h.mock.sample.merchantId });
    expect(read).toMatchObject({ status: 'succeeded', isFinal: true });
  });

  it('answers a payment with paymentId, as every SDK type names it (id kept alike)', async () => {
    const id = await createPayment();
    const set = await control<MockPayment>(`payments/${id}/status`, {
      body: { status: 'processing' },
    });
    expect(set.body).toMatchObject({ paymentId: id, id });
    const read = await control<MockPayment>(`payments/${id}`);
    expect(read.body).toMatchObject({ paymentId: id, id, status: 'processing' });
    const advanced = await control<{ paymentIds: string[] }>('payments/advance', { body: {} });
    expect(advanced.body.paymentIds).toContain(id);
  });

  it('answers 404 payment_not_found for an unknown payment id', async () => {
    const res = await control('payments/pay_nope/status', { body: { status: 'failed' } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'payment_not_found',
      details: { paymentId: 'pay_nope' },
    });
    expect((await control('payments/pay_nope')).status).toBe(404);
  });

  it.each([
    ['an unknown status', { status: 'paid' }, 'status'],
    ['no status', {}, 'status'],
    ['a body that is not an object', [1], 'body'],
    ['a body that is not JSON', '{"status":', 'body'],
  ])('answers 400 params_validation naming the field for %s', async (_, body, field) => {
    const id = await createPayment();
    const res = await control(`payments/${id}/status`, { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'params_validation', issues: [{ field }] });
  });

  it('advances open payments and answers with the ids of the ones that moved', async () => {
    const id = await createPayment();
    const res = await control<{ moved: number; paymentIds: string[] }>('payments/advance', {
      method: 'POST',
    });
    expect(res.status).toBe(200);
    expect(res.body.moved).toBe(res.body.paymentIds.length);
    expect(res.body.paymentIds).toContain(id);
    expect(h.mock.getPayment(id)?.status).toBe('processing');
    const failed = await control<{ paymentIds: string[] }>('payments/advance', {
      body: { path: ['processing', 'failed'] },
    });
    expect(failed.body.paymentIds).toContain(id);
    expect(h.mock.getPayment(id)?.status).toBe('failed');
  });

  it.each([[['succeeded']], [['requires_action', 'paid']], ['processing']])(
    'refuses the advance path %j with 400 naming path',
    async (path) => {
      const res = await control('payments/advance', { body: { path } });
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([
        { field: 'path', message: expect.stringContaining('two or more') },
      ]);
    },
  );

  it('queues a fault for the next service request, never for a control call', async () => {
    const fault = {
      status: 503,
      code: 'maintenance',
      times: 1,
      match: { method: 'GET', path: '/v1/merchants' },
    };
    expect((await control('faults', { body: fault })).status).toBe(204);
    // A control call between does not take it.
    expect((await control(`merchants/${h.mock.sample.merchantId}`)).status).toBe(200);
    const res = await h.call(`/v1/merchants/${h.mock.sample.merchantId}`, { headers: h.auth });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'maintenance' });
    const next = await h.call(`/v1/merchants/${h.mock.sample.merchantId}`, { headers: h.auth });
    expect(next.status).toBe(200);
  });

  it.each([
    ['an unknown field', { status: 500, retries: 2 }, 'retries'],
    ['a wrong type', { status: '500' }, 'status'],
    ['a status out of range', { status: 700 }, 'status'],
    ['times below one', { status: 500, times: 0 }, 'times'],
    [
      'a header that is not a string',
      { status: 500, headers: { 'retry-after': 2 } },
      'headers.retry-after',
    ],
    [
      'a regular expression match',
      { status: 500, match: { path: { source: '/v1' } } },
      'match.path',
    ],
    ['an unknown match field', { status: 500, match: { host: 'x' } }, 'match.host'],
  ])('refuses a fault with %s: 400 naming the field', async (_, body, field) => {
    const res = await control('faults', { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'params_validation' });
    expect(res.body.issues?.map((i) => i.field)).toContain(field);
    // Nothing was queued.
    expect(
      (await h.call(`/v1/merchants/${h.mock.sample.merchantId}`, { headers: h.auth })).status,
    ).toBe(200);
  });

  it('lists the last N recorded requests, newest last, keys redacted, control calls left out', async () => {
    await h.call('/v1/merchants/payments?limit=1', {
      headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId },
    });
    await h.call('/v1/merchants?limit=1', { headers: h.auth });
    await h.call(`/v1/merchants/${h.mock.sample.merchantId}`, {
      headers: { 'X-Api-Key': 'lk_x', ...h.auth },
    });
    await control('payments/advance', { method: 'POST' });
    const res = await control<RecordedRequest[]>('requests?limit=2');
    expect(res.status).toBe(200);
    expect(res.body.map((r) => r.path)).toEqual([
      '/v1/merchants',
      `/v1/merchants/${h.mock.sample.merchantId}`,
    ]);
    expect(res.body[1]?.headers['api-key']).toBe('***');
    expect(res.body[1]?.headers['x-api-key']).toBe('***');
    expect(JSON.stringify(res.body)).not.toContain(h.mock.credentials.apiKey);
    expect((await control<RecordedRequest[]>('requests')).body).toHaveLength(3);
    expect((await control<RecordedRequest[]>('requests?limit=0')).body).toEqual([]);
    const bad = await control('requests?limit=-1');
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([{ field: 'limit', message: expect.any(String) }]);
  });

  it('reads a payment and a merchant as getPayment and getMerchant give them', async () => {
    const id = await createPayment();
    expect((await control<MockPayment>(`payments/${id}`)).body).toEqual({
      paymentId: id,
      ...h.mock.getPayment(id),
    });
    const merchant = await control<MockMerchant>(`merchants/${h.mock.sample.merchantId}`);
    expect(merchant.body).toEqual(h.mock.getMerchant(h.mock.sample.merchantId));
    const unknown = await control('merchants/mer_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'merchant_not_found' });
  });

  it('resets the mock: 204, created payments and recorded requests gone', async () => {
    const id = await createPayment();
    const res = await control('reset', { method: 'POST' });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(h.mock.getPayment(id)).toBeUndefined();
    expect(h.mock.requests).toEqual([]);
  });

  it('answers 404 for an unknown control route and 405 with Allow for a wrong method', async () => {
    const unknown = await control('payments');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found' });
    const wrong = await control('reset');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('answers 404 for a malformed percent-encoding in a control path', async () => {
    const res = await control('payments/%E0%A4%A');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });

  it('works under a path prefix, as the service routes do', async () => {
    const id = await createPayment();
    const res = await h.call<MockPayment>(`/api/gateway/__mock/payments/${id}/status`, {
      method: 'POST',
      headers: h.auth,
      body: { status: 'cancelled' },
    });
    expect(res.status).toBe(200);
    expect(h.mock.getPayment(id)?.status).toBe('cancelled');
  });
});
