// A Fetch `Request`'s body read within a bound: judged by its headers first, read chunk by chunk,
// and cancelled (the rest never read) once past the bound. Loaded with the receiver.
import { WebhookVerificationError } from './errors';

/** The refusal of a body over `maxBodyBytes`; `seen` is how many bytes showed it. */
export function tooLarge(maxBodyBytes: number, seen: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'payload_too_large',
    `the body is over maxBodyBytes (${maxBodyBytes} bytes; ${seen}): the service's events are a few KB, so this is not one of them (raise maxBodyBytes if yours are larger)`,
  );
}

/**
 * The raw body of `request`, at most `maxBodyBytes`: a declared `content-length` over it is
 * refused unread, and a stream is cancelled as soon as it passes it. A body already read, or
 * locked by a reader, is `invalid_payload`.
 */
export async function readBoundedBody(request: Request, maxBodyBytes: number): Promise<Uint8Array> {
  if (request.bodyUsed) {
    throw new WebhookVerificationError(
      'invalid_payload',
      "the request's body was already read: pass that raw body and the headers instead, unwrap(body, request.headers)",
    );
  }
  const stream = request.body;
  if (stream === null || stream === undefined) {
    // No body, or a Request-like without streams: what arrayBuffer gives, bounded after.
    const whole = new Uint8Array(await request.arrayBuffer());
    if (whole.byteLength > maxBodyBytes) throw tooLarge(maxBodyBytes, `${whole.byteLength}`);
    return whole;
  }
  if (stream.locked) {
    throw new WebhookVerificationError(
      'invalid_payload',
      "the request's body is locked (a reader holds it, or a framework is reading it): pass the raw body it read and the headers instead, unwrap(body, request.headers)",
    );
  }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBodyBytes) {
    await stream.cancel().catch(() => {});
    throw tooLarge(maxBodyBytes, `content-length says ${declared}`);
  }
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      // The rest is never read: the sender's stream (or socket) is told to stop.
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBodyBytes, `${size} read before stopping`);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
