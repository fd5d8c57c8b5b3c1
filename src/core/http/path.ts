import { CONTROL_CHARACTER, ID_LENGTH } from '../../rules/ids';
import { codePointLength } from '../../rules/text';
import { RequestValidationError } from '../errors/base';

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * Why `value` cannot be an id in a path, or undefined when it can: the one rule `path` applies,
 * for callers that check an id before any path is built (the follower's `add`).
 */
export function pathIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value === '' || value === '.' || value === '..') return 'must not be empty, "." or ".."';
  // Checked before anything else reads it: a 10 MB id must not become a 10 MB URL.
  if (value.length > ID_LENGTH.max && codePointLength(value) > ID_LENGTH.max) {
    return `must be at most ${ID_LENGTH.max} characters`;
  }
  if (CONTROL_CHARACTER.test(value)) return 'must not contain control characters';
  return undefined;
}

/** A built path and what it was built from: spread into a RequestSpec (`...path(…)`). */
export interface Route {
  /** The encoded path, e.g. `/v1/payments/pay_1`. */
  path: string;
  /** The template it was built from, e.g. `/v1/payments/{paymentId}`: telemetry's `url.template`. */
  template: string;
  /** The `paymentId` parameter, when the template has one: telemetry's payment id. */
  paymentId?: string;
}

/**
 * Builds a request path from a template in the interface's own notation, percent-encoding every
 * parameter: `path('merchants.get', '/v1/merchants/{merchantId}', { merchantId })`. An empty id,
 * `.`, `..`, one with control characters or one longer than 255 characters is refused, so no
 * request can leave its intended path or carry an unbounded URL. Every method's ids pass here.
 */
export function path(operation: string, template: string, params: Record<string, string>): Route {
  const parts = partsOf(template);
  let built = parts[0] as string;
  const issues: { field: string; message: string }[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    const value: unknown = params[name];
    const problem = pathIdProblem(value);
    if (problem === undefined) {
      try {
        built += encodeURIComponent(value as string);
      } catch {
        issues.push({ field: name, message: 'must be well-formed Unicode' });
      }
    } else {
      issues.push({ field: name, message: problem });
    }
    built += parts[i + 1];
  }
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
  const route: Route = { path: built, template };
  // Own only: an inherited `paymentId` names no payment of this call.
  if (Object.hasOwn(params, 'paymentId')) route.paymentId = params.paymentId as string;
  return route;
}

/** Each template split once: literal, name, literal, … (a path is built on every call). */
const TEMPLATES = new Map<string, readonly string[]>();

function partsOf(template: string): readonly string[] {
  let parts = TEMPLATES.get(template);
  if (parts === undefined) {
    // split with a capture group keeps the names at the odd indexes.
    parts = template.split(PLACEHOLDER);
    TEMPLATES.set(template, parts);
  }
  return parts;
}
