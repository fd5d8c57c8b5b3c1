import type { MerchantRecord } from '../../state/records';
import type { RequestContext } from '../http/request-context';
import { type Issue, json, validationError } from '../http/responses';
import { type CursorPosition, decodeCursor, encodeCursor, hashQuery } from './cursor';
import { findMerchant, merchantJson } from './merchants';

const STATUSES = ['active', 'inactive', 'suspended'];

interface MerchantQuery {
  status: string | undefined;
  search: string | undefined;
  cursor: string | undefined;
  limit: number;
}

/** Reads `status`, `search`, `cursor` and `limit` (1 to 100, default 20), or 400 `params_validation`. */
function parseMerchantQuery(params: URLSearchParams): MerchantQuery {
  const issues: Issue[] = [];
  const status = params.get('status') ?? undefined;
  if (status !== undefined && !STATUSES.includes(status)) {
    issues.push({ field: 'status', message: `must be one of ${STATUSES.join(', ')}` });
  }
  const search = params.get('search') ?? undefined;
  if (search !== undefined && ([...search].length < 1 || [...search].length > 256)) {
    issues.push({ field: 'search', message: 'must be 1 to 256 characters' });
  }
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? 20 : /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
  if (!(limit >= 1 && limit <= 100)) {
    issues.push({ field: 'limit', message: 'must be an integer from 1 to 100' });
  }
  if (issues.length > 0) throw validationError(issues);
  return { status, search, cursor: params.get('cursor') ?? undefined, limit };
}

/**
 * GET /v1/merchants: the partner's merchants that are not deleted, newest first (creation time,
 * then id: a total order), with keyset cursors bound to the filters and `totalCount` over every
 * page.
 */
export function listMerchants(ctx: RequestContext): Response {
  const { cursor, limit, ...filters } = parseMerchantQuery(ctx.url.searchParams);
  const hash = hashQuery({ kind: 'merchants', ...filters });
  const needle = filters.search?.toLowerCase();
  const position = (m: MerchantRecord): CursorPosition => ({ key: BigInt(m.createdAt), id: m.id });
  const compare = (a: CursorPosition, b: CursorPosition) =>
    a.key > b.key ? -1 : a.key < b.key ? 1 : a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
  const all = [...ctx.store.merchants.values()]
    .filter(
      (m) =>
        m.deletedAt === undefined &&
        (filters.status === undefined || m.status === filters.status) &&
        (needle === undefined ||
          m.name.toLowerCase().includes(needle) ||
          m.id.toLowerCase().includes(needle)),
    )
    .sort((a, b) => compare(position(a), position(b)));
  let from = 0;
  if (cursor !== undefined) {
    const after = decodeCursor(cursor, hash);
    from = all.findIndex((m) => compare(position(m), after) > 0);
    if (from === -1) from = all.length;
  }
  const page = all.slice(from, from + limit);
  const last = page.at(-1);
  const more = from + limit < all.length;
  return json(200, {
    merchants: page.map(merchantJson),
    totalCount: all.length,
    nextCursor: more && last ? encodeCursor(position(last), hash) : null,
  });
}

/**
 * DELETE /v1/merchants/{merchantId}: a soft delete. The merchant leaves the merchant list, takes
 * no new payments and reads as 404 `not_found`; deleting it again answers 200 `deleted: true`.
 */
export function deleteMerchant(ctx: RequestContext): Response {
  const merchant = findMerchant(ctx, ctx.params[0], { deleted: true });
  merchant.deletedAt ??= ctx.now;
  return json(200, { id: merchant.id, deleted: true });
}
