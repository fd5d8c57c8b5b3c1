// A request body as the route reads it: JSON only, at most `maxBodyBytes`, the rest never read.
import type { Refusal } from './answer';

/** A body's chunks, pulled one at a time; `stop` gives up on the rest. */
export interface Chunks {
  next(): Promise<IteratorResult<unknown>>;
  stop(): void;
}

/** The JSON object a body holds, or why it is refused. */
export type BodyRead = { value: Record<string, unknown> } | { refusal: Refusal };

// A form or text/plain POST needs no CORS preflight: asking for JSON keeps other sites' pages
// from posting a body the route accepts.
const JSON_TYPE = /^application\/json\s*(;|$)/i;

function refused(status: number, code: string, message: string): BodyRead {
  return { refusal: { status, code, message } };
}

/** The JSON type required of every body the route reads, else 415. */
export function mediaTypeRefusal(contentType: string | null): BodyRead | undefined {
  return JSON_TYPE.test(contentType?.trim() ?? '')
    ? undefined
    : refused(
        415,
        'unsupported_media_type',
        'the body must be JSON, sent with content-type: application/json',
      );
}

/**
 * Reads at most `max` bytes of `chunks` and parses them as a JSON object. A declared length past
 * `max` is refused before anything is read; a body that grows past it is stopped there.
 */
export async function readJson(
  chunks: Chunks,
  contentLength: string | null,
  max: number,
): Promise<BodyRead> {
  const tooLarge = () => {
    chunks.stop();
    return refused(413, 'payload_too_large', `the body must be at most ${max} bytes`);
  };
  if (contentLength !== null && Number(contentLength) > max) return tooLarge();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let next = await pull(chunks); next.done !== true; next = await pull(chunks)) {
    if (next.value === CUT) return refused(400, 'invalid_request', 'body: cut short');
    const chunk =
      typeof next.value === 'string' ? new TextEncoder().encode(next.value) : next.value;
    if (!(chunk instanceof Uint8Array)) return refused(400, 'invalid_request', 'body: unreadable');
    size += chunk.byteLength;
    if (size > max) return tooLarge();
    parts.push(chunk);
  }
  let value: unknown;
  try {
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.byteLength;
    }
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return refused(400, 'invalid_request', 'body: must be a JSON object (it is not valid JSON)');
  }
  return parsedJson(value);
}

const CUT = Symbol('cut');

// A body whose sender went away mid-way is refused like a malformed one, not a failure of ours.
function pull(chunks: Chunks): Promise<IteratorResult<unknown>> {
  return chunks.next().catch(() => ({ done: false, value: CUT }));
}

/** A parsed body: only an object (not an array, null or a scalar) is a call's parameters. */
export function parsedJson(value: unknown): BodyRead {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { value: value as Record<string, unknown> }
    : refused(400, 'invalid_request', 'body: must be a JSON object');
}
