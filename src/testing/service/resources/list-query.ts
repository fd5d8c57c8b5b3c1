import { isIsoDateTime, isoDateTimeToMs } from '../../../rules/dates';
import {
  CAIP2_PATTERN,
  isListLimit,
  LIST_LIMIT,
  LIST_SORT_BY,
  LIST_SORT_DIR,
  REFERENCE_FILTER_PATTERN,
} from '../../../rules/lists';
import {
  type KnownPaymentStatus,
  LEGACY_LIST_PAYMENT_STATUSES,
  PAYMENT_STATUSES,
} from '../../../rules/payments';
import type { ApiVersion } from '../http/auth';
import { type Issue, ServiceError, validationError } from '../http/responses';
import type { ListStatuses } from './list-items';

/** Both lists' query, under one set of names. */
export interface ListQuery {
  /** Epoch ms, inclusive. */
  start: number | undefined;
  /** Epoch ms, exclusive. */
  end: number | undefined;
  statuses: KnownPaymentStatus[] | undefined;
  /** Token symbols (any case) or CAIP-19 asset ids. */
  tokens: string[] | undefined;
  /** CAIP-2 chain ids, or (legacy list) bare chain references such as `8453`. */
  networks: string[] | undefined;
  /** Case-insensitive substring of the reference id (replacement list only). */
  referenceId: string | undefined;
  sortBy: 'date' | 'amount';
  sortDir: 'asc' | 'desc';
  cursor: string | undefined;
  limit: number;
  /** Whether the list shows and filters on `cancelled` (see `ListStatuses`). */
  statusSet: ListStatuses;
}

export type ListKind = 'payments' | 'legacy';

const NAMES = {
  payments: {
    start: 'startTs',
    end: 'endTs',
    token: 'token_symbol',
    sortBy: 'sortBy',
    sortDir: 'sortDir',
  },
  legacy: {
    start: 'start_ts',
    end: 'end_ts',
    token: 'asset',
    sortBy: 'sort_by',
    sortDir: 'sort_dir',
  },
} as const;

/**
 * Reads a list query. Malformed values are 400 `params_validation` with one issue per field;
 * an unknown sort is 400 `invalid_params` (as the legacy list documents, and the same on both).
 */
export function parseListQuery(
  params: URLSearchParams,
  kind: ListKind,
  version?: ApiVersion,
): ListQuery {
  const names = NAMES[kind];
  const issues: Issue[] = [];
  const start = readDate(params, names.start, issues);
  const end = readDate(params, names.end, issues);
  if (start !== undefined && end !== undefined && end < start) {
    issues.push({ field: names.end, message: `must not be before ${names.start}` });
  }
  const statuses = readAll(params, 'status');
  // The replacement lists also filter on `cancelled` (2026-02-19), unless the client pinned
  // 2026-02-18; the deprecated one never does.
  const statusSet: ListStatuses = kind === 'legacy' || version === '2026-02-18' ? 'five' : 'six';
  const known: readonly string[] =
    statusSet === 'five' ? LEGACY_LIST_PAYMENT_STATUSES : PAYMENT_STATUSES;
  for (const status of statuses ?? []) {
    if (!known.includes(status)) {
      issues.push({ field: 'status', message: `must be one of ${known.join(', ')}` });
    }
  }
  const networks = readAll(params, 'network')?.flatMap((value) => value.split(','));
  if (kind === 'payments' && networks?.some((id) => !CAIP2_PATTERN.test(id))) {
    issues.push({ field: 'network', message: 'must be comma-separated CAIP-2 chain ids' });
  }
  const referenceId = params.get('referenceId') ?? undefined;
  if (kind === 'payments' && referenceId !== undefined) {
    if (!REFERENCE_FILTER_PATTERN.test(referenceId)) {
      issues.push({
        field: 'referenceId',
        message: 'must be 3 to 35 of A-Z a-z 0-9 space / : . , + -',
      });
    }
  }
  const limit = readLimit(params, issues);
  if (issues.length > 0) throw validationError(issues);
  return {
    start,
    end,
    statuses: statuses as KnownPaymentStatus[] | undefined,
    tokens: readAll(params, names.token),
    networks,
    referenceId: kind === 'payments' ? referenceId : undefined,
    sortBy: readEnum(params, names.sortBy, LIST_SORT_BY, 'date'),
    sortDir: readEnum(params, names.sortDir, LIST_SORT_DIR, 'desc'),
    cursor: params.get('cursor') ?? undefined,
    limit,
    statusSet,
  };
}

function readAll(params: URLSearchParams, name: string): string[] | undefined {
  const values = params.getAll(name);
  return values.length > 0 ? values : undefined;
}

function readDate(params: URLSearchParams, name: string, issues: Issue[]): number | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  if (!isIsoDateTime(value)) {
    issues.push({ field: name, message: 'must be an ISO 8601 date-time with Z or an offset' });
    return undefined;
  }
  return isoDateTimeToMs(value);
}

function readLimit(params: URLSearchParams, issues: Issue[]): number {
  const value = params.get('limit');
  if (value === null) return 20;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!isListLimit(limit)) {
    issues.push({
      field: 'limit',
      message: `must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`,
    });
  }
  return limit;
}

function readEnum<T extends string>(
  params: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = params.get(name);
  if (value === null) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ServiceError(400, 'invalid_params', `${name} must be one of ${allowed.join(', ')}`, {
      details: { field: name, value },
    });
  }
  return value as T;
}
