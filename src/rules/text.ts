/** How the service measures strings: one function, so the SDK and the mock count alike. */

/**
 * Length in Unicode code points: the service validates with JSON Schema, whose `maxLength`
 * counts code points (RFC 8259 characters), not UTF-16 units (an emoji is 1, not 2).
 */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}

/** An inclusive range of lengths or counts. */
export interface Bounds {
  readonly min: number;
  readonly max: number;
}

/** Whether `value` has `bounds.min` to `bounds.max` code points. */
export function hasLengthWithin(value: string, bounds: Bounds): boolean {
  const length = codePointLength(value);
  return length >= bounds.min && length <= bounds.max;
}
