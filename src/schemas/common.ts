import * as z from 'zod/mini';
import { hasLengthWithin } from '../rules/text';

/** The catchall of every loose object here: one schema for all of them. */
const ANY_VALUE = z.unknown();

/**
 * `z.looseObject(shape)`, with the one shared catchall where `z.looseObject` makes a schema of
 * its own for each object: about 80 fewer schemas built when the SDK is imported (issue 42).
 */
function looseObject<S extends z.core.$ZodShape>(shape: S): z.ZodMiniObject<S, z.core.$loose> {
  return new z.ZodMiniObject({ type: 'object', shape, catchall: ANY_VALUE }) as z.ZodMiniObject<
    S,
    z.core.$loose
  >;
}

/**
 * Field schemas that many objects use as they are, built once: a schema is immutable (a check or
 * a wrapper makes a new one), so one instance serves every field, and importing the SDK builds
 * about 170 fewer schemas (issue 42's cold start).
 */
export const stringField = z.string();
export const numberField = z.number();
export const booleanField = z.boolean();
/** A nullable, optional string or number of a response (`maybe(z.string())`, built once). */
export const maybeString = maybe(stringField);
export const maybeNumber = maybe(numberField);

/**
 * A string enum the service may extend: typed as its known values while any other string is
 * still accepted at runtime (`'active' | 'inactive' | (string & {})`).
 */
export function openEnum<T extends string>(): z.ZodMiniType<T | (string & {})> {
  return stringField as z.ZodMiniType<T | (string & {})>;
}

/**
 * One of `values`: the issue `z.enum(values, { error: message })` (or `z.literal`, for one value)
 * raises, code, values and message alike, from a check of our own, so neither z.enum's nor
 * z.literal's code is in any bundle for their eight uses.
 */
export function oneOf<const T extends readonly string[]>(
  values: T,
  message?: string,
): z.ZodMiniType<T[number], T[number]> {
  return z.unknown().check(
    z.check((payload) => {
      if (values.includes(payload.value as string)) return;
      payload.issues.push({
        code: 'invalid_value',
        values: [...values],
        input: payload.value,
        ...(message === undefined ? {} : { message }),
      });
    }),
  ) as unknown as z.ZodMiniType<T[number], T[number]>;
}

/** A string field; a missing one is reported as required rather than as a wrong type. */
export function requiredString() {
  return z.string({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
  });
}

/** A string whose length in Unicode code points (as the service counts) is within [min, max]. */
export function text(min: number, max: number) {
  return requiredString().check(
    z.refine((s) => hasLengthWithin(s, { min, max }), `must be ${min} to ${max} characters`),
  );
}

/** A string matching one of the service's published patterns. */
export function matching(pattern: RegExp, message: string) {
  return requiredString().check(z.regex(pattern, message));
}

/** A string accepted by a predicate. */
export function satisfying(check: (value: string) => boolean, message: string) {
  return requiredString().check(z.refine(check, message));
}

/**
 * A request object that rejects unknown fields, one issue per field named by its own path
 * (`merchantNmae`, `settlements.0.extra`). `z.strictObject` reports them all at the object's
 * path, which tells a caller nothing about where the typo is.
 */
export function exact<S extends z.core.$ZodShape>(
  shape: S,
): z.ZodMiniType<
  z.output<z.ZodMiniObject<S, z.core.$strict>>,
  z.input<z.ZodMiniObject<S, z.core.$strict>>
> {
  return looseObject(shape).check(
    z.check<Record<string, unknown>>(
      (payload) => {
        for (const key of Object.keys(payload.value)) {
          if (Object.hasOwn(shape, key)) continue;
          payload.issues.push({
            code: 'custom',
            path: [key],
            message: 'is not a field of this call (a typo?)',
            input: payload.value[key],
          });
        }
      },
      // Also when a known field failed, so a typo is reported together with that failure.
      {
        when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value),
      },
    ),
  );
}

/** A nullable, optional field of a response. */
export function maybe<T extends z.ZodMiniType>(schema: T) {
  return z.optional(z.nullable(schema));
}

/**
 * A response object: unknown fields the service adds are kept at run time (it parses as
 * `z.looseObject`), but its type lists only the declared fields, so a misspelt field such as
 * `payment.gatewayURL` is a compile error instead of `unknown`.
 */
export function responseObject<S extends z.core.$ZodShape>(
  shape: S,
): z.ZodMiniObject<S, z.core.$strip> {
  return looseObject(shape) as unknown as z.ZodMiniObject<S, z.core.$strip>;
}
