// Why: what only a failed attempt runs (the error factory, the body's redaction and cut) loads on
// the first failure (src/core/failure-lazy.ts), a chunk of its own in a browser bundle. Should
// that chunk fail to load, a failed call must still end in one of the SDK's errors, with no key
// in it, never in the loader's foreign error.
import { ConnectionError, MerchantGateway } from 'merchant-gateway';
import { describe, expect, test, vi } from 'vitest';
import { API_KEY, BASE_URL, HttpResponse, http, useMsw } from '../../support';

vi.mock('../../../src/core/failure-path', () => {
  throw new TypeError(`Failed to fetch dynamically imported module: failure-path ${API_KEY}`);
});

const server = useMsw();

describe('a failure path that cannot load', () => {
  test('turns an error response into a ConnectionError, redacted, after the attempts allowed', async () => {
    let sent = 0;
    server.use(
      http.get(`${BASE_URL}/v1/merchants/mer_1`, () => {
        sent += 1;
        return HttpResponse.json(
          { code: 'not_found', message: 'no such merchant' },
          { status: 404 },
        );
      }),
    );
    const gateway = new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, maxRetries: 0 });
    const error = await gateway.merchants.get('mer_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      /^GET \/v1\/merchants\/mer_1: after 1 attempt in \d+ ms: connection failed$/,
    );
    expect(sent).toBe(1);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
    expect(String((error as Error).cause)).not.toContain(API_KEY);
  });
});
