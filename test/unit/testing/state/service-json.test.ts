// The mock's webhook bodies are the service's JSON in the form of its documented test vector (a
// space after each `:` and `,`), never `JSON.stringify`'s, and they parse to the same value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serviceJson } from '../../../../src/testing/state/service-json';

/** Whether `JSON.stringify(value)` writes a `:` or a `,` between values. */
function hasSeparator(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 1 || value.some(hasSeparator);
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return false;
}

describe('serviceJson', () => {
  it('writes the facts test vector as its bytes are', () => {
    expect(serviceJson({ test: 2432232314 })).toBe('{"test": 2432232314}');
    expect(serviceJson({ a: [1, 'x, y: z', null], b: {}, c: [] })).toBe(
      '{"a": [1, "x, y: z", null], "b": {}, "c": []}',
    );
  });

  it('leaves out undefined members and writes undefined items null, as JSON.stringify does', () => {
    expect(serviceJson({ a: undefined, b: [undefined] })).toBe('{"b": [null]}');
  });

  it('parses back to what JSON.stringify gives, and never in its form', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const written = serviceJson(value);
        const plain = JSON.stringify(value);
        expect(JSON.parse(written)).toEqual(JSON.parse(plain));
        if (hasSeparator(value)) expect(written).not.toBe(plain);
        else expect(written).toBe(plain);
      }),
      { numRuns: 500 },
    );
  });
});
