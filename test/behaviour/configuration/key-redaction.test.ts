import { type ApiError, MerchantGateway } from 'merchant-gateway';
import { afterEach, describe, expect, test } from 'vitest';
import { hostile } from '../../support/hostile-server';

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

async function echoing404() {
  const server = await hostile((request, response) => {
    request.resume();
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        code: 'not_found',
        message: `no merchant at ${request.url} for key ${request.headers['api-key']}`,
        details: { key: request.headers['api-key'] },
      }),
    );
  });
  closeServer = server.close;
  return server.url;
}

describe('keys are redacted as keys, not as any substring', () => {
  test('a 2-character key leaves the v1 of a path alone, and is hidden where it stands whole', async () => {
    const url = await echoing404();
    const lines: string[] = [];
    const logger = {
      debug: (...parts: unknown[]) => lines.push(JSON.stringify(parts)),
      info() {},
      warn() {},
      error() {},
    };
    const error = (await new MerchantGateway({
      baseUrl: url,
      apiKey: 'v1',
      logger,
      logLevel: 'debug',
    }).merchants
      .get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toContain('GET /v1/merchants/mer_1 → 404');
    expect(error.message).not.toContain('/***/');
    expect(error.details).toEqual({ key: '***' });
    expect(lines.join('\n')).toContain('"api-key":"***"');
  });

  test('a realistic key is still hidden everywhere it appears', async () => {
    const url = await echoing404();
    const key = 'sk_live_abcdefgh12345678';
    const error = (await new MerchantGateway({ baseUrl: url, apiKey: key }).merchants
      .get('mer_1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toContain('for key ***');
    expect(JSON.stringify(error.body)).not.toContain(key);
    expect(JSON.stringify(error.details)).not.toContain(key);
  });
});
