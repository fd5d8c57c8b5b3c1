// Step "read a bounded body" of a call: at most a limit of decoded bytes, cancellable at once.

/** A body read: its text, and whether it was cut at the size limit. */
export interface Body {
  text: string;
  cut: boolean;
  /** Decoded bytes read (at most the limit). */
  bytes: number;
}

/** How an attempt's abort reaches the body being read: `cancel` is set while a reader is open. */
export interface BodyAbort {
  cancel: ((reason: unknown) => void) | undefined;
}

/**
 * Reads the body through a reader of our own, so an abort cancels the stream itself (`text()`
 * would lock it and keep buffering after a timeout: nodejs/node#55428, nodejs/undici#3644), and
 * stops at `maxBytes` of decoded bytes, cancelling the rest. The attempt's abort calls
 * `onAbort.cancel` directly: no listener is added to and removed from the signal on every call.
 */
export async function readBody(
  response: Response,
  signal: AbortSignal,
  maxBytes: number,
  onAbort: BodyAbort,
): Promise<Body> {
  const body = response.body;
  if (body === null) return { text: '', cut: false, bytes: 0 };
  const reader = body.getReader();
  const cancel = (reason: unknown) => {
    reader.cancel(reason).catch(() => {});
  };
  if (signal.aborted) cancel(signal.reason);
  else onAbort.cancel = cancel;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled read ends as if the body were complete: the signal says it was not.
      signal.throwIfAborted();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        chunks.push(value.subarray(0, value.byteLength - (bytes - maxBytes)));
        reader.cancel().catch(() => {});
        return { text: decode(chunks), cut: true, bytes: maxBytes };
      }
      chunks.push(value);
    }
  } finally {
    onAbort.cancel = undefined;
  }
  return { text: decode(chunks), cut: false, bytes };
}

/** One decoder for every body: a whole-input decode keeps no state between calls. */
const UTF8 = new TextDecoder();

/** The bytes as UTF-8 text (a body is decoded once it is whole, not chunk by chunk). */
function decode(chunks: Uint8Array[]): string {
  if (chunks.length === 1) return UTF8.decode(chunks[0]);
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return UTF8.decode(all);
}
