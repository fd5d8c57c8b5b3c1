// Why: issue 22 point 2. ky reads options a call leaves out through Object.prototype (bare ky does
// the same), so plain data there changed every request. Each case pollutes a fresh child process
// before the SDK is imported, drives real calls against the mock over HTTP, and compares what the
// mock received with what an unpolluted child sends.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMockGateway, type MockServer, type RecordedRequest } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const CHILD = fileURLToPath(new URL('./polluted-child.ts', import.meta.url));
const run = promisify(execFile);
const mock = createMockGateway();
let server: MockServer;
let clean: { results: unknown; sent: RecordedRequest[] };

/**
 * The calls of polluted-child.ts with `before` on Object.prototype before the SDK is imported and
 * `after` once it is: their outcomes and the requests the mock received.
 */
async function drive(
  before: Record<string, unknown>,
  after: Record<string, unknown> = {},
  hooks = false,
) {
  // The same seed and key each time: the same payment id, so requests compare field by field.
  mock.reset();
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', CHILD, JSON.stringify(before), JSON.stringify(after), hooks ? '1' : '0'],
    {
      timeout: 60_000,
      env: {
        ...process.env,
        MOCK_URL: server.url,
        MOCK_API_KEY: mock.credentials.apiKey,
        MOCK_MERCHANT_ID: mock.sample.merchantId,
      },
    },
  );
  return { results: JSON.parse(stdout) as unknown, sent: [...mock.requests] };
}

beforeAll(async () => {
  server = await mock.listen();
  clean = await drive({});
}, 90_000);
afterAll(() => server.close());

describe('plain data on Object.prototype changes nothing the SDK hands ky (child processes)', () => {
  test('the unpolluted run creates, reads and lists', () => {
    expect(clean.results).toMatchObject({
      create: { paymentId: expect.any(String) },
      get: { status: 'requires_action' },
      list: { items: 2 },
    });
    expect(clean.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/payments',
      `GET /v1/gateway/payment/${(clean.results as { create: { paymentId: string } }).create.paymentId}`,
      'GET /v1/merchants/payments',
    ]);
    expect(clean.sent[2]?.query).toEqual({ limit: '2' });
  });

  test.each([
    ['headers: no header added to any request', { headers: { 'x-polluted': 'yes' } }, {}],
    [
      'searchParams: no query added to a call without one, none to one with',
      { searchParams: { evil: '1' } },
      {},
    ],
    [
      'json: nothing merged into the POST body (expiresAt 1 would expire it), GETs unbroken',
      { json: { expiresAt: 1 } },
      {},
    ],
    [
      'hooks, progress callbacks and parseJson: no hook added, no call breaks',
      {
        hooks: { beforeRequest: [1], afterResponse: [1] },
        onDownloadProgress: 1,
        onUploadProgress: 1,
        parseJson: 1,
      },
      {},
    ],
    [
      // After the import: ky's import builds a Request, which these would break for bare ky too.
      // (A polluted body, signal, mode, cache, window or dispatcher breaks Node's fetch itself,
      // whatever it is given: out of any client's reach.)
      'the Request options ky hands fetch: no call breaks',
      {},
      { credentials: 'bogus', duplex: 'full' },
    ],
  ])(
    '%s',
    async (_, before, after) => {
      const polluted = await drive(before, after);
      expect(polluted.results).toEqual(clean.results);
      expect(polluted.sent).toEqual(clean.sent);
    },
    90_000,
  );

  test('hooks: a client with hooks of its own runs only those', async () => {
    const withHooks = await drive({}, {}, true);
    const polluted = await drive({ hooks: { beforeRequest: [1], afterResponse: [1] } }, {}, true);
    expect(withHooks.results).toEqual(clean.results);
    expect(polluted.results).toEqual(withHooks.results);
    expect(polluted.sent).toEqual(withHooks.sent);
  }, 90_000);
});
