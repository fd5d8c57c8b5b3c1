// Control input is checked when it is given, not when it is used (issue 41.9): over real HTTP, a
// fault or any control body with a key naming a prototype, a header HTTP cannot carry, a delay
// past what a timer keeps or nesting past a sane depth is a 400 naming the field, and the next
// /v1 call is answered as usual (before: no answer at all, a dropped socket on the next call, a
// 1 ms delay). In-process, mock.failNext refuses the same input with an error naming the field.
import { createMockGateway, type FailNextOptions } from 'merchant-gateway/testing';
import { describe, expect, it } from 'vitest';
import { useMockGateway } from '../../support/mock-harness';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Raw JSON bodies (a `__proto__` key survives only as text) and the field each 400 names. */
const REFUSED: [string, string, string][] = [
  ['a __proto__ key', '{"status": 500, "__proto__": {"status": 200}}', '__proto__'],
  ['a constructor key', '{"status": 500, "constructor": 1}', 'constructor'],
  ['a __proto__ header', '{"status": 500, "headers": {"__proto__": "x"}}', 'headers.__proto__'],
  [
    'a header name with a space',
    '{"status": 500, "headers": {"bad name": "x"}}',
    'headers.bad name',
  ],
  ['a CR/LF header value', '{"status": 500, "headers": {"x-a": "a\\r\\nb: c"}}', 'headers.x-a'],
  [
    'a framing header',
    '{"status": 500, "headers": {"Content-Length": "99"}}',
    'headers.Content-Length',
  ],
  ['a CR/LF retryAfter', '{"status": 503, "retryAfter": "1\\nx: y"}', 'retryAfter'],
  ['a delay past 2^31 - 1 ms', '{"delayMs": 1e12}', 'delayMs'],
  ['a body nested 64 deep', `{"status": 500, "body": ${nested(64)}}`, 'body'],
];

describe('control input over real HTTP', () => {
  const h = useMockGateway('http');
  const merchant = () => h.call(`/v1/merchants/${h.mock.sample.merchantId}`, { headers: h.auth });

  it.each(REFUSED)(
    'refuses a fault with %s: 400 naming it, and /v1 answers next',
    async (_, body, field) => {
      const res = await h.call<{ code: string; issues?: { field: string }[] }>('/__mock/faults', {
        method: 'POST',
        headers: h.auth,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('params_validation');
      expect(res.body.issues?.map((i) => i.field)[0]).toMatch(new RegExp(`^${literally(field)}`));
      // Nothing was queued: the next call is the service's own answer, on time.
      const started = Date.now();
      expect((await merchant()).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(10_000);
    },
    30_000,
  );

  it.each([
    ['payments/advance', '{"__proto__": {"path": ["requires_action", "failed"]}}', '__proto__'],
    [
      'webhooks',
      '{"url": "https://shop.example/h", "constructor": {"prototype": 1}}',
      'constructor',
    ],
    ['payments/advance', `{"path": ${nested(40)}}`, 'path'],
  ])(
    'refuses any control body (%s) with %s',
    async (route, body, field) => {
      const res = await h.call<{ issues?: { field: string }[] }>(`/__mock/${route}`, {
        method: 'POST',
        headers: h.auth,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.issues?.[0]?.field).toMatch(new RegExp(`^${literally(field)}`));
      expect(h.mock.webhooks.list()).toEqual([]);
      expect((await merchant()).status).toBe(200);
    },
    30_000,
  );

  it('still takes a fault with ordinary headers and a delay a timer keeps', async () => {
    const res = await h.call('/__mock/faults', {
      method: 'POST',
      headers: h.auth,
      body: {
        status: 503,
        retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT',
        headers: { 'x-why': 'drill' },
        delayMs: 1,
      },
    });
    expect(res.status).toBe(204);
    const failed = await merchant();
    expect(failed.status).toBe(503);
    expect(failed.headers.get('x-why')).toBe('drill');
    expect(failed.headers.get('retry-after')).toBe('Wed, 21 Oct 2026 07:28:00 GMT');
    expect((await merchant()).status).toBe(200);
  }, 30_000);
});

describe('mock.failNext', () => {
  it.each(REFUSED)('refuses a fault with %s, naming it', (_, body, field) => {
    const mock = createMockGateway();
    const fault = JSON.parse(body) as FailNextOptions;
    expect(() => mock.failNext(fault)).toThrow(new RegExp(`^failNext: ${literally(field)}`));
  });

  it('refuses no fault at all', () => {
    expect(() => createMockGateway().failNext(null as unknown as FailNextOptions)).toThrow(
      /^failNext: body must be an object/,
    );
  });

  it('refuses a body that refers to itself', () => {
    const body: Record<string, unknown> = {};
    body.self = body;
    expect(() => createMockGateway().failNext({ status: 500, body })).toThrow(
      /failNext: body\.self/,
    );
  });
});

function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
