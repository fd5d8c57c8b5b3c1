// The mock's request log is bounded in bytes, and what it keeps of a large body holds nothing
// else alive: a V8 sliced string would keep a whole 1 MiB body behind the 64 KiB it shows.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { RECORDED_BODY_BYTES, recordRequest } from '../../../../src/testing/state/request-log';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

function record(text: string) {
  const url = new URL('http://127.0.0.1/v1/merchants');
  const request = new Request(url, { method: 'POST', headers: { 'api-key': 'sk_1' } });
  return recordRequest(request, url, '/v1/merchants', text);
}

/** A string of its own (flat, not shared with any other), `bytes` long, ending in `tag`. */
function body(bytes: number, tag: number): string {
  return Buffer.alloc(bytes, 0x61).toString('latin1').slice(0, -8) + String(tag).padStart(8, '0');
}

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('the request log', () => {
  test('keeps at most 64 KiB of UTF-8 bytes of a body, whatever its characters', () => {
    // 40,000 × é: fewer than 64 Ki characters, yet 80,000 bytes.
    const kept = record('é'.repeat(40_000)).body as string;
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(RECORDED_BODY_BYTES);
    expect(kept).toBe('é'.repeat(RECORDED_BODY_BYTES / 2));
    // A character never split: 3-byte characters stop at the last whole one.
    const euros = record('€'.repeat(30_000)).body as string;
    expect(euros).toBe('€'.repeat(Math.floor(RECORDED_BODY_BYTES / 3)));
    // A body within the bound is kept whole (parsed when it is JSON).
    expect(record('{"a":1}').body).toEqual({ a: 1 });
  });

  // 1 s idle; 5.5 s was seen beside a loaded suite: the limit holds at ten times that.
  test('holds 64 KiB per large body, not the whole body behind it (measured on the heap)', () => {
    const entries: unknown[] = [];
    const before = heapAfterGc();
    for (let i = 0; i < 100; i++) entries.push(record(body(MiB - 1024, i)));
    const grown = heapAfterGc() - before;
    expect(entries).toHaveLength(100);
    // 100 × 64 KiB is 6.25 MiB; 100 whole bodies behind slices would be 100 MiB.
    expect(grown).toBeLessThan(20 * MiB);
    expect((entries[99] as { body: string }).body).toHaveLength(RECORDED_BODY_BYTES);
  }, 60_000);
});
