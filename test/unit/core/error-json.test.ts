import {
  ApiError,
  MerchantGatewayError,
  RequestValidationError,
  ResponseValidationError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { API_KEY, BASE_URL, gateway, MERCHANT_URL, useMsw } from '../../support';

const server = useMsw();

function serialized(error: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
}

describe('JSON.stringify(error)', () => {
  test('gives name, message, code, status, requestId, issues and details, with keys redacted', async () => {
    server.use(
      http.get(MERCHANT_URL, () =>
        HttpResponse.json(
          {
            code: 'params_validation',
            message: `bad key ${API_KEY}`,
            details: { echoed: API_KEY },
            issues: [{ field: 'merchantId', message: 'is wrong' }],
          },
          { status: 400, headers: { 'x-request-id': 'req_9' } },
        ),
      ),
    );
    const error = await gateway()
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const json = serialized(error);
    expect(json).toMatchObject({
      name: 'InvalidRequestError',
      message: 'GET /v1/merchants/mer_1 → 400 params_validation: bad key ***',
      code: 'params_validation',
      status: 400,
      requestId: 'req_9',
      issues: [{ field: 'merchantId', message: 'is wrong' }],
      details: { echoed: '***' },
      method: 'GET',
      path: '/v1/merchants/mer_1',
    });
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });

  test('shows the idempotencyKey of a keyed call (it is not a secret)', async () => {
    server.use(
      http.post(`${BASE_URL}/v1/payments`, () =>
        HttpResponse.json({ code: 'idempotency_conflict', message: 'other body' }, { status: 409 }),
      ),
    );
    const error = await gateway({ merchantId: 'mer_1' })
      .payments.create(
        { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'order-1' },
        { idempotencyKey: 'order-1' },
      )
      .catch((e: unknown) => e);
    expect(serialized(error)).toMatchObject({
      name: 'ConflictError',
      status: 409,
      code: 'idempotency_conflict',
      idempotencyKey: 'order-1',
    });
  });

  test('never throws on a body nested 10,000 deep (all of it within the 64 KiB an error keeps), and stays small', async () => {
    const depth = 10_000;
    const body = `{"code":"internal_error","message":"deep","details":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    server.use(http.get(MERCHANT_URL, () => new HttpResponse(body, { status: 400 })));
    const error = await gateway({ maxRetries: 0 })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const text = JSON.stringify(error);
    expect(text.length).toBeLessThan(10_000);
    expect(text).toContain('[Truncated: nested too deep]');
    expect(serialized(error)).toMatchObject({ message: expect.stringContaining('deep') });
  });

  test('cuts long strings and wide arrays, and names a cycle instead of throwing', () => {
    const looped: Record<string, unknown> = { id: 1 };
    looped.self = looped;
    const error = new ResponseValidationError('GET /x', {
      issues: [],
      body: {
        text: 'x'.repeat(50_000),
        list: Array.from({ length: 1_000 }, (_, i) => i),
        looped,
        n: 10n,
        when: new Date(0),
        bad: new Date(Number.NaN),
        inf: Number.POSITIVE_INFINITY,
        fn: () => 1,
        wide: Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i])),
      },
      status: 200,
    });
    const json = serialized(error) as { body: Record<string, unknown> };
    expect((json.body.text as string).length).toBeLessThan(5_000);
    expect(json.body.list).toHaveLength(101);
    expect(json.body.looped).toStrictEqual({ id: 1, self: '[Circular]' });
    expect(json.body.n).toBe('10');
    expect(json.body.when).toBe('1970-01-01T00:00:00.000Z');
    expect(json.body.bad).toBeNull();
    expect(json.body.inf).toBe('Infinity');
    expect(json.body).not.toHaveProperty('fn');
    expect(Object.keys(json.body.wide as object)).toHaveLength(101);
    expect(json.body.wide).toHaveProperty('…', '50 more keys');
  });

  test('a RequestValidationError gives its issues, and a cause shows name and message', async () => {
    const error = await gateway()
      .merchants.create({ merchantName: '', merchantEmail: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    const json = serialized(error);
    expect(json.name).toBe('RequestValidationError');
    expect(json.issues).toHaveLength(2);
    const wrapped = new MerchantGatewayError('outer', { cause: new TypeError('inner') });
    expect(serialized(wrapped)).toStrictEqual({
      name: 'MerchantGatewayError',
      message: 'outer',
      cause: { name: 'TypeError', message: 'inner' },
    });
  });
});
