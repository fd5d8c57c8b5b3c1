/** The service's rules for the two payment lists' queries, shared by the SDK and the mock. */
import type { Bounds } from './text';

/** `limit`: items per page. */
export const LIST_LIMIT: Bounds = { min: 1, max: 200 };

/** Whether `n` is a page size the lists accept: an integer within `LIST_LIMIT`. */
export function isListLimit(n: number): boolean {
  return Number.isInteger(n) && n >= LIST_LIMIT.min && n <= LIST_LIMIT.max;
}

/** `sortBy` / `sort_by` values; the service's default is the first. */
export const LIST_SORT_BY = ['date', 'amount'] as const;
/** `sortDir` / `sort_dir` values; the service's default is the last (newest first). */
export const LIST_SORT_DIR = ['asc', 'desc'] as const;

/** CAIP-2 chain id, as used in the replacement list's `network` filter. */
export const CAIP2_PATTERN = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;

/** The replacement list's `network` filter: comma-separated CAIP-2 chain ids. */
export function isNetworkFilter(value: string): boolean {
  return value.split(',').every((id) => CAIP2_PATTERN.test(id));
}

/** Replacement list `referenceId` filter: 3 to 35 characters of this alphabet. */
export const REFERENCE_FILTER_PATTERN = /^[A-Za-z0-9 /:.,+-]{3,35}$/;
