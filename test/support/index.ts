// The one support module of the tests: the base URL, the client factory, the msw setup, fixtures
// and a scripted fake service. Behaviour folders keep a helper of their own only where it differs
// (polling's fake clock, the mock over both transports in ./mock-harness.ts).
import { type ClientOptions, MerchantGateway, RequestValidationError } from 'merchant-gateway';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/** Where every client of the tests points; msw answers it (the mock harness adds `/api`). */
export const BASE_URL = 'https://gateway.test';
export const API_KEY = 'sk_live_TOPSECRET_partner_key';
export const LEGACY_KEY = 'lk_live_TOPSECRET_legacy_key';

/** An msw server for one test file: fails on any request no handler expects. */
export function useMsw(...handlers: HttpHandler[]) {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** The client factory: an API-key client for BASE_URL; `options` override any default. */
export function gateway(options: ClientOptions = {}): MerchantGateway {
  return new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, ...options });
}

/** A client that never retries, so one call is one request the fake service sees. */
export function noRetryGateway(options: ClientOptions = {}): MerchantGateway {
  return gateway({ maxRetries: 0, ...options });
}

export const merchantBody = {
  merchant: {
    id: 'mer_1',
    name: 'Acme',
    email: 'pay@acme.io',
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
  },
};

export const merchantGetBody = {
  merchant: { ...merchantBody.merchant, iconUrl: null, settlements: { crypto: [], fiat: [] } },
};

export const viewBody = {
  status: 'requires_action',
  expiresAt: 1_900_000_000,
  amount: {
    unit: 'caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    value: '1250000',
    display: { assetName: 'USD Coin', assetSymbol: 'USDC', decimals: 6 },
  },
  buyer: null,
  merchant: { name: 'Acme', iconUrl: null },
};

export const createdBody = {
  paymentId: 'pay_1',
  status: 'requires_action',
  isFinal: false,
  pollInMs: 1000,
  expiresAt: 1_900_000_000,
  gatewayUrl: 'https://pay.gateway.test/pay_1',
};

/** Records every request a handler sees, then answers with `respond`. */
export function recorder(respond: (request: Request, n: number) => Response | Promise<Response>): {
  seen: Request[];
  resolver: (info: { request: Request }) => Promise<Response>;
} {
  const seen: Request[] = [];
  return {
    seen,
    resolver: async ({ request }) => {
      seen.push(request.clone());
      return respond(request, seen.length);
    },
  };
}

/** One request as the fake service received it. */
export interface SeenRequest {
  method: string;
  /** The URL path exactly as sent, still percent-encoded. */
  path: string;
  headers: Headers;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
}

let fakeService: SetupServer | undefined;

/** Starts msw with no handler for the calling test file; `answer`/`answerInTurn` then script it. */
export function useFakeService(): void {
  fakeService = useMsw();
}

/** One answer of the fake service. */
export interface Reply {
  status?: number;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is instead of `body`: a proxy's HTML page, an empty body. */
  raw?: string;
  headers?: Record<string, string>;
}

/**
 * Answers requests under the base URL with `replies` in turn (the last one repeats), and returns
 * the list the requests are recorded in, so a test can count them and read what was sent.
 */
export function answerInTurn(replies: readonly Reply[]): SeenRequest[] {
  const seen: SeenRequest[] = [];
  if (!fakeService) throw new Error('answerInTurn: call useFakeService() in the test file first');
  fakeService.use(
    http.all(`${BASE_URL}/*`, async ({ request }) => {
      const text = await request.text();
      seen.push({
        method: request.method,
        path: new URL(request.url).pathname,
        headers: request.headers,
        body: text === '' ? undefined : JSON.parse(text),
      });
      const reply = replies[Math.min(seen.length, replies.length) - 1] ?? { body: null };
      const init = { status: reply.status ?? 200, headers: reply.headers ?? {} };
      if (reply.raw !== undefined) return new HttpResponse(reply.raw, init);
      return HttpResponse.json(reply.body as never, init);
    }),
  );
  return seen;
}

/** Answers every request with `body` and `status`; returns the recorded requests. */
export function answer(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return answerInTurn([{ body, status, headers }]);
}

/** The rejection of `promise`; fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/**
 * Asserts that the call was refused before sending: a RequestValidationError with an issue on
 * `field` (and `message`, when given), and no request seen by the fake service.
 */
export async function expectRefused(
  promise: Promise<unknown>,
  seen: readonly SeenRequest[],
  field: string,
  message?: RegExp,
): Promise<void> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(RequestValidationError);
  const issues = (error as RequestValidationError).issues;
  expect(issues.map((issue) => issue.field)).toContain(field);
  if (message) {
    expect(issues.filter((issue) => issue.field === field).map((i) => i.message)).toContainEqual(
      expect.stringMatching(message),
    );
  }
  expect(seen).toHaveLength(0);
}

export { HttpResponse, http };
