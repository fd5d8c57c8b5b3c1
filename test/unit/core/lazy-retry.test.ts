// Why: p-retry loads with a call's first failure (src/core/transport.ts), a chunk of its own in a
// browser bundle. Should it fail to load, the call must fail with its first error, unretried:
// never with the loader's foreign error, and never sent again without the retry policy.
import { MerchantGateway, ServerError } from 'merchant-gateway';
import { describe, expect, test, vi } from 'vitest';
import { API_KEY, BASE_URL, HttpResponse, http, useMsw } from '../../support';

vi.mock('p-retry', () => {
  throw new TypeError('Failed to fetch dynamically imported module: p-retry');
});

const server = useMsw();

describe('a retry machinery that cannot load', () => {
  test('fails a call with its first error, sent once', async () => {
    let sent = 0;
    server.use(
      http.get(`${BASE_URL}/v1/merchants/mer_1`, () => {
        sent += 1;
        return HttpResponse.json({ code: 'internal_error', message: 'boom' }, { status: 503 });
      }),
    );
    const gateway = new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, maxRetries: 2 });
    const error = await gateway.merchants.get('mer_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: 'internal_error' });
    expect(sent).toBe(1);
  });
});
