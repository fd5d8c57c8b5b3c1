// Why: Node's build of the main entry imports ky with the first request (src/core/ky-lazy.ts). Every
// caller must get the one ky, callers racing the first import must share it, and a failed import
// must be a retryable ConnectionError that a retry recovers from, never a client broken for good.

import { ConnectionError, MerchantGateway } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { lazyKy } from '../../../src/core/ky-lazy';
import { API_KEY, BASE_URL, MERCHANT_URL, merchantGetBody, recorder, useMsw } from '../../support';
import {
  expectFailedImportRetried,
  expectOneImportForRacingCallers,
} from '../../support/lazy-loaders';

// The SDK in this file runs on the lazy loader, with an import that fails while `failing` > 0.
const loader = vi.hoisted(() => ({ failing: 0, loads: 0 }));
vi.mock('../../../src/core/ky', async () => {
  const { lazyKy: lazy } = await import('../../../src/core/ky-lazy');
  return {
    loadKy: lazy(async () => {
      loader.loads += 1;
      if (loader.failing > 0) {
        loader.failing -= 1;
        throw new TypeError('Failed to fetch dynamically imported module: ky');
      }
      return import('ky');
    }),
  };
});

const server = useMsw();

describe('lazyKy', () => {
  test('imports once for callers racing the first use, then answers without a promise', async () => {
    const a = await expectOneImportForRacingCallers(lazyKy, () => import('ky'));
    const ky = await import('ky');
    expect(a.ky).toBe(ky.default);
    expect(a.replaceOption).toBe(ky.replaceOption);
  });

  test('a failed import is not kept: the next use imports again', async () => {
    const parts = await expectFailedImportRetried(lazyKy, () => import('ky'));
    expect(parts).toHaveProperty('ky');
  });

  test('its default imports the real ky', async () => {
    const parts = await lazyKy()();
    expect(parts.ky).toBe((await import('ky')).default);
  });
});

describe('the SDK on the lazy loader', () => {
  // In this order: once ky has loaded, the loader keeps it for every later call.
  test('while ky cannot load a call is a ConnectionError naming why, and nothing is sent', async () => {
    const { seen, resolver } = recorder(() => HttpResponse.json(merchantGetBody));
    server.use(http.get(MERCHANT_URL, resolver));
    loader.failing = 2;
    const gateway = new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, maxRetries: 0 });
    const error = await gateway.merchants.get('mer_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      /^GET \/v1\/merchants\/mer_1: after 1 attempt in \d+ ms: connection failed: Failed to fetch dynamically imported module: ky$/,
    );
    // The next call imports again rather than reusing the failure.
    await expect(gateway.merchants.get('mer_1')).rejects.toBeInstanceOf(ConnectionError);
    expect(loader.loads).toBe(2);
    expect(seen).toEqual([]);
  });

  test('a failed import is retried like any ConnectionError, and the retry sends the request', async () => {
    const { seen, resolver } = recorder(() => HttpResponse.json(merchantGetBody));
    server.use(http.get(MERCHANT_URL, resolver));
    loader.failing = 1;
    const gateway = new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, maxRetries: 1 });
    const merchant = await gateway.merchants.get('mer_1');
    expect(merchant.id).toBe('mer_1');
    expect(loader.loads).toBe(4);
    expect(seen.map((request) => request.url)).toEqual([MERCHANT_URL]);
    // Loaded now: later calls do not import again.
    await gateway.merchants.get('mer_1');
    expect(loader.loads).toBe(4);
  });
});
