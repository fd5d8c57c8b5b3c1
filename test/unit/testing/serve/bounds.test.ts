// The mock under abuse, over real sockets: the key is checked before a body is read, at most
// 1 MiB of one is read, and the request log keeps the newest entries only.
import { request as httpRequest } from 'node:http';
import { createMockGateway, type MockGateway } from 'merchant-gateway/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { BASE_URL } from '../../../support';
import { useListeningMock } from '../../../support/servers';

const MiB = 1024 * 1024;

interface Sent {
  status: number;
  body: string;
  /** Body bytes written before the answer arrived. */
  writtenBeforeAnswer: number;
}

/**
 * POSTs `total` bytes in 64 KiB chunks, writing the next chunk only once the previous one is
 * flushed, and stops writing as soon as an answer arrives. A server that read the whole body
 * before answering would let every byte through first.
 */
function post(
  url: string,
  headers: Record<string, string>,
  total: number,
  path = '/v1/merchants',
): Promise<Sent> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = httpRequest(
      { host: hostname, port, method: 'POST', path, headers, agent: false },
      (res) => {
        answered = true;
        const writtenBeforeAnswer = written;
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, writtenBeforeAnswer }));
      },
    );
    // A server that closes after answering may reset the rest of the upload: only an error
    // before any answer is a failure.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!answered && written < total) {
        const size = Math.min(chunk.length, total - written);
        written += size;
        if (!req.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('a body is read only after the key, and at most 1 MiB of it (real HTTP)', () => {
  const mock = createMockGateway();
  const served = useListeningMock(mock);
  beforeEach(() => mock.reset());

  it('answers 401 to a 100 MB upload without a key before reading it, and records no body', async () => {
    const sent = await post(served.url, { 'content-length': String(100 * MiB) }, 100 * MiB);
    expect(sent.status).toBe(401);
    expect(JSON.parse(sent.body)).toMatchObject({ code: 'missing_api_key' });
    expect(sent.writtenBeforeAnswer).toBeLessThan(8 * MiB);
    expect(mock.requests.at(-1)?.body).toBeUndefined();
  });

  it('answers 401 to a chunked upload with a wrong key before reading it', async () => {
    const sent = await post(served.url, { 'api-key': 'sk_wrong' }, 100 * MiB);
    expect(sent.status).toBe(401);
    expect(JSON.parse(sent.body)).toMatchObject({ code: 'invalid_api_key' });
    expect(sent.writtenBeforeAnswer).toBeLessThan(8 * MiB);
  });

  it('answers 401 to an upload that has only begun: it waits for no body byte', async () => {
    // One 1 KiB chunk, then silence: a server that read any of the body first would wait.
    const { hostname, port } = new URL(served.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: hostname, port, method: 'PATCH', path: '/v1/merchants/m', agent: false },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write(Buffer.alloc(1024, 0x20));
      setTimeout(() => resolve(0), 3000).unref();
    });
    expect(status).toBe(401);
  });

  const auth = (): Record<string, string> => ({
    'api-key': mock.credentials.apiKey,
    'idempotency-key': crypto.randomUUID(),
    'content-type': 'application/json',
  });

  it('answers 413 payload_too_large to a declared Content-Length over 1 MiB, reading none of it', async () => {
    const sent = await post(
      served.url,
      { ...auth(), 'content-length': String(50 * MiB) },
      50 * MiB,
    );
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toEqual({
      code: 'payload_too_large',
      message: `Request body is larger than ${MiB} bytes`,
      details: { limitBytes: MiB },
    });
    expect(sent.writtenBeforeAnswer).toBeLessThan(8 * MiB);
  });

  it('answers 413 to a chunked body once it passes 1 MiB, and keeps serving', async () => {
    const sent = await post(served.url, auth(), 50 * MiB);
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({ code: 'payload_too_large' });
    expect(sent.writtenBeforeAnswer).toBeLessThan(8 * MiB);
    const after = await fetch(`${served.url}/v1/merchants/${mock.sample.merchantId}`, {
      headers: { 'Api-Key': mock.credentials.apiKey },
    });
    expect(after.status).toBe(200);
  });

  it('reads a body of exactly 1 MiB, and refuses one byte more', async () => {
    const json = JSON.stringify({ merchantName: 'Shop', merchantEmail: 'shop@example.com' });
    const exact = json.padEnd(MiB, ' ');
    const ok = await fetch(`${served.url}/v1/merchants`, {
      method: 'POST',
      headers: auth(),
      body: exact,
    });
    expect(ok.status).toBe(201);
    const over = await fetch(`${served.url}/v1/merchants`, {
      method: 'POST',
      headers: auth(),
      body: `${exact} `,
    });
    expect(over.status).toBe(413);
  });
});

describe('the control API and the checkout page are bounded the same way (real HTTP)', () => {
  const mock = createMockGateway();
  const served = useListeningMock(mock);

  it('answers 401 to a control call without a key before reading its 100 MB body', async () => {
    const sent = await post(served.url, {}, 100 * MiB, '/__mock/faults');
    expect(sent.status).toBe(401);
    expect(sent.writtenBeforeAnswer).toBeLessThan(8 * MiB);
  });

  it('answers 413 to a control call with a key and a body over 1 MiB', async () => {
    const headers = { 'api-key': mock.credentials.apiKey, 'content-type': 'application/json' };
    const sent = await post(served.url, headers, 50 * MiB, '/__mock/faults');
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({ code: 'payload_too_large' });
    expect(sent.writtenBeforeAnswer).toBeLessThan(8 * MiB);
  });

  it('answers 413 to a checkout form over 1 MiB, which needs no key, and leaves the payment open', async () => {
    const payment = await mock.fetch(`${served.url}/v1/payments`, {
      method: 'POST',
      headers: {
        'Api-Key': mock.credentials.apiKey,
        'Merchant-Id': mock.sample.merchantId,
        'Idempotency-Key': crypto.randomUUID(),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'big' }),
    });
    const { paymentId } = (await payment.json()) as { paymentId: string };
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const sent = await post(served.url, headers, 50 * MiB, `/pay/${paymentId}`);
    expect(sent.status).toBe(413);
    expect(sent.writtenBeforeAnswer).toBeLessThan(8 * MiB);
    expect(mock.getPayment(paymentId)?.status).toBe('requires_action');
  });
});

describe('the same bound through mock.fetch and msw (the SDK-side paths)', () => {
  const mock = createMockGateway();
  const auth = () => ({
    'Api-Key': mock.credentials.apiKey,
    'Idempotency-Key': crypto.randomUUID(),
    'Content-Type': 'application/json',
  });

  it('answers 413 to a 2 MiB body, and 401 without a key whatever the size', async () => {
    const big = 'x'.repeat(2 * MiB);
    const over = await mock.fetch(`${BASE_URL}/v1/merchants`, {
      method: 'POST',
      headers: auth(),
      body: big,
    });
    expect(over.status).toBe(413);
    const anonymous = await mock.fetch(`${BASE_URL}/v1/merchants`, { method: 'POST', body: big });
    expect(anonymous.status).toBe(401);
  });

  it('stops reading a streamed body just past 1 MiB: the rest is never pulled', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const res = await mock.fetch(`${BASE_URL}/v1/merchants`, {
      method: 'POST',
      headers: auth(),
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(MiB + 3 * 64 * 1024);
  });
});

describe('the request log keeps the newest requestLogSize entries', () => {
  const get = (mock: MockGateway, n: number) =>
    mock.fetch(`${BASE_URL}/v1/merchants/${mock.sample.merchantId}?n=${n}`, {
      headers: { 'Api-Key': mock.credentials.apiKey },
    });

  it('keeps the last 1,000 by default', async () => {
    const mock = createMockGateway();
    for (let n = 1; n <= 1005; n++) await get(mock, n);
    expect(mock.requests).toHaveLength(1000);
    expect(mock.requests[0]?.query.n).toBe('6');
    expect(mock.requests.at(-1)?.query.n).toBe('1005');
  });

  it('keeps as many as requestLogSize says, the array a test holds staying live', async () => {
    const mock = createMockGateway({ requestLogSize: 3 });
    const held = mock.requests;
    for (let n = 1; n <= 5; n++) await get(mock, n);
    expect(held.map((r) => r.query.n)).toEqual(['3', '4', '5']);
    expect(createMockGateway({ requestLogSize: 0 }).requests).toEqual([]);
  });

  it('refuses a size that is not a whole number >= 0', () => {
    for (const size of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createMockGateway({ requestLogSize: size })).toThrow(RangeError);
    }
  });

  it('records at most 64 KiB of a body', async () => {
    const mock = createMockGateway();
    const body = JSON.stringify({ merchantName: 'x'.repeat(100_000) });
    await mock.fetch(`${BASE_URL}/v1/merchants`, {
      method: 'POST',
      headers: { 'Api-Key': mock.credentials.apiKey, 'Idempotency-Key': 'k' },
      body,
    });
    expect(mock.requests[0]?.body).toBe(body.slice(0, 64 * 1024));
  });
});
