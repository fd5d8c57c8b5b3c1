// Every error class is redacted alike: a service (or a proxy) that echoes the key back, as sent,
// percent-encoded or in base64, in a body, a header or a request id, never puts it in an error's
// message, fields, JSON.stringify or util.inspect. Over real sockets, with hostile answers.
import { inspect } from 'node:util';
import { MerchantGateway, MerchantGatewayError } from 'merchant-gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostile } from '../../support/hostile-server';

// Characters that percent-encoding and base64 both change, so each form differs from the key.
const KEY = 'sk_live/TOP+SECRET=key~42';
const FORMS = {
  'as sent': KEY,
  'percent-encoded': encodeURIComponent(KEY),
  'percent-encoded, lower-case hex': encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) =>
    m.toLowerCase(),
  ),
  base64: Buffer.from(KEY).toString('base64'),
  'base64 without padding': Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
  base64url: Buffer.from(KEY).toString('base64url'),
};
const echo = Object.values(FORMS).join(' | ');

/** What the server answers for each path: status, headers and body, every one echoing the key. */
const answers: Record<string, { status: number; headers?: Record<string, string>; body: string }> =
  {
    // A 2xx that breaks the schema: ResponseValidationError.
    '/v1/merchants/bad-shape': {
      status: 200,
      body: JSON.stringify({
        merchant: { id: 42, name: echo, [KEY]: echo, nested: { deep: [echo] } },
      }),
    },
    // A 2xx that is not JSON: ResponseValidationError with the raw text.
    '/v1/merchants/not-json': { status: 200, body: `<html>${echo}</html>` },
    // A 2xx past maxResponseBytes: ResponseTooLargeError.
    '/v1/merchants/too-large': { status: 200, body: `{"merchant":"${echo}${'x'.repeat(4096)}"}` },
    // An error response: ApiError.
    '/v1/merchants/api-error': {
      status: 400,
      body: JSON.stringify({
        code: `params_validation ${echo}`,
        message: `bad request for ${echo}`,
        details: { [KEY]: echo },
        issues: [{ field: echo, message: echo }],
      }),
    },
    // A proxy's page: ServerError with a text body.
    '/v1/merchants/proxy-page': { status: 502, body: `<h1>Bad gateway</h1><p>${echo}</p>` },
  };

let url = '';
let close: () => Promise<void> = async () => {};
beforeAll(async () => {
  const server = await hostile((request, response) => {
    request.resume();
    const answer = answers[request.url ?? ''];
    if (answer === undefined) {
      response.writeHead(500).end();
      return;
    }
    response.writeHead(answer.status, {
      'content-type': answer.status === 200 ? 'application/json' : 'text/html',
      'x-request-id': `req ${echo}`,
      'x-echo': echo,
      ...answer.headers,
    });
    response.end(answer.body);
  });
  url = server.url;
  close = server.close;
});
afterAll(() => close());

function client() {
  return new MerchantGateway({ baseUrl: url, apiKey: KEY, maxRetries: 0, maxResponseBytes: 4096 });
}

/** Everything a user could print or ship to a log service. */
function renderings(error: MerchantGatewayError): Record<string, string> {
  const fields = Object.fromEntries(
    Object.getOwnPropertyNames(error).map((name) => [
      `error.${name}`,
      inspect((error as unknown as Record<string, unknown>)[name], { depth: Infinity }),
    ]),
  );
  return {
    ...fields,
    'JSON.stringify(error)': JSON.stringify(error),
    'util.inspect(error)': inspect(error, { depth: Infinity, showHidden: true }),
    'String(error)': String(error),
  };
}

describe('every error class hides the key in every form', () => {
  test.each([
    ['bad-shape', 'ResponseValidationError'],
    ['not-json', 'ResponseValidationError'],
    ['too-large', 'ResponseTooLargeError'],
    ['api-error', 'InvalidRequestError'],
    ['proxy-page', 'ServerError'],
  ])('%s → %s', async (id, name) => {
    const error = await client()
      .merchants.get(id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MerchantGatewayError);
    const gatewayError = error as MerchantGatewayError & { requestId?: string };
    expect(gatewayError.name).toBe(name);
    // The request id is kept, with the key in it replaced.
    expect(gatewayError.requestId).toMatch(/^req \*\*\*/);
    for (const [where, text] of Object.entries(renderings(gatewayError))) {
      for (const [form, secret] of Object.entries(FORMS)) {
        expect(text.includes(secret), `the key ${form} in ${where}`).toBe(false);
      }
    }
  });
});
