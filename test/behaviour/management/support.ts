import { type ClientOptions, MerchantGateway, RequestValidationError } from 'merchant-gateway';
import type { RecordedRequest } from 'merchant-gateway/testing';
import { expect } from 'vitest';
import { type Harness, type Transport, useMockGateway } from '../../support/mock-harness';

export { TRANSPORTS } from '../../support/mock-harness';

/** The stateful mock over `transport`, reset before every test, and SDK clients pointed at it. */
export function useManagement(transport: Transport) {
  const h: Harness = useMockGateway(transport);
  return {
    h,
    get mock() {
      return h.mock;
    },
    /** No retries unless a test asks: attempt counts stay exact. */
    client: (options: ClientOptions = {}) =>
      new MerchantGateway({
        baseUrl: h.baseUrl,
        apiKey: h.mock.credentials.apiKey,
        maxRetries: 0,
        ...options,
      }),
    /** Requests the mock received with this method whose path matches. */
    requests: (method: string, path: RegExp): RecordedRequest[] =>
      h.mock.requests.filter((r) => r.method === method && path.test(r.path)),
  };
}

/** A call that must fail validation: the issues it reports, after checking nothing was sent. */
export async function rejectedBeforeSending(
  mock: { requests: readonly unknown[] },
  call: () => Promise<unknown>,
): Promise<{ field: string; message: string }[]> {
  const before = mock.requests.length;
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(mock.requests.length).toBe(before);
  return (error as RequestValidationError).issues;
}

/**
 * A fetch that lets the service act on the first `method` request, then loses its answer the way
 * `how` says: the connection drops, a proxy answers 502, or the answer arrives too late.
 */
export function loseFirstAnswer(
  method: string,
  how: 'connection' | '5xx' | 'timeout',
): typeof fetch {
  let lost = false;
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    // Read globalThis.fetch per call: msw swaps it in only once its server listens.
    const response = await globalThis.fetch(input, init);
    if (lost || request.method !== method) return response;
    lost = true;
    await response.text(); // the service has acted: read its answer, then lose it
    if (how === '5xx') return new Response('<html>502 Bad Gateway</html>', { status: 502 });
    if (how === 'connection') throw new TypeError('fetch failed: socket hang up');
    // Hold the answer past the attempt's timeout; the SDK aborts the request meanwhile.
    return new Promise((_, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason), {
        once: true,
      });
    });
  };
}
