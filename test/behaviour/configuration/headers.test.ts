import {
  type ClientOptions,
  type CreateRequestOptions,
  MerchantGateway,
  RequestValidationError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { API_KEY, BASE_URL, createdBody, LEGACY_KEY, recorder, useMsw } from '../../support';

const everything = recorder(() => HttpResponse.json(createdBody, { status: 201 }));
useMsw(http.all('*', everything.resolver));

const payment = { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'order-1' };

/** Values that would split a header, smuggle another one in, or are not ASCII. */
const HOSTILE = [
  ['a CR', 'abc\rdef'],
  ['a LF', 'abc\ndef'],
  ['a CR LF with an injected header', 'abc\r\nX-Injected: 1'],
  ['a NUL', 'abc\u0000'],
  ['a DEL', 'abc\u007f'],
  ['a Latin-1 letter', 'café'],
  ['a Cyrillic letter', 'ключ'],
  ['a line separator', 'abc\u2028def'],
  ['an emoji', 'key😀'],
] as const;

/** Every way a value reaches a header the SDK sends, and the header it becomes. */
/** The field a RequestValidationError names for a bad value: the option, or the header. */
const SOURCES: [
  string,
  string,
  string,
  (value: string) => [ClientOptions, CreateRequestOptions, object?],
][] = [
  ['apiKey', 'Api-Key', 'headers.Api-Key', (v) => [{ apiKey: v }, {}]],
  ['appId', 'App-Id', 'headers.App-Id', (v) => [{ appId: v, clientId: 'cli_1' }, {}]],
  ['clientId', 'Client-Id', 'headers.Client-Id', (v) => [{ appId: 'app_1', clientId: v }, {}]],
  [
    'the client merchantId',
    'Merchant-Id',
    'merchantId',
    (v) => [{ apiKey: API_KEY, merchantId: v }, {}],
  ],
  [
    'the merchantId of the call',
    'Merchant-Id',
    'merchantId',
    (v) => [{ apiKey: API_KEY }, {}, { merchantId: v }],
  ],
  [
    'apiVersion',
    'WCP-Version',
    'headers.WCP-Version',
    (v) => [{ apiKey: API_KEY, apiVersion: v }, {}],
  ],
  [
    'a client header',
    'X-Team',
    'headers.X-Team',
    (v) => [{ apiKey: API_KEY, headers: { 'X-Team': v } }, {}],
  ],
  [
    'a call header',
    'X-Trace',
    'headers.X-Trace',
    (v) => [{ apiKey: API_KEY }, { headers: { 'X-Trace': v } }],
  ],
  [
    'idempotencyKey',
    'Idempotency-Key',
    'idempotencyKey',
    (v) => [{ apiKey: API_KEY }, { idempotencyKey: v }],
  ],
];

describe.each(SOURCES)('%s', (_, header, field, build) => {
  test.each(HOSTILE)(
    'with %s is a RequestValidationError naming it, and nothing is sent',
    async (_, value) => {
      const [clientOptions, callOptions, params = {}] = build(value);
      const before = everything.seen.length;
      const client = new MerchantGateway({
        baseUrl: BASE_URL,
        merchantId: 'mer_1',
        ...clientOptions,
      });
      const error = await client.payments
        .create({ ...payment, ...params }, callOptions)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues.map((i) => i.field)).toContain(field);
      expect(everything.seen).toHaveLength(before);
    },
  );

  test('with a plain ASCII value is sent as given', async () => {
    const [clientOptions, callOptions, params = {}] = build('plain-Value_1');
    const before = everything.seen.length;
    const client = new MerchantGateway({
      baseUrl: BASE_URL,
      merchantId: 'mer_1',
      ...clientOptions,
    });
    await client.payments.create({ ...payment, ...params }, callOptions);
    expect(everything.seen).toHaveLength(before + 1);
    expect(everything.seen[before]?.headers.get(header)).toBe('plain-Value_1');
  });
});

describe('header values that are not strings (from plain JavaScript)', () => {
  test.each([
    ['a number', 5],
    ['an object', { toString: () => 'x\r\nInjected: 1' }],
    ['an array', ['a', 'b']],
  ])('a custom header that is %s is refused before sending', async (_, value) => {
    const before = everything.seen.length;
    const client = new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, merchantId: 'mer_1' });
    const error = await client.payments
      .create(payment, { headers: { 'X-Odd': value as unknown as string } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.field)).toEqual(['headers.X-Odd']);
    expect(everything.seen).toHaveLength(before);
  });
});

describe('the legacy key', () => {
  test('is not checked or sent by calls that do not use it', async () => {
    const before = everything.seen.length;
    const client = new MerchantGateway({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      legacyApiKey: `${LEGACY_KEY}\r\n`,
      merchantId: 'mer_1',
    });
    await client.payments.create(payment);
    expect(everything.seen).toHaveLength(before + 1);
    expect(everything.seen[before]?.headers.has('x-api-key')).toBe(false);
  });
});

describe("custom headers cannot merge into the SDK's own", () => {
  test.each([
    ['api-key', 'Api-Key', API_KEY],
    ['MERCHANT-ID', 'Merchant-Id', 'mer_1'],
    ['idempotency-key', 'Idempotency-Key', 'order-1'],
    ['Content-Type', 'Content-Type', 'application/json'],
  ])(
    'a custom %s header in another case cannot join its value to the one the SDK sends',
    async (name, header, expected) => {
      const before = everything.seen.length;
      const client = new MerchantGateway({
        baseUrl: BASE_URL,
        apiKey: API_KEY,
        merchantId: 'mer_1',
        headers: { [name]: 'from-client' },
      });
      await client.payments.create(payment, {
        idempotencyKey: 'order-1',
        headers: { [name.toLowerCase()]: 'from-call' },
      });
      expect(everything.seen[before]?.headers.get(header)).toBe(expected);
    },
  );

  test('a header the SDK does not set keeps the last casing and value given', async () => {
    const before = everything.seen.length;
    const client = new MerchantGateway({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      merchantId: 'mer_1',
      headers: { 'x-trace': 'client' },
    });
    await client.payments.create(payment, { headers: { 'X-Trace': 'call' } });
    expect(everything.seen[before]?.headers.get('x-trace')).toBe('call');
  });
});
