import { ID_LENGTH } from '../rules/ids';
import { codePointLength } from '../rules/text';
import { RequestValidationError } from './errors';

const PLACEHOLDER = /\{(\w+)\}/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x1F\x7F]/;

/**
 * Builds a request path from a template in the interface's own notation, percent-encoding every
 * parameter: `path('merchants.get', '/v1/merchants/{merchantId}', { merchantId })`. An empty id,
 * `.`, `..`, one with control characters or one longer than 255 characters is refused, so no
 * request can leave its intended path or carry an unbounded URL. Every method's ids pass here.
 */
export function path(operation: string, template: string, params: Record<string, string>): string {
  const issues: { field: string; message: string }[] = [];
  const built = template.replace(PLACEHOLDER, (_, name: string) => {
    const value: unknown = params[name];
    if (typeof value !== 'string') {
      issues.push({ field: name, message: 'must be a string' });
      return '';
    }
    if (value === '' || value === '.' || value === '..') {
      issues.push({ field: name, message: 'must not be empty, "." or ".."' });
    } else if (value.length > ID_LENGTH.max && codePointLength(value) > ID_LENGTH.max) {
      // Checked before anything else reads it: a 10 MB id must not become a 10 MB URL.
      issues.push({ field: name, message: `must be at most ${ID_LENGTH.max} characters` });
      return '';
    } else if (CONTROL.test(value)) {
      issues.push({ field: name, message: 'must not contain control characters' });
    }
    try {
      return encodeURIComponent(value);
    } catch {
      issues.push({ field: name, message: 'must be well-formed Unicode' });
      return '';
    }
  });
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
  return built;
}
