/** Reading a request body with a bound: no client, authenticated or not, makes the mock buffer more. */
import { ServiceError } from './responses';

/** The most of a request body the mock reads: 1 MiB. Past it the answer is 413 `payload_too_large`. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** 413 `payload_too_large`, in the service's error shape. */
export function payloadTooLarge(limit: number): ServiceError {
  return new ServiceError(413, 'payload_too_large', `Request body is larger than ${limit} bytes`, {
    details: { limitBytes: limit },
  });
}

/**
 * The body's text, read chunk by chunk and abandoned (the stream cancelled, the rest unread) as
 * soon as it passes `limit` bytes: then undefined. A `Content-Length` above the limit is refused
 * before a byte is read.
 */
export async function readBoundedText(
  request: Request,
  limit: number = MAX_BODY_BYTES,
): Promise<string | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return '';
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await request.body.cancel().catch(() => undefined);
    return undefined;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
