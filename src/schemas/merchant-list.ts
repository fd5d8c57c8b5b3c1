import * as z from 'zod/mini';
import {
  booleanField,
  exact,
  numberField,
  oneOf,
  responseObject,
  stringField,
  text,
} from './common';
import { MerchantSchema } from './merchants';

/** The merchant statuses `merchants.list` filters on. */
export const MERCHANT_LIST_STATUSES = ['active', 'inactive', 'suspended'] as const;

const LIST_LIMIT_RULE = 'must be an integer from 1 to 100';

/** Query of `merchants.list`. Every field is optional. */
export const MerchantListParamsSchema = exact({
  /** Only merchants in this status: `active`, `inactive` or `suspended` (one value). */
  status: z.optional(oneOf(MERCHANT_LIST_STATUSES, 'must be one of active, inactive, suspended')),
  /** Case-insensitive match on the merchant's name or id: 1 to 256 characters. */
  search: z.optional(text(1, 256)),
  /** Items per page, 1 to 100. @default the service's: 20 */
  limit: z.optional(
    z
      .number({ error: LIST_LIMIT_RULE })
      .check(z.refine((n) => Number.isInteger(n) && n >= 1 && n <= 100, LIST_LIMIT_RULE)),
  ),
  /** Start after this cursor (a page's `nextCursor`). */
  cursor: z.optional(
    z.string({ error: 'must be a string' }).check(z.minLength(1, 'must not be empty')),
  ),
});
/** Query of `merchants.list`: `status`, `search`, `limit` (1 to 100) and `cursor`, all optional. */
export type MerchantListParams = z.input<typeof MerchantListParamsSchema>;

/** A page of `merchants.list`: its merchants, how many match in all, and the next page's cursor. */
export const MerchantsPageSchema = responseObject({
  /** This page's merchants (no settlements: read one with `merchants.get` for those). */
  merchants: z.array(MerchantSchema),
  /** How many merchants match the filters, over every page. */
  totalCount: numberField,
  /** Null on the last page. */
  nextCursor: z.nullable(stringField),
});
/** A page of `merchants.list`: `merchants`, `totalCount` and `nextCursor`. */
export interface MerchantsPage extends z.output<typeof MerchantsPageSchema> {}

/** What `merchants.delete` returns. */
export const MerchantDeletionSchema = responseObject({
  id: stringField,
  /** True once the merchant is deleted (also when it already was). */
  deleted: booleanField,
});
/** What `merchants.delete` returns: the merchant's `id` and `deleted`. */
export interface MerchantDeletion extends z.output<typeof MerchantDeletionSchema> {}
