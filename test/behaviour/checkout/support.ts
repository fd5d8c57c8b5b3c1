// What the checkout route's tests share: the route served by a real node:http server and called
// with the raw target as written (no client-side URL clean-up), the same calls made on its Fetch
// handler, and the secret search over an answer's status line, headers and body.
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import {
  type CheckoutRoute,
  type CheckoutRouteOptions,
  type ClientOptions,
  MerchantGateway,
} from 'merchant-gateway';
import type { MockGateway, MockServer } from 'merchant-gateway/testing';
import { expect } from 'vitest';
import { serve } from '../../support/servers';

/** An answer as the page sees it: status, headers (lower-case names) and body text. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body (undefined when not JSON). */
  json: unknown;
}

export interface Call {
  headers?: Record<string, string>;
  /** A JSON value (sent as JSON with content-type application/json unless headers say else) or raw text. */
  body?: unknown;
}

function encode({ headers = {}, body }: Call): { headers: Record<string, string>; text?: string } {
  if (body === undefined) return { headers };
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const typed = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  return { headers: typed ? headers : { 'content-type': 'application/json', ...headers }, text };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** `method target` sent over a real socket to `url`, the target exactly as written. */
export function rawCall(
  url: string,
  method: string,
  target: string,
  call: Call = {},
): Promise<Answer> {
  const { headers, text } = encode(call);
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: hostname, port, method, path: target, headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: flatten(response.headers),
            text: body,
            json: parse(body),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}

/** The same call on the Fetch handler, as a Fetch host (Next.js, Workers, Bun) hands it over. */
export async function fetchCall(
  route: CheckoutRoute,
  method: string,
  target: string,
  call: Call = {},
): Promise<Answer> {
  const { headers, text } = encode(call);
  const response = await route.fetch(
    new Request(`http://psp.example${target}`, {
      method,
      headers,
      ...(text === undefined ? {} : { body: text }),
    }),
  );
  const body = await response.text();
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    text: body,
    json: parse(body),
  };
}

/** A file's setup: `mock` over real HTTP, a client on it, and that client's route served by node:http. */
export async function routeOnMock(
  mock: MockGateway,
  clientOptions: Partial<ClientOptions> = {},
  routeOptions: CheckoutRouteOptions = {},
): Promise<{
  server: MockServer;
  gateway: MerchantGateway;
  route: CheckoutRoute;
  host: Awaited<ReturnType<typeof serveRoute>>;
  close: () => Promise<void>;
}> {
  const server = await mock.listen();
  const gateway = new MerchantGateway({
    baseUrl: server.url,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
    ...clientOptions,
  });
  const route = gateway.buyer.route(routeOptions);
  const host = await serveRoute(route);
  const close = async () => {
    await host.close();
    await server.close();
  };
  return { server, gateway, route, host, close };
}

/** `route.node` on a real node:http server of its own, for the whole file. */
export async function serveRoute(
  route: CheckoutRoute,
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  return serve((req, res) => {
    void route.node(req, res);
  });
}

/** The partner's key in every form a leak could take, searched for in the whole answer. */
export function expectNoSecret(answer: Answer, secret: string): void {
  const whole = `${answer.status}\n${JSON.stringify(answer.headers)}\n${answer.text}`;
  for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')]) {
    expect(whole).not.toContain(form);
  }
}

/** The only headers an answer may carry. */
export function expectOwnHeadersOnly(answer: Answer): void {
  const allowed = new Set([
    'content-type',
    'cache-control',
    'allow',
    'content-length',
    'date',
    'connection',
    'keep-alive',
    'transfer-encoding',
  ]);
  expect(Object.keys(answer.headers).filter((name) => !allowed.has(name))).toEqual([]);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
}

/** A payment of USD 12.50 to the mock's sample merchant (USDC on Base, USDT on Ethereum). */
export async function openPayment(gateway: MerchantGateway, referenceId: string): Promise<string> {
  const payment = await gateway.payments.create({
    amount: { unit: 'iso4217/USD', value: '1250' },
    referenceId,
  });
  return payment.paymentId;
}
