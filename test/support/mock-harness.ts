import {
  createMockGateway,
  type MockGateway,
  type MockGatewayOptions,
} from 'merchant-gateway/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { BASE_URL, useMsw } from './index';

/** How a test reaches the mock: msw intercepting fetch, real HTTP on loopback, or `mock.fetch`. */
export type Transport = 'msw' | 'http' | 'fetch';
/** Behaviour tests run over both transports an integrator uses; `fetch` shares their code path. */
export const TRANSPORTS: readonly Transport[] = ['msw', 'http'];

export interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  /** Serialized as JSON unless it is already a string. */
  body?: unknown;
}

export interface Reply<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  issues?: { field: string; message: string }[];
}

export interface Harness {
  readonly mock: MockGateway;
  /** Base URL the SDK would be given (msw and fetch use a `/api` prefix before `/v1/`). */
  readonly baseUrl: string;
  call<T = Record<string, unknown>>(path: string, init?: CallInit): Promise<Reply<T>>;
  /** Partner auth headers. */
  readonly auth: Record<string, string>;
}

/** One mock per test file, reached over `transport`, reset before every test. */
export function useMockGateway(transport: Transport, options?: MockGatewayOptions): Harness {
  const mock = createMockGateway(options);
  let baseUrl = `${BASE_URL}/api`;
  let stop: () => unknown = () => undefined;
  if (transport === 'msw') useMsw(...mock.handlers);
  beforeAll(async () => {
    if (transport === 'http') {
      const server = await mock.listen();
      baseUrl = server.url;
      stop = () => server.close();
    }
  });
  afterAll(() => stop());
  beforeEach(() => mock.reset());
  // Read globalThis.fetch per call: msw swaps it in only once the server listens.
  const send: typeof fetch = (input, init) =>
    transport === 'fetch' ? mock.fetch(input, init) : globalThis.fetch(input, init);
  return {
    mock,
    get baseUrl() {
      return baseUrl;
    },
    auth: { 'Api-Key': mock.credentials.apiKey },
    async call<T>(path: string, init: CallInit = {}): Promise<Reply<T>> {
      const { body } = init;
      const response = await send(`${baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...init.headers,
        },
        ...(body === undefined
          ? {}
          : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: the raw text is the body.
      }
      return { status: response.status, headers: response.headers, body: parsed as T };
    },
  };
}

/** USDC on Polygon: a real asset the mock's catalog does not quote. */
export const USDC_POLYGON = 'eip155:137/erc20:0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359';

/** Adds crypto settlements to `merchantId` over the partner API, with a fresh Idempotency-Key. */
export function addSettlements(
  h: Harness,
  merchantId: string,
  settlements: { asset: string; destination: string }[],
): Promise<Reply<Record<string, unknown>>> {
  return h.call(`/v1/merchants/${merchantId}/settlements/crypto`, {
    method: 'POST',
    headers: { ...h.auth, 'Idempotency-Key': crypto.randomUUID() },
    body: { settlements },
  });
}
