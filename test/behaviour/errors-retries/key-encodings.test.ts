// A key is redacted in every encoding the SDK writes it in or a service echoes it in (issue 37.3):
// keys full of the characters where the encodings differ, each echoed in every form by the
// service, and none of it left in the error (message, JSON, inspect) or a log line.
import { Buffer } from 'node:buffer';
import { inspect } from 'node:util';
import { MerchantGateway } from 'merchant-gateway';
import { describe, expect, test } from 'vitest';
import { BASE_URL, HttpResponse, http, useMsw } from '../../support';

const server = useMsw();
const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());

/** What each encoding makes of `key`, as services and proxies echo it. */
function echoes(key: string): Record<string, string> {
  const form = new URLSearchParams({ k: key }).toString().slice(2);
  const json = JSON.stringify(key).slice(1, -1);
  const url = new URL(`http://h/?${key.replaceAll('#', '%23')}`).search.slice(1);
  return {
    raw: key,
    percent: encodeURIComponent(key),
    'percent, lower-case hex': lower(encodeURIComponent(key)),
    form,
    'form, lower-case hex': lower(form),
    'WHATWG URL': url,
    'JSON string': json,
    'JSON string, escaped slashes': json.replaceAll('/', '\\/'),
    base64: Buffer.from(key).toString('base64'),
    base64url: Buffer.from(key).toString('base64url'),
    'base64 at offset 1': Buffer.from(`x${key}`).toString('base64'),
    'base64 at offset 2': Buffer.from(`xy${key}`).toString('base64'),
  };
}

describe.each([
  "sk_live_k~!'() x*partner",
  'sk_live_"quoted"\\back/slash#hash',
  'sk_live_100%+plus&amp=eq;semi,comma',
])('the key %j', (key) => {
  test.each(Object.entries(echoes(key)))('echoed %s is redacted everywhere', async (_, echo) => {
    const lines: string[] = [];
    const log = (...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    };
    server.use(
      http.get(`${BASE_URL}/v1/merchants`, () =>
        HttpResponse.json(
          { code: 'invalid_params', message: `got [${echo}]`, details: { echo } },
          { status: 400, headers: { 'x-echo': encodeURIComponent(echo) } },
        ),
      ),
    );
    const gateway = new MerchantGateway({
      baseUrl: BASE_URL,
      apiKey: key,
      maxRetries: 0,
      logLevel: 'debug',
      logger: { debug: log, info: log, warn: log, error: log },
    });

    const error = await gateway.merchants.list().then(
      () => undefined,
      (e: unknown) => e as Error,
    );

    expect(error?.message).toMatch(/got \[[^\]]*\*\*\*[^\]]*\]/);
    const texts = [error?.message, JSON.stringify(error), inspect(error, { depth: 10 }), ...lines];
    for (const form of Object.values(echoes(key))) {
      for (const text of texts) expect(text).not.toContain(form);
    }
  });
});
