// A confirm whose outcome is unknown is never sent again: over a real socket that the server
// drops after reading the request, or answers with a 5xx, the service sees one confirm.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectionError, MerchantGateway, ServerError } from 'merchant-gateway';
import { afterEach, describe, expect, test } from 'vitest';
import { PAYMENT_ID, processing } from '../../support/buyer-fixtures';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A gateway on 127.0.0.1 whose confirms do `onConfirm`; returns its URL and the confirms counted. */
async function gatewayThat(
  onConfirm: (
    n: number,
    respond: (status: number, body: unknown) => void,
    drop: () => void,
  ) => void,
) {
  const confirms: unknown[] = [];
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      if (!request.url?.endsWith('/confirm')) {
        response.writeHead(404).end();
        return;
      }
      confirms.push(JSON.parse(text));
      onConfirm(
        confirms.length,
        (status, body) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(body));
        },
        () => request.socket.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, confirms };
}

const params = { optionId: 'opt_1', results: [{ type: 'walletRpc' as const, data: ['0xsig'] }] };

describe('buyer.confirm over a real connection', () => {
  test('a connection dropped after the request was read: one confirm reached the server', async () => {
    const { url, confirms } = await gatewayThat((_, __, drop) => drop());
    const gateway = new MerchantGateway({ baseUrl: url, apiKey: 'sk_test', maxRetries: 5 });
    const error = await gateway.buyer.confirm(PAYMENT_ID, params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('gateway.buyer.status');
    expect(confirms).toHaveLength(1);
  });

  test('a 502 from a proxy: one confirm reached the server', async () => {
    const { url, confirms } = await gatewayThat((_, respond) =>
      respond(502, { code: 'internal_error', message: 'upstream' }),
    );
    const gateway = new MerchantGateway({ baseUrl: url, apiKey: 'sk_test', maxRetries: 5 });
    await expect(gateway.buyer.confirm(PAYMENT_ID, params)).rejects.toBeInstanceOf(ServerError);
    expect(confirms).toHaveLength(1);
  });

  test('a 429 is retried, and the second confirm is answered', async () => {
    const { url, confirms } = await gatewayThat((n, respond) =>
      n === 1
        ? respond(429, { code: 'rate_limited', message: 'slow down' })
        : respond(200, processing),
    );
    const gateway = new MerchantGateway({ baseUrl: url, apiKey: 'sk_test' });
    await expect(gateway.buyer.confirm(PAYMENT_ID, params)).resolves.toMatchObject({
      status: 'processing',
    });
    expect(confirms).toHaveLength(2);
  });
});
