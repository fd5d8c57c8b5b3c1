import fc from 'fast-check';
import { type MerchantGateway, NotFoundError, RequestValidationError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { BASE_URL, gateway, recorder, useMsw } from '../../support';

// Every request, wherever it goes, is answered 404 and recorded: the URL is what matters here.
const everything = recorder(() =>
  HttpResponse.json({ code: 'not_found', message: 'no' }, { status: 404 }),
);
useMsw(http.all('*', everything.resolver));

// The deprecated list warns once through the logger: keep that out of the test output.
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const client = gateway({ maxRetries: 0, logger: quiet });

/** Every method that puts a caller's id in the path: its template and the field it names. */
const METHODS: [string, string, string, (c: MerchantGateway, id: string) => Promise<unknown>][] = [
  ['merchants.get', '/v1/merchants/{}', 'merchantId', (c, id) => c.merchants.get(id)],
  [
    'merchants.update',
    '/v1/merchants/{}',
    'merchantId',
    (c, id) => c.merchants.update(id, { merchantName: 'Acme' }),
  ],
  [
    'settlements.createCrypto',
    '/v1/merchants/{}/settlements/crypto',
    'merchantId',
    (c, id) =>
      c.settlements.createCrypto(id, [
        { asset: 'eip155:1/erc20:0xabc', destination: 'eip155:1:0xdef' },
      ]),
  ],
  ['payments.get', '/v1/gateway/payment/{}', 'paymentId', (c, id) => c.payments.get(id)],
  [
    'legacyPayments.list',
    '/v1/merchants/{}/payments',
    'merchant_id',
    async (c, id) => await c.legacyPayments.list(id),
  ],
];

/** The rule the contract states: empty, `.`, `..`, control characters, past 255 characters (and broken Unicode) are refused. */
function mustRefuse(id: string): boolean {
  const control = [...id].some((c) => (c.codePointAt(0) as number) < 0x20 || c === '\u007f');
  if (id === '' || id === '.' || id === '..' || control || [...id].length > 255) return true;
  try {
    encodeURIComponent(id);
    return false;
  } catch {
    return true;
  }
}

/**
 * Calls `method` with `id` and checks the outcome against the template: refused before sending,
 * or exactly one request to the base URL's origin whose path has the template's segments, with
 * `id` as one whole segment.
 */
async function check([, template, field, call]: (typeof METHODS)[number], id: string) {
  const before = everything.seen.length;
  const error = await call(client, id).catch((e: unknown) => e);
  if (mustRefuse(id)) {
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.field).toBe(field);
    expect(everything.seen).toHaveLength(before);
    return;
  }
  expect(error).toBeInstanceOf(NotFoundError);
  expect(everything.seen).toHaveLength(before + 1);
  const url = new URL(everything.seen[before]?.url as string);
  expect(url.origin).toBe(BASE_URL);
  expect(url.search).toBe('');
  expect(url.hash).toBe('');
  const expected = template.split('/');
  const actual = url.pathname.split('/');
  expect(actual).toHaveLength(expected.length);
  actual.forEach((segment, i) => {
    if (expected[i] === '{}') expect(decodeURIComponent(segment)).toBe(id);
    else expect(segment).toBe(expected[i]);
  });
}

const HOSTILE = [
  '../merchants',
  '../../v1/payments',
  'a/b',
  '%2e%2e',
  '%2E%2E%2F',
  '.%2e',
  '?x',
  '#y',
  '?x=1#y',
  '\\..\\x',
  './x',
  '...',
  '//evil.test/x',
  '@evil.test',
  'https://evil.test/',
  ';x=1',
  ' mer 1 ',
  'mér_1',
  '😀',
  '',
  '.',
  '..',
  'a\nb',
  'a\rb',
  'a\tb',
  '\u0000',
  '\u007f',
  '\ud800',
];

describe.each(METHODS)('%s', (...method) => {
  test.each(HOSTILE)(
    'the id %j is encoded as one segment or refused, never leaving its path',
    (id) => check(method, id),
  );

  test.each([
    ['../merchants', '..%2Fmerchants'],
    ['a/b', 'a%2Fb'],
    ['%2e%2e', '%252e%252e'],
    ['...', '...'],
    ['a b?c#d', 'a%20b%3Fc%23d'],
    ['café', 'caf%C3%A9'],
  ])('the id %j is sent percent-encoded, as %s', async (id, encoded) => {
    const [, template, , call] = method;
    const before = everything.seen.length;
    await call(client, id).catch(() => undefined);
    const url = new URL(everything.seen[before]?.url as string);
    expect(url.pathname).toBe(template.replace('{}', encoded));
  });

  test('any string as the id is encoded as one segment or refused', async () => {
    const pathish = fc
      .array(
        fc.constantFrom(
          '.',
          '..',
          '/',
          '\\',
          '%2e',
          '%2f',
          '%',
          '?',
          '#',
          '@',
          ':',
          'a',
          ' ',
          'é',
          '\n',
        ),
        { maxLength: 8 },
      )
      .map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(fc.oneof(pathish, fc.string({ unit: 'binary', maxLength: 12 })), (id) =>
        check(method, id),
      ),
      { numRuns: 50 },
    );
    // 50 requests over the mock's sockets, under a loaded suite.
  }, 30_000);

  test.each([
    ['a number', 42],
    ['undefined', undefined],
    ['an object', { toString: () => '../merchants' }],
  ])('an id that is %s (from plain JavaScript) is refused before sending', async (_, id) => {
    const [, , field, call] = method;
    const before = everything.seen.length;
    const error = await call(client, id as unknown as string).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]).toEqual({
      field,
      message: 'must be a string',
    });
    expect(everything.seen).toHaveLength(before);
  });
});
