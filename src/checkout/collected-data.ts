import { RequestValidationError } from '../core/errors/base';
import type { CollectData } from '../schemas/buyer';

/**
 * `submitInformation`'s values (field id → text) as the confirm's `collectedData.fields`: each a
 * string, every field the form marks required given. A bad one is a RequestValidationError.
 */
export function collectedFields(
  values: unknown,
  form: CollectData | null,
): { id: string; value: string }[] {
  const operation = 'checkout.submitInformation';
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new RequestValidationError(operation, [
      { field: 'values', message: 'must be an object of field id to text' },
    ]);
  }
  const given = values as Record<string, unknown>;
  const fields = Object.entries(given);
  const issues = fields
    .filter(([, value]) => typeof value !== 'string')
    .map(([id]) => ({ field: `values.${id}`, message: 'must be a string' }));
  for (const field of form?.fields ?? []) {
    const value = Object.hasOwn(given, field.id) ? given[field.id] : undefined;
    if (field.required && (typeof value !== 'string' || value.trim() === '')) {
      issues.push({ field: `values.${field.id}`, message: `is required (${field.name})` });
    }
  }
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
  return fields.map(([id, value]) => ({ id, value: value as string }));
}
