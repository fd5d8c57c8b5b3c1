import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import {
  API_KEY,
  answerMerchantGets,
  BASE_URL,
  createdBody,
  gateway,
  MERCHANT_URL,
  merchantGetBody,
  paymentParams,
  recorder,
  useMsw,
} from '../../support';

const server = useMsw();
const payment = paymentParams;

describe('user hooks (ky hooks) on every attempt', () => {
  test('beforeRequest and afterResponse run once per attempt, retries included', async () => {
    const r = recorder((_, n) =>
      n === 1
        ? new HttpResponse(null, { status: 429, headers: { 'retry-after-ms': '1' } })
        : HttpResponse.json(merchantGetBody),
    );
    server.use(http.get(MERCHANT_URL, r.resolver));
    const before: number[] = [];
    const after: number[] = [];
    const client = gateway({
      hooks: {
        beforeRequest: [
          ({ options }) => {
            before.push((options.context as { attempt: number }).attempt);
          },
        ],
        afterResponse: [({ response }) => void after.push(response.status)],
      },
    });
    await client.merchants.get('mer_1');
    expect(before).toEqual([1, 2]);
    expect(after).toEqual([429, 200]);
  });

  test('a beforeRequest hook can add traceparent but not change auth, Merchant-Id or Idempotency-Key', async () => {
    const r = recorder(() => HttpResponse.json(createdBody, { status: 201 }));
    server.use(http.post(`${BASE_URL}/v1/payments`, r.resolver));
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const client = gateway({
      hooks: {
        beforeRequest: [
          ({ request }) => {
            request.headers.set('traceparent', traceparent);
            request.headers.set('Api-Key', 'sk_attacker');
            request.headers.set('Idempotency-Key', 'hijacked');
            request.headers.set('Merchant-Id', 'mer_other');
            request.headers.set('X-Api-Key', 'lk_attacker');
          },
        ],
      },
    });
    await client.payments.create(payment, { idempotencyKey: 'mine-1' });
    const sent = r.seen[0]?.headers;
    expect(sent?.get('traceparent')).toBe(traceparent);
    expect(sent?.get('api-key')).toBe(API_KEY);
    expect(sent?.get('idempotency-key')).toBe('mine-1');
    expect(sent?.get('merchant-id')).toBe('mer_1');
    expect(sent?.get('x-api-key')).toBeNull();
  });

  test('what a hook adds is logged, and the logs stay redacted', async () => {
    answerMerchantGets(server);
    const lines: string[] = [];
    const client = gateway({
      logLevel: 'debug',
      logger: {
        debug: (...parts: unknown[]) => lines.push(JSON.stringify(parts)),
        info() {},
        warn() {},
        error() {},
      },
      hooks: {
        beforeRequest: [({ request }) => void request.headers.set('x-trace', `t ${API_KEY}`)],
      },
    });
    await client.merchants.get('mer_1');
    const text = lines.join('\n');
    expect(text).toContain('"x-trace":"t ***"');
    expect(text).toContain('"api-key":"***"');
    expect(text).not.toContain(API_KEY);
  });

  test('hooks that are not arrays of functions are refused at construction', () => {
    expect(() =>
      gateway({
        hooks: { beforeRequest: 'nope' as never },
      }),
    ).toThrow(/hooks.beforeRequest must be an array of functions/);
  });
});
