import * as z from 'zod/mini';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../rules/ids';
import type { ValidationIssue } from './errors/base';
import { RequestValidationError } from './errors/base';
import { ownDeep } from './safety/own-properties';

// zod/mini ships no locale, so its own messages are only "Invalid input": say what was expected.
function describe(issue: z.core.$ZodIssue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `unknown field(s) ${issue.keys.join(', ')}`;
    default:
      return 'is invalid';
  }
}

/** zod issues in the service's `{ field, message }` shape, `field` a dotted path. */
export function toIssues(error: z.core.$ZodError, prefix?: string): ValidationIssue[] {
  return error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '').join('.'),
    message: describe(issue),
  }));
}

/**
 * Checks a caller's input against a request schema; nothing is sent when it fails. Both the input
 * and the result hold own properties only (null prototypes): a polluted `Object.prototype` adds
 * no field and fills no absent one. Every resource validating through here gets that for free.
 */
export function parseRequest<S extends z.ZodMiniType>(
  operation: string,
  schema: S,
  input: unknown,
  prefix?: string,
): z.output<S> {
  const result = z.safeParse(schema, ownDeep(input));
  if (!result.success) throw new RequestValidationError(operation, toIssues(result.error, prefix));
  return ownDeep(result.data) as z.output<S>;
}

// The one place a merchant id is resolved and checked, for every call that sends `Merchant-Id`
// and every follow that reads the merchant side: in core, the floor below both the resources and
// the follow room, as both read it; here, beside parseRequest, as both check a call's input.

/** The issue of a merchant id that breaks the rule (1 to 255 visible ASCII characters), if any. */
export function merchantIdIssue(
  value: unknown,
  field = 'merchantId',
  whose?: string,
): ValidationIssue | undefined {
  if (typeof value === 'string' && MERCHANT_ID_PATTERN.test(value)) return undefined;
  const rule = MERCHANT_ID_RULE;
  return { field, message: whose === undefined ? rule : `${rule} (${whose})` };
}

/**
 * The merchant a call is for: `given`, else the client's `fallback`, with the issue when it is
 * missing or breaks the rule. `where` says how a caller passes it ("in the call", "with the
 * payment"), for the message.
 */
export function merchantIdOf(
  given: unknown,
  fallback: string | undefined,
  where = 'in the call',
): { merchantId: string; issue?: undefined } | { merchantId?: undefined; issue: ValidationIssue } {
  const id = given ?? fallback;
  if (id === undefined || id === '') {
    return {
      issue: {
        field: 'merchantId',
        message: `is required: pass merchantId ${where} or set it on the client`,
      },
    };
  }
  const issue = merchantIdIssue(id, 'merchantId', given === undefined ? "the client's" : undefined);
  return issue ? { issue } : { merchantId: id as string };
}

/**
 * `merchantIdOf` for a call: the merchant id, or a `RequestValidationError` naming `merchantId`
 * (nothing is sent).
 */
export function resolveMerchantId(
  operation: string,
  given: unknown,
  fallback: string | undefined,
  where = 'in the call',
): string {
  const { merchantId, issue } = merchantIdOf(given, fallback, where);
  if (issue) throw new RequestValidationError(operation, [issue]);
  return merchantId;
}
