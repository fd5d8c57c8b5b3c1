import {
  ApiError,
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  MerchantGatewayError,
  NotFoundError,
  RateLimitedError,
  ResponseValidationError,
  ServerError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import {
  answerMerchantGets,
  BASE_URL,
  gateway,
  MERCHANT_URL,
  merchantGetBody,
  recorder,
  useMsw,
} from '../../support';

const server = useMsw();

async function failure(respond: () => Response): Promise<unknown> {
  server.use(http.get(MERCHANT_URL, respond));
  return gateway({ maxRetries: 0 })
    .merchants.get('mer_1')
    .catch((e: unknown) => e);
}

describe('one factory from (status, body) to class, by code first', () => {
  test.each([
    [400, 'rate_limited', RateLimitedError],
    [500, 'rate_limited', RateLimitedError],
    [429, undefined, RateLimitedError],
    [401, undefined, AuthenticationError],
    [400, 'invalid_api_key', AuthenticationError],
    [401, 'missing_api_key', AuthenticationError],
    [400, undefined, InvalidRequestError],
    [422, 'params_validation', InvalidRequestError],
    [404, undefined, NotFoundError],
    [409, 'settlement_asset_conflict', ConflictError],
    [409, undefined, ConflictError],
    [503, undefined, ServerError],
    [400, 'bad_gateway', ServerError],
    [418, 'brand_new_code', ApiError],
  ] as const)('status %i with code %s is a %o', async (status, code, ErrorClass) => {
    const body = code === undefined ? { message: 'x' } : { code, message: 'x' };
    const error = await failure(() => HttpResponse.json(body, { status }));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(MerchantGatewayError);
    expect((error as ApiError).status).toBe(status);
    expect((error as ApiError).code).toBe(code);
    expect((error as Error).name).toBe(ErrorClass.name);
  });
});

describe('what an ApiError carries', () => {
  test('the message names method, path, status, code and the service message', async () => {
    const error = (await failure(() =>
      HttpResponse.json(
        {
          code: 'params_validation',
          message: 'merchantEmail is invalid',
          details: { hint: 'check the domain' },
          issues: [{ field: 'merchantEmail', message: 'is invalid' }],
        },
        { status: 400, headers: { 'x-request-id': 'req_42' } },
      ),
    )) as ApiError;
    expect(error.message).toBe(
      'GET /v1/merchants/mer_1 → 400 params_validation: merchantEmail is invalid',
    );
    expect(error).toMatchObject({
      method: 'GET',
      path: '/v1/merchants/mer_1',
      requestId: 'req_42',
      details: { hint: 'check the domain' },
      issues: [{ field: 'merchantEmail', message: 'is invalid' }],
    });
    expect(error.headers['x-request-id']).toBe('req_42');
    expect(error.body).toMatchObject({ code: 'params_validation' });
  });

  test('an HTML 502 from a proxy becomes a ServerError with a short cut snippet', async () => {
    const html = `<html><body><h1>502 Bad Gateway</h1>${'<p>nginx</p>'.repeat(100)}</body></html>`;
    const error = (await failure(() => new HttpResponse(html, { status: 502 }))) as ApiError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.code).toBeUndefined();
    expect(error.message).toMatch(
      /^GET \/v1\/merchants\/mer_1 → 502 <html><body><h1>502 Bad Gateway/,
    );
    expect(error.message.length).toBeLessThan(220);
    expect(error.message.endsWith('…')).toBe(true);
    expect(error.body).toBe(html);
  });

  test('an empty 503 says so', async () => {
    const error = (await failure(() => new HttpResponse(null, { status: 503 }))) as ApiError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('GET /v1/merchants/mer_1 → 503 (empty body)');
    expect(error.body).toBe('');
  });

  test('an unknown error code is surfaced as it is', async () => {
    const error = (await failure(() =>
      HttpResponse.json({ code: 'merchant_frozen', message: 'frozen' }, { status: 403 }),
    )) as ApiError;
    expect(error.code).toBe('merchant_frozen');
    expect(error.message).toContain('403 merchant_frozen: frozen');
  });
});

describe('2xx bodies that do not fit', () => {
  test('a 200 with an HTML body is a ResponseValidationError with the raw text', async () => {
    const error = (await failure(
      () =>
        new HttpResponse('<html>hi</html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        }),
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.status).toBe(200);
    expect(error.body).toBe('<html>hi</html>');
    expect(error.issues[0]?.message).toBe('body is not JSON');
  });

  test('truncated JSON is a ResponseValidationError', async () => {
    const error = await failure(
      () => new HttpResponse('{"merchant": {"id": "mer_', { status: 200 }),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  test('a missing required field is named in the issues, with the request id', async () => {
    const { id: _, ...merchant } = merchantGetBody.merchant;
    const error = (await failure(() =>
      HttpResponse.json({ merchant }, { headers: { 'x-request-id': 'req_7' } }),
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues).toContainEqual({ field: 'merchant.id', message: 'expected string' });
    expect(error.requestId).toBe('req_7');
    expect(error.message).toContain('merchant.id: expected string');
  });

  test('on a GET the message says nothing of the service acting', async () => {
    const error = (await failure(() => HttpResponse.json({}))) as ResponseValidationError;
    expect(error.message).toBe(
      'GET /v1/merchants/mer_1 → 200: unexpected response body: merchant: expected object',
    );
    expect(error.idempotencyKey).toBeUndefined();
  });

  test('on a keyless PATCH it says the service acted and to read the state before repeating', async () => {
    server.use(http.patch(MERCHANT_URL, () => HttpResponse.json({ ok: true })));
    const error = await gateway({ maxRetries: 0 })
      .merchants.update('mer_1', { merchantName: 'New' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toBe(
      'PATCH /v1/merchants/mer_1 → 200: unexpected response body: merchant: expected object. The service acted on this request (it answered 200): read its current state before repeating it',
    );
  });

  test('on a keyed create it says the service acted and to repeat with the same key', async () => {
    server.use(http.post(`${BASE_URL}/v1/payments`, () => HttpResponse.json({}, { status: 201 })));
    const error = (await gateway({ maxRetries: 0, merchantId: 'mer_1' })
      .payments.create(
        { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'order-7' },
        { idempotencyKey: 'order-7' },
      )
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.idempotencyKey).toBe('order-7');
    expect(error.message).toMatch(
      /^POST \/v1\/payments → 201: unexpected response body: .*\. The service acted on this request \(it answered 201\): repeat the call with the same idempotencyKey "order-7" to get its result$/,
    );
  });
});

describe('raw responses', () => {
  test('withResponse gives the data, the Response and the request id', async () => {
    const r = recorder(() =>
      HttpResponse.json(merchantGetBody, { headers: { 'x-request-id': 'req_9' } }),
    );
    server.use(http.get(MERCHANT_URL, r.resolver));
    const { data, response, requestId } = await gateway().merchants.get('mer_1').withResponse();
    expect(data.id).toBe('mer_1');
    expect(response.status).toBe(200);
    expect(requestId).toBe('req_9');
  });

  test('an ApiPromise is a Promise, and then() chains like one', async () => {
    answerMerchantGets(server);
    const call = gateway().merchants.get('mer_1');
    expect(call).toBeInstanceOf(Promise);
    await expect(call.then((m) => m.name)).resolves.toBe('Acme');
  });
});
