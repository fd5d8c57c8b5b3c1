const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same sequence on every
 * runtime, so sample data and generated ids are reproducible.
 */
export class Rng {
  private current: number;

  /** `seed` may be a `state` read earlier: the sequence then resumes from that point. */
  constructor(seed: number) {
    this.current = seed >>> 0;
  }

  get state(): number {
    return this.current;
  }

  /** An unsigned 32-bit integer. */
  uint32(): number {
    this.current = (this.current + 0x6d2b79f5) >>> 0;
    let t = this.current;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick() needs a non-empty list');
    return item;
  }

  /** Picks by weight: `[[value, weight], …]`. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return this.pick(entries)[0];
  }

  /** An id such as `pay_3fK9…`: the prefix, an underscore and 20 base-62 characters. */
  id(prefix: string): string {
    let out = `${prefix}_`;
    for (let i = 0; i < 20; i++) out += ALPHABET[Math.floor(this.next() * 62)];
    return out;
  }

  /** `0x` and `length` lowercase hex digits (an EVM address is 40, a transaction hash 64). */
  hex(length: number): string {
    // Eight digits per draw: hashes and addresses are most of the sample's random output.
    let out = '';
    while (out.length < length) out += this.uint32().toString(16).padStart(8, '0');
    return `0x${out.slice(0, length)}`;
  }
}
