// Why: the browser-facing builds load what only a failed call runs (p-retry, the error factory and
// the error body's redaction) on the first failure (src/core/*-load-lazy.ts, swapped in by
// tsup.config.ts). Through them a failure must be the same error, of the same class with the same
// fields, a retry must still happen, and a chunk that cannot load must still end a call in one of
// the SDK's errors with no key in it.

import { MerchantGateway, NotFoundError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { lazyImport } from '../../../src/core/lazy-import';
import { API_KEY, BASE_URL, MERCHANT_URL, merchantGetBody, useMsw } from '../../support';
import {
  expectFailedImportRetried,
  expectOneImportForRacingCallers,
} from '../../support/lazy-loaders';

// The SDK in this file runs on the lazy variants, the way dist/index.js and dist/buyer.js do.
vi.mock('../../../src/core/failure-load', () => import('../../../src/core/failure-load-lazy'));
vi.mock('../../../src/core/retry-load', () => import('../../../src/core/retry-load-lazy'));

const server = useMsw();

describe('lazyImport', () => {
  test('imports once for callers racing the first use, then answers without a promise', async () => {
    const module = { value: 1 };
    expect(await expectOneImportForRacingCallers(lazyImport, async () => module)).toBe(module);
  });

  test('a failed import is not kept: the next use imports again', async () => {
    expect(await expectFailedImportRetried(lazyImport, async () => 'loaded')).toBe('loaded');
  });
});

describe('the SDK on the lazy failure path', () => {
  test('an error response is the same error: its class, status, code and request id', async () => {
    server.use(
      http.get(MERCHANT_URL, () =>
        HttpResponse.json(
          { code: 'merchant_not_found', message: `no merchant for ${API_KEY}` },
          { status: 404, headers: { 'x-request-id': 'req_1' } },
        ),
      ),
    );
    const gateway = new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY });
    const error = await gateway.merchants.get('mer_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'merchant_not_found', requestId: 'req_1' });
    expect((error as Error).message).toBe(
      'GET /v1/merchants/mer_1 → 404 merchant_not_found: no merchant for ***',
    );
  });

  test('a 503 is retried, and the call answers with the retry', async () => {
    let sent = 0;
    server.use(
      http.get(MERCHANT_URL, () => {
        sent += 1;
        return sent === 1
          ? HttpResponse.json(
              { code: 'internal_error', message: 'boom' },
              { status: 503, headers: { 'retry-after-ms': '1' } },
            )
          : HttpResponse.json(merchantGetBody);
      }),
    );
    const gateway = new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, maxRetries: 2 });
    await expect(gateway.merchants.get('mer_1')).resolves.toMatchObject({
      id: merchantGetBody.merchant.id,
    });
    expect(sent).toBe(2);
  });
});
