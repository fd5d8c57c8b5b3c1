import { type ClientOptions, MerchantGateway, type PaymentCreated } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { lastOnConnection } from '../helpers';

export const BASE_URL = 'https://gateway.test';
export const PAYMENT_ID = 'pay_1';

/** The smallest valid gateway view, with the given status and extra fields (isFinal, pollInMs). */
export function view(status: string, extra: Record<string, unknown> = {}) {
  return {
    status,
    expiresAt: 1_900_000_000,
    amount: {
      unit: 'caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      value: '1250000',
      display: { assetName: 'USD Coin', assetSymbol: 'USDC', decimals: 6 },
    },
    buyer: null,
    merchant: { name: 'Acme', iconUrl: null },
    ...extra,
  };
}

/** A creation result that is not final yet and asks for `pollInMs` between reads. */
export function created(overrides: Partial<PaymentCreated> = {}): PaymentCreated {
  return {
    paymentId: PAYMENT_ID,
    status: 'requires_action',
    isFinal: false,
    pollInMs: 1000,
    expiresAt: 1_900_000_000,
    gatewayUrl: `https://pay.gateway.test/${PAYMENT_ID}`,
    ...overrides,
  };
}

export function gateway(options: ClientOptions = {}): MerchantGateway {
  return new MerchantGateway({ baseUrl: BASE_URL, apiKey: 'sk_test_polling', ...options });
}

/**
 * An msw server whose gateway view answers from `script`: the n-th read (1-based) gets
 * `script(n)`, and `reads` records the fake-clock time of each read, relative to the test's start.
 */
export function useScriptedGateway() {
  const server = setupServer();
  const state = {
    reads: [] as number[],
    start: 0,
    script: (_n: number): Response | Promise<Response> =>
      HttpResponse.json(view('requires_action')),
  };
  beforeAll(async () => {
    server.listen({ onUnhandledFrame: 'error' });
    // Node's fetch compiles its HTTP parser on first use, in real time: done before any fake clock
    // runs, the first read is not late.
    server.use(
      http.get(`${BASE_URL}/warm-up`, () =>
        lastOnConnection(new HttpResponse(null, { status: 204 })),
      ),
    );
    await fetch(`${BASE_URL}/warm-up`);
    server.resetHandlers();
  });
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    state.reads = [];
    state.start = Date.now();
    server.use(
      http.get(`${BASE_URL}/v1/gateway/payment/:id`, async () => {
        state.reads.push(Date.now() - state.start);
        return lastOnConnection(await state.script(state.reads.length));
      }),
    );
  });
  afterEach(() => {
    server.resetHandlers();
    vi.useRealTimers();
  });
  afterAll(() => server.close());
  return {
    state,
    /** Answers the n-th read with the n-th entry (a status, or a status with extra fields), the last one repeating. */
    statuses(...list: Array<string | ({ status: string } & Record<string, unknown>)>) {
      state.script = (n) => {
        const entry = list[Math.min(n, list.length) - 1] ?? 'requires_action';
        return HttpResponse.json(
          typeof entry === 'string' ? view(entry) : view(entry.status, entry),
        );
      };
    },
  };
}

/** Attaches a no-op catch so a rejection checked later is not reported as unhandled. */
export function settle<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

export { HttpResponse };
