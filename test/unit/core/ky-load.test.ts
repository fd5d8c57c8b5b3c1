// ky loads at a process's first request (issue 42): importing the SDK and making a client load
// neither ky nor, through ky's feature checks (a Request built at its import), Node's fetch.
import { describe, expect, test, vi } from 'vitest';

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('ky', async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

describe('ky loads at the first request', () => {
  test('not at import nor construction; once for every request after', async () => {
    const { MerchantGateway } = await import('merchant-gateway');
    const seen: string[] = [];
    const fetch = async (url: string | URL | Request) => {
      seen.push(String(url));
      return new Response(JSON.stringify({ code: 'not_found', message: 'no' }), { status: 404 });
    };
    const gateway = new MerchantGateway({
      baseUrl: 'https://gateway.test',
      apiKey: 'sk_test_1',
      fetch: fetch as typeof globalThis.fetch,
    });
    expect(loads.count).toBe(0);
    await gateway.merchants.get('mer_1').catch(() => {});
    await gateway.merchants.get('mer_2').catch(() => {});
    expect(seen).toHaveLength(2);
    expect(loads.count).toBe(1);
  });
});
