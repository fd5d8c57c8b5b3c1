// Why: in a browser, what only a failed call runs is a chunk of its own (src/core/*-load-lazy.ts).
// Should it fail to load, a call must still end in one of the SDK's errors with no key in it,
// never in the loader's foreign error, and never be sent again without the retry policy.

import { ConnectionError, MerchantGateway, ServerError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { API_KEY, BASE_URL, MERCHANT_URL, recorder, useMsw } from '../../support';

const chunks = vi.hoisted(() => ({ failurePath: true, pRetry: true }));
vi.mock('../../../src/core/failure-load', async (original) => {
  const real = await original<typeof import('../../../src/core/failure-load')>();
  return {
    loadFailurePath: () =>
      chunks.failurePath
        ? Promise.reject(
            new TypeError(
              'Failed to fetch dynamically imported module: sk_live_TOPSECRET_partner_key',
            ),
          )
        : real.loadFailurePath(),
  };
});
vi.mock('../../../src/core/retry-load', async (original) => {
  const real = await original<typeof import('../../../src/core/retry-load')>();
  return {
    loadPRetry: () =>
      chunks.pRetry
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module: p-retry'))
        : real.loadPRetry(),
  };
});

const server = useMsw();

/** A GET of the merchant answered with `status` and `code`, on a client with `maxRetries`. */
async function failedGet(status: number, code: string, maxRetries: number) {
  const { seen, resolver } = recorder(() =>
    HttpResponse.json({ code, message: 'refused' }, { status }),
  );
  server.use(http.get(MERCHANT_URL, resolver));
  const gateway = new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, maxRetries });
  const error = await gateway.merchants.get('mer_1').catch((e: unknown) => e);
  return { error, seen };
}

describe('a failure path that cannot load', () => {
  test('turns an error response into a redacted ConnectionError', async () => {
    chunks.failurePath = true;
    chunks.pRetry = false;
    const { error, seen } = await failedGet(404, 'not_found', 0);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      /^GET \/v1\/merchants\/mer_1: after 1 attempt in \d+ ms: connection failed$/,
    );
    expect(seen).toHaveLength(1);
    expect(String((error as Error).cause)).toContain('***');
    expect(String((error as Error).cause)).not.toContain(API_KEY);
  });
});

describe('a retry machinery that cannot load', () => {
  test('fails a call with its first error, sent once', async () => {
    chunks.failurePath = false;
    chunks.pRetry = true;
    const { error, seen } = await failedGet(503, 'internal_error', 2);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: 'internal_error' });
    expect(seen).toHaveLength(1);
  });
});
