// The one support module of the tests: the base URL, the client factory, the msw setup and
// fixtures; ./fake-service.ts scripts answers on that setup, ./mock-harness.ts serves the mock over
// msw and real HTTP, ./list-fixtures.ts and ./samples.ts hold bodies. Behaviour folders keep a
// helper of their own only where it differs (following's fake clock, the payments' mock).
import { inspect } from 'node:util';
import {
  type ClientOptions,
  type Logger,
  MerchantGateway,
  PayError,
  type PaymentCreated,
  RequestValidationError,
} from 'merchant-gateway';
import type { MockGateway } from 'merchant-gateway/testing';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/** Where every client of the tests points; msw answers it (the mock harness adds `/api`). */
export const BASE_URL = 'https://gateway.test';
export const API_KEY = 'sk_live_TOPSECRET_partner_key';
export const LEGACY_KEY = 'lk_live_TOPSECRET_legacy_key';
/** The one merchant most unit tests read: `GET` it for `merchantGetBody`. */
export const MERCHANT_URL = `${BASE_URL}/v1/merchants/mer_1`;

/** An msw server for one test file: fails on any request no handler expects. */
export function useMsw(...handlers: HttpHandler[]) {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A client factory: `options` override its defaults. */
export type GatewayFactory = ((options?: ClientOptions) => MerchantGateway) & {
  /** The same factory with more defaults, e.g. a folder's merchant: `gateway.with({ merchantId })`. */
  with(defaults: ClientOptions): GatewayFactory;
};

function factory(defaults: ClientOptions): GatewayFactory {
  const make = (options: ClientOptions = {}) => new MerchantGateway({ ...defaults, ...options });
  return Object.assign(make, {
    with: (more: ClientOptions) => factory({ ...defaults, ...more }),
  });
}

/**
 * The tests' one client factory: an API-key client for BASE_URL; `options` override any default.
 * A folder that needs other defaults derives its own with `gateway.with({ … })`.
 */
export const gateway: GatewayFactory = factory({ baseUrl: BASE_URL, apiKey: API_KEY });

/** What most tests create a payment with: USD 12.50 for order-1 of mer_1. */
export const paymentParams = {
  merchantId: 'mer_1',
  amount: { unit: 'iso4217/USD', value: '1250' },
  referenceId: 'order-1',
};

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

/** What the service answers to a create of `paymentId`: open, `pollInMs` 1 s; `overrides` win. */
export function createdFor(
  paymentId: string,
  overrides: Partial<PaymentCreated> = {},
): PaymentCreated {
  return {
    paymentId,
    status: 'requires_action',
    isFinal: false,
    pollInMs: 1000,
    expiresAt: 1_900_000_000,
    gatewayUrl: `https://pay.gateway.test/${paymentId}`,
    ...overrides,
  };
}

export const createdBody = createdFor('pay_1');

/**
 * Marks a mocked response as the last on its connection. Node 22's fetch checks a reused keep-alive
 * socket with a `setImmediate` before sending on it, which a fake clock runs 1 ms late (and a real
 * one outside the fake clock's advance): a fresh connection per request keeps fake time exact.
 */
export function lastOnConnection(response: Response): Response {
  // A network error (Response.error()) has no connection to close.
  if (response.type !== 'error') response.headers.set('connection', 'close');
  return response;
}

/**
 * Records every request a handler sees, then answers with `respond`. `oneConnectionEach` for tests
 * on a fake clock (see `lastOnConnection`).
 */
export function recorder(
  respond: (request: Request, n: number) => Response | Promise<Response>,
  { oneConnectionEach = false } = {},
): {
  seen: Request[];
  resolver: (info: { request: Request }) => Promise<Response>;
} {
  const seen: Request[] = [];
  return {
    seen,
    resolver: async ({ request }) => {
      seen.push(request.clone());
      const response = await respond(request, seen.length);
      return oneConnectionEach ? lastOnConnection(response) : response;
    },
  };
}

/** Runs `body` with `Object.prototype` polluted as a buggy host app would, restored in `finally`. */
export async function polluted<T>(
  pollution: Record<string, unknown>,
  body: () => Promise<T>,
): Promise<T> {
  const proto = Object.prototype as Record<string, unknown>;
  try {
    for (const [key, value] of Object.entries(pollution)) proto[key] = value;
    return await body();
  } finally {
    for (const key of Object.keys(pollution)) delete proto[key];
  }
}

export { listenOnLoopback, serve, useListeningMock, useListeningPartner } from './servers';
export { HttpResponse, http };

/**
 * A logger that keeps every line it is given, each argument as a string or as JSON: `text()` is
 * what a log file would hold.
 */
export function captureLogger(): { logger: Logger; text: () => string } {
  const lines: string[] = [];
  const push = (...args: unknown[]) => {
    lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  };
  return {
    logger: { debug: push, info: push, warn: push, error: push },
    text: () => lines.join('\n'),
  };
}

/** Everything a user could print, log or send to an error tracker of `error`. */
export function renderings(error: unknown): string[] {
  const e = error as Error;
  return [
    e.message,
    String(e),
    e.stack ?? '',
    JSON.stringify(e),
    inspect(e, { depth: null, showHidden: true }),
    ...Object.values(e).map((v) => inspect(v, { depth: null })),
  ];
}

/**
 * Answers every `GET` of `MERCHANT_URL` on `server` with `merchantGetBody`, recording each request
 * (`seen`), as most client tests need a call that succeeds.
 */
export function answerMerchantGets(server: ReturnType<typeof useMsw>): { seen: Request[] } {
  const { seen, resolver } = recorder(() => HttpResponse.json(merchantGetBody));
  server.use(http.get(MERCHANT_URL, resolver));
  return { seen };
}

/** The issues of the `RequestValidationError` that `call` rejects with; fails on anything else. */
export async function issuesOf(call: Promise<unknown>): Promise<RequestValidationError['issues']> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected a RequestValidationError, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  return (error as RequestValidationError).issues;
}

/** The `PayError` that `promise` rejects with (what `buyer.pay` refused and why); fails on anything else. */
export async function payError(promise: Promise<unknown>): Promise<PayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PayError);
  return error as PayError;
}

/** A partner's client on `mock` through `mock.fetch` (no socket), for its sample merchant; `options` win. */
export function partnerOverFetch(mock: MockGateway, options: ClientOptions = {}): MerchantGateway {
  return new MerchantGateway({
    baseUrl: BASE_URL,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
    fetch: mock.fetch,
    ...options,
  });
}
