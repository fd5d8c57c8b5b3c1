import { type ClientOptions, type MerchantGateway, RequestValidationError } from 'merchant-gateway';
import type { SetupServer } from 'msw/node';
import { expect } from 'vitest';
import { BASE_URL, gateway, HttpResponse, http, useMsw } from './index';

/** One request as the fake service received it. */
export interface SeenRequest {
  method: string;
  /** The URL path exactly as sent, still percent-encoded. */
  path: string;
  headers: Headers;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
}

let server: SetupServer | undefined;

/** Starts msw (no handler yet) for the calling test file; `answer`/`answerInTurn` script it. */
export function useFakeService(): void {
  server = useMsw();
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
  if (!server) throw new Error('answerInTurn: call useFakeService() in the test file first');
  server.use(
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

/** The client factory with retries off, so one call is one request the fake service sees. */
export function noRetryGateway(options: ClientOptions = {}): MerchantGateway {
  return gateway({ maxRetries: 0, ...options });
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
