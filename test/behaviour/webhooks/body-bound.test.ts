// Issue 41, item 6: unwrap(request) judges a delivery's headers and timestamp before reading its
// body, reads at most maxBodyBytes (default 1 MiB) and stops the stream there; a Request whose
// body was read or is locked is invalid_payload, saying so; bodies given whole are bounded too.
// The 100 MB bodies are streams that count what is pulled from them: none is ever made whole.
import { Webhooks, WebhookVerificationError } from 'merchant-gateway/webhooks';
import { describe, expect, test } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/webhooks/signature';
import { paymentSucceeded, webhookBody } from '../../support/webhook-fixtures';

const MiB = 1024 * 1024;
const secret = generateWebhookSecret();
const webhooks = new Webhooks({ secret });

/** A body of `chunks` chunks of 1 MiB, made as they are pulled; counts pulls and a cancel. */
function countingStream(chunks: number) {
  const stats = { pulls: 0, cancelled: false };
  const chunk = new Uint8Array(MiB).fill(0x20);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        stats.pulls++;
        if (stats.pulls > chunks) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() {
        stats.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, stats };
}

function request(body: RequestInit['body'], headers: Record<string, string> = {}): Request {
  return new Request('https://shop.example/webhooks', {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  } as RequestInit);
}

async function signed(body: string, at = Date.now() / 1000) {
  return signWebhook({ secret, id: 'msg_bound', timestamp: at, body });
}

async function refusal(
  promise: Promise<unknown>,
  reason: string,
): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect((error as WebhookVerificationError).reason).toBe(reason);
  return error as WebhookVerificationError;
}

describe('unwrap(request) judges before it reads', () => {
  test('a 100 MB body without signature headers is refused with nothing pulled', async () => {
    const { stream, stats } = countingStream(100);
    const error = await refusal(webhooks.unwrap(request(stream)), 'missing_header');
    expect(error.message).toContain('webhook-id');
    expect(stats.pulls).toBe(0);
  });

  test('a 100 MB body whose timestamp is an hour old is refused with nothing pulled', async () => {
    const { stream, stats } = countingStream(100);
    const headers = await signed('{}', Date.now() / 1000 - 3600);
    await refusal(webhooks.unwrap(request(stream, headers)), 'timestamp_out_of_range');
    expect(stats.pulls).toBe(0);
  });

  test('a signed 100 MB body: payload_too_large after 2 MiB pulled, the stream cancelled', async () => {
    const { stream, stats } = countingStream(100);
    const error = await refusal(
      webhooks.unwrap(request(stream, await signed('{}'))),
      'payload_too_large',
    );
    expect(error.message).toContain(`maxBodyBytes (${MiB} bytes`);
    expect(stats.pulls).toBeLessThanOrEqual(2);
    expect(stats.cancelled).toBe(true);
  });

  test('a content-length over the bound is refused unread', async () => {
    const { stream, stats } = countingStream(100);
    const headers = { ...(await signed('{}')), 'content-length': String(100 * MiB) };
    const error = await refusal(webhooks.unwrap(request(stream, headers)), 'payload_too_large');
    expect(error.message).toContain(`content-length says ${100 * MiB}`);
    expect(stats.pulls).toBe(0);
  });

  test('maxBodyBytes moves the bound: a delivery at it verifies, one byte over is refused', async () => {
    const body = webhookBody(paymentSucceeded);
    const size = new TextEncoder().encode(body).byteLength;
    const exact = new Webhooks({ secret, maxBodyBytes: size });
    const event = await exact.unwrap(request(body, await signed(body)));
    expect(event.id).toBe(paymentSucceeded.id);
    const under = new Webhooks({ secret, maxBodyBytes: size - 1 });
    await refusal(under.unwrap(request(body, await signed(body))), 'payload_too_large');
    expect(exact.maxBodyBytes).toBe(size);
    expect(webhooks.maxBodyBytes).toBe(MiB);
    expect(() => new Webhooks({ secret, maxBodyBytes: 0 })).toThrow(/maxBodyBytes must be/);
    expect(() => new Webhooks({ secret, maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes must be/);
  });
});

describe('a Request whose body is not there to read is invalid_payload, saying why', () => {
  test('already read', async () => {
    const body = webhookBody(paymentSucceeded);
    const used = request(body, await signed(body));
    await used.text();
    const error = await refusal(webhooks.unwrap(used), 'invalid_payload');
    expect(error.message).toContain('already read');
    expect(error.message).toContain('unwrap(body, request.headers)');
  });

  test('locked by a reader', async () => {
    const body = webhookBody(paymentSucceeded);
    const locked = request(body, await signed(body));
    locked.body?.getReader();
    const error = await refusal(webhooks.unwrap(locked), 'invalid_payload');
    expect(error.message).toContain('is locked');
  });

  test('no body at all is an empty body: it fails its signature, not with a TypeError', async () => {
    await refusal(webhooks.unwrap(request(null, await signed(''))), 'invalid_payload');
    const headers = await signed('{"x":1}');
    await refusal(webhooks.unwrap(request(null, headers)), 'invalid_signature');
  });
});

describe('bodies given whole are bounded too', () => {
  test('a string, bytes or an ArrayBuffer over the bound are payload_too_large', async () => {
    const small = new Webhooks({ secret, maxBodyBytes: 64 });
    const text = 'x'.repeat(65);
    const headers = await signed(text);
    await refusal(small.unwrap(text, headers), 'payload_too_large');
    await refusal(small.verifySignature(Buffer.from(text), headers), 'payload_too_large');
    await refusal(
      small.unwrap(new TextEncoder().encode(text).buffer, headers),
      'payload_too_large',
    );
    // 22 characters, 66 bytes in UTF-8: the bound is in bytes.
    const wide = '€'.repeat(22);
    await refusal(small.unwrap(wide, await signed(wide)), 'payload_too_large');
  });

  test('a body at the default bound verifies', async () => {
    const body = JSON.stringify({ ...paymentSucceeded, pad: '' });
    const padded = body.replace('"pad":""', `"pad":"${'p'.repeat(MiB - body.length)}"`);
    expect(padded.length).toBe(MiB);
    const event = await webhooks.unwrap(padded, await signed(padded));
    expect(event.id).toBe(paymentSucceeded.id);
    await refusal(webhooks.unwrap(`${padded} `, await signed(`${padded} `)), 'payload_too_large');
  });
});
