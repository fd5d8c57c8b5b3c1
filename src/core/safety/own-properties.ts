/**
 * The own enumerable properties of `value` in a null-prototype object: what the caller wrote and
 * nothing a polluted `Object.prototype` adds (a `baseUrl`, `fetch` or `headers` inherited there
 * would otherwise redirect requests or drop the key). Undefined and non-objects give `{}`.
 */
export function ownProperties<T extends object>(value: T | undefined | null): Partial<T> {
  const out = Object.create(null) as Record<string, unknown>;
  if (typeof value !== 'object' || value === null) return out as Partial<T>;
  for (const key of Object.keys(value)) out[key] = (value as Record<string, unknown>)[key];
  return out as Partial<T>;
}

/**
 * A plain `Date` of the instant `date` holds, read once through Date's own `getTime` (a subclass
 * or a proxy may override it to answer differently on each read: checked as one instant, sent as
 * another). What cannot be read becomes an invalid Date, which validation refuses.
 */
function readDate(date: Date): Date {
  try {
    return new Date(Date.prototype.getTime.call(date));
  } catch {
    return new Date(Number.NaN);
  }
}

/**
 * A deep copy of a caller's input with only own properties of every plain object (arrays copied
 * element by element), for validation to see exactly what was written. A `Date` becomes a plain
 * Date read once; other objects (a class instance) are kept as they are.
 */
export function ownDeep(value: unknown, depth = 0): unknown {
  // Request params are shallow: past this, nothing is a field the SDK reads.
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return readDate(value);
  if (Array.isArray(value)) return value.map((item) => ownDeep(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    // A defined property, so a key named `__proto__` stays data and sets no prototype.
    Object.defineProperty(out, key, {
      value: ownDeep((value as Record<string, unknown>)[key], depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
