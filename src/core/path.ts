import { RequestValidationError } from './errors';

const PLACEHOLDER = /\{(\w+)\}/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x1F\x7F]/;

/**
 * Builds a request path from a template in the interface's own notation, percent-encoding every
 * parameter: `path('merchants.get', '/v1/merchants/{merchantId}', { merchantId })`. An empty id,
 * `.`, `..` or one with control characters is refused, so no request can leave its intended path.
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
