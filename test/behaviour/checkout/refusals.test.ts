// Everything the checkout route refuses, on node() over a real socket (the target sent exactly as
// written) and on fetch(): each refusal has its status and code, carries only the route's own
// headers and no key, and reached nothing (the mock's request log is unchanged).
import type { CheckoutRoute, CheckoutRouteCall, CheckoutRouteOptions } from 'merchant-gateway';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type Answer,
  type Call,
  expectNoSecret,
  expectOwnHeadersOnly,
  fetchCall,
  openPayment,
  rawCall,
  routeOnMock,
  type serveRoute,
} from './support';

const mock = createMockGateway({ pollInMs: 100 });
let server: MockServer;
let gateway: MerchantGateway;
let route: CheckoutRoute;
let host: Awaited<ReturnType<typeof serveRoute>>;
let paymentId: string;
const asked: CheckoutRouteCall[] = [];

let close: () => Promise<void>;

beforeAll(async () => {
  // Refuses the one payment id `pay_forbidden1`, and says yes to every other.
  const options: CheckoutRouteOptions = {
    maxBodyBytes: 4096,
    authorize: (_request, call) => {
      asked.push(call);
      return call.paymentId !== 'pay_forbidden1';
    },
  };
  ({ server, gateway, route, host, close } = await routeOnMock(mock, {}, options));
  paymentId = await openPayment(gateway, 'route-refusals');
});
afterAll(() => close?.());

type Send = (method: string, target: string, call?: Call) => Promise<Answer>;
const node: Send = (method, target, call) => rawCall(host.url, method, target, call);
const viaFetch: Send = (method, target, call) => fetchCall(route, method, target, call);

/** Sends, then checks the answer is the route's own refusal and that the mock saw nothing. */
async function refused(send: Send, method: string, target: string, call?: Call) {
  const before = mock.requests.length;
  const answer = await send(method, target.replaceAll('{id}', paymentId), call);
  expect(mock.requests.length, `${method} ${target} reached the mock`).toBe(before);
  expectNoSecret(answer, mock.credentials.apiKey);
  expectOwnHeadersOnly(answer);
  return answer;
}

const error = (status: number, code: string) => ({ status, code });
const of = (answer: Answer) => ({
  status: answer.status,
  code: (answer.json as { error?: { code?: string } } | undefined)?.error?.code,
});

// Paths refused the same way on both hosts (a Fetch host's URL parser leaves these as they are).
const paths: [string, string, { status: number; code: string }][] = [
  ['GET', '/api/wcp', error(404, 'not_found')],
  ['GET', '/api/wcp/', error(404, 'not_found')],
  ['GET', '/api/wcp/payment', error(404, 'not_found')],
  ['GET', '/api/wcp/payments/{id}', error(404, 'not_found')],
  ['GET', '/api/wcp/payment/{id}/', error(404, 'not_found')],
  ['GET', '/api/wcp/payment/{id}/get', error(404, 'not_found')],
  ['POST', '/api/wcp/payment/{id}/confirm/', error(404, 'not_found')],
  ['POST', '/api/wcp/payment/{id}/refund', error(404, 'not_found')],
  ['POST', '/api/wcp/payment/{id}/cancel', error(404, 'not_found')],
  ['GET', '/api/wcp/v1/gateway/payment/{id}', error(404, 'not_found')],
  ['GET', '/api/wcp/payment/{id}/status/v1/merchants', error(404, 'not_found')],
  ['GET', '/v1/gateway/payment/{id}', error(404, 'not_found')],
  ['GET', '/API/WCP/payment/{id}', error(404, 'not_found')],
  ['GET', '/api/wcpx/payment/{id}', error(404, 'not_found')],
  ['GET', '/api/wcp/payment/{id}%2Fstatus', error(400, 'invalid_request')],
  ['POST', '/api/wcp/payment/{id}%2Fconfirm', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/pay_x%2F..%2F..%2Fv1%2Fmerchants', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/%252F/status', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/pay_%252F..%252Fstatus', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/pay_%61bc', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment//status', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/PAY_abc', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/pay_', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/pay_a-b', error(400, 'invalid_request')],
  ['GET', `/api/wcp/payment/pay_${'a'.repeat(61)}`, error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/{id}?foo=1', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/{id}?maxPollMs=1', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/{id}/status?maxPollMs=1&foo=1', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/{id}/status?maxPollMs=1&maxPollMs=2', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/{id}/status?maxPollMs=abc', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/{id}/status?maxPollMs=1=2', error(400, 'invalid_request')],
  ['GET', '/api/wcp/payment/{id}/status?maxPoll%4Ds=1', error(400, 'invalid_request')],
  ['DELETE', '/api/wcp/payment/{id}', error(405, 'method_not_allowed')],
  ['POST', '/api/wcp/payment/{id}', error(405, 'method_not_allowed')],
  ['GET', '/api/wcp/payment/{id}/options', error(405, 'method_not_allowed')],
  ['PUT', '/api/wcp/payment/{id}/confirm', error(405, 'method_not_allowed')],
  ['POST', '/api/wcp/payment/{id}/status', error(405, 'method_not_allowed')],
  ['OPTIONS', '/api/wcp/payment/{id}/confirm', error(405, 'method_not_allowed')],
  ['GET', '/api/wcp/payment/pay_forbidden1', error(403, 'forbidden')],
  ['POST', '/api/wcp/payment/pay_forbidden1/confirm', error(403, 'forbidden')],
];

// Dot segments: node() sees them raw and refuses them; a Fetch host's URL parser has already
// resolved them (`..` and `%2E%2E` alike) into a path that is then outside the route, or unknown.
const dots: [string, { status: number; code: string }, { status: number; code: string }][] = [
  ['/api/wcp/payment/..', error(400, 'invalid_request'), error(404, 'not_found')],
  ['/api/wcp/payment/%2E%2E', error(400, 'invalid_request'), error(404, 'not_found')],
  ['/api/wcp/payment/%2e%2e/status', error(400, 'invalid_request'), error(404, 'not_found')],
  [
    '/api/wcp/payment/{id}/../../../v1/gateway/payment/{id}',
    error(404, 'not_found'),
    error(404, 'not_found'),
  ],
  ['/api/wcp/payment/%2E%2E/%2E%2E/v1/merchants', error(404, 'not_found'), error(404, 'not_found')],
  [
    '/api/wcp/payment/{id}/%2E%2E/%2E%2E/%2E%2E/v1/gateway/payment/{id}',
    error(404, 'not_found'),
    error(404, 'not_found'),
  ],
];

describe.each([
  ['node()', node],
  ['fetch()', viaFetch],
])('the route through %s refuses', { timeout: 30_000 }, (name, send) => {
  test.each(paths)('%s %s', async (method, target, expected) => {
    expect(of(await refused(send, method, target))).toEqual(expected);
  });

  test.each(dots)('GET %s', async (target, raw, resolved) => {
    expect(of(await refused(send, 'GET', target))).toEqual(name === 'node()' ? raw : resolved);
  });

  test('a 405 names the method the path takes in Allow; HEAD is not served either', async () => {
    const answer = await refused(send, 'PUT', '/api/wcp/payment/{id}/confirm');
    expect(answer.headers.allow).toBe('POST');
    const head = await refused(send, 'HEAD', '/api/wcp/payment/{id}');
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe('GET');
  });

  const options = '/api/wcp/payment/{id}/options';
  const accounts = { accounts: ['eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb'] };
  test.each([
    [
      'no content-type',
      { body: '{"accounts":[]}', headers: { 'content-type': '' } },
      415,
      'unsupported_media_type',
      'application/json',
    ],
    [
      'text/plain',
      { body: JSON.stringify(accounts), headers: { 'content-type': 'text/plain' } },
      415,
      'unsupported_media_type',
      'application/json',
    ],
    [
      'a form',
      { body: 'accounts=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      415,
      'unsupported_media_type',
      'application/json',
    ],
    ['malformed JSON', { body: '{"accounts": [' }, 400, 'invalid_request', 'not valid JSON'],
    [
      'an empty body',
      { body: '', headers: { 'content-type': 'application/json' } },
      400,
      'invalid_request',
      'not valid JSON',
    ],
    ['a JSON array', { body: [] }, 400, 'invalid_request', 'JSON object'],
    ['JSON null', { body: 'null' }, 400, 'invalid_request', 'JSON object'],
    [
      'a body the schema refuses',
      { body: { accounts: ['not-an-account'] } },
      400,
      'invalid_request',
      'accounts.0: must be a CAIP-10',
    ],
    ['no accounts', { body: {} }, 400, 'invalid_request', 'accounts'],
    ['an unknown field', { body: { ...accounts, sneaky: true } }, 400, 'invalid_request', 'sneaky'],
    [
      'a body past maxBodyBytes',
      { body: { ...accounts, pad: 'x'.repeat(5000) } },
      413,
      'payload_too_large',
      '4096 bytes',
    ],
  ] as const)('a body: %s', async (_case, call, status, code, said) => {
    const answer = await refused(send, 'POST', options, call as Call);
    expect(of(answer)).toEqual({ status, code });
    expect((answer.json as { error: { message: string } }).error.message).toContain(said);
  });

  test('a confirm the schema refuses names the field, and no confirm is sent', async () => {
    const answer = await refused(send, 'POST', '/api/wcp/payment/{id}/confirm', {
      body: { optionId: '', results: [{ type: 'walletRpc', data: 'not-an-array' }] },
    });
    expect(of(answer)).toEqual({ status: 400, code: 'invalid_request' });
    const { message } = (answer.json as { error: { message: string } }).error;
    expect(message).toContain('optionId');
    expect(message).toContain('results.0.data');
  });
});

test('authorize is asked with the checked id and the operation, before anything is sent', async () => {
  asked.length = 0;
  await viaFetch('GET', `/api/wcp/payment/${paymentId}`);
  await viaFetch('GET', `/api/wcp/payment/${paymentId}/status`);
  await node('POST', `/api/wcp/payment/${paymentId}/options`, { body: { accounts: [] } });
  expect(
    asked.map(({ paymentId: id, operation, nodeRequest }) => [
      id,
      operation,
      nodeRequest === undefined,
    ]),
  ).toEqual([
    [paymentId, 'get', true],
    [paymentId, 'status', true],
    [paymentId, 'options', false],
  ]);
});

test('authorize answering anything but true refuses; authorize throwing is a 500 that says nothing of it', async () => {
  const logged: string[] = [];
  const quiet = new MerchantGateway({
    baseUrl: server.url,
    apiKey: mock.credentials.apiKey,
    logLevel: 'error',
    logger: {
      debug() {},
      info() {},
      warn() {},
      error: (data) => logged.push(JSON.stringify(data)),
    },
  });
  const before = mock.requests.length;
  const truthy = quiet.buyer.route({ authorize: () => 'yes' as unknown as boolean });
  expect(of(await fetchCall(truthy, 'GET', `/api/wcp/payment/${paymentId}`))).toEqual(
    error(403, 'forbidden'),
  );
  const throwing = quiet.buyer.route({
    authorize: async () => {
      throw new Error(`session store down at ${mock.credentials.apiKey}`);
    },
  });
  const answer = await fetchCall(throwing, 'GET', `/api/wcp/payment/${paymentId}`);
  expect(of(answer)).toEqual(error(500, 'internal_error'));
  expect(answer.text).not.toContain('session store');
  expectNoSecret(answer, mock.credentials.apiKey);
  expect(mock.requests.length).toBe(before);
  // The host's own log has it, the key redacted.
  expect(logged.join('\n')).toContain('session store down');
  expect(logged.join('\n')).not.toContain(mock.credentials.apiKey);
});

test('bad options are a ConfigurationError naming the option, when the route is made', () => {
  const make = (options: object) => () => gateway.buyer.route(options);
  expect(make({ basePath: 'api/wcp' })).toThrow(/basePath/);
  expect(make({ basePath: '/api/wcp/' })).toThrow(/basePath/);
  expect(make({ basePath: '/api/../v1' })).toThrow(/basePath/);
  expect(make({ basePath: '/api/%2E%2E' })).toThrow(/basePath/);
  expect(make({ authorize: true })).toThrow(/authorize/);
  expect(make({ allowCancel: 'yes' })).toThrow(/allowCancel/);
  expect(make({ maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
  expect(make({ maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes/);
  expect(make({ basePath: '/checkout/v2' })).not.toThrow();
});
