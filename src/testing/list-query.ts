import { CAIP2_PATTERN, isIsoDateTime, REFERENCE_FILTER_PATTERN } from '../schemas/primitives';
import { type Issue, ServiceError, validationError } from './http';
import { LIST_STATUSES, PAYMENT_STATUSES, type PaymentStatus } from './records';

/** Both lists' query, under one set of names. */
export interface ListQuery {
  /** Epoch ms, inclusive. */
  start: number | undefined;
  /** Epoch ms, exclusive. */
  end: number | undefined;
  statuses: PaymentStatus[] | undefined;
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
export function parseListQuery(params: URLSearchParams, kind: ListKind): ListQuery {
  const names = NAMES[kind];
  const issues: Issue[] = [];
  const start = readDate(params, names.start, issues);
  const end = readDate(params, names.end, issues);
  if (start !== undefined && end !== undefined && end < start) {
    issues.push({ field: names.end, message: `must not be before ${names.start}` });
  }
  const statuses = readAll(params, 'status');
  // The replacement lists also filter on `cancelled` (2026-02-19); the deprecated one does not.
  const known: readonly string[] = kind === 'legacy' ? LIST_STATUSES : PAYMENT_STATUSES;
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
    statuses: statuses as PaymentStatus[] | undefined,
    tokens: readAll(params, names.token),
    networks,
    referenceId: kind === 'payments' ? referenceId : undefined,
    sortBy: readEnum(params, names.sortBy, ['date', 'amount'] as const, 'date'),
    sortDir: readEnum(params, names.sortDir, ['asc', 'desc'] as const, 'desc'),
    cursor: params.get('cursor') ?? undefined,
    limit,
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
  return isoToMs(value);
}

function readLimit(params: URLSearchParams, issues: Issue[]): number {
  const value = params.get('limit');
  if (value === null) return 20;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= 200)) {
    issues.push({ field: 'limit', message: 'must be an integer from 1 to 200' });
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

const ISO_PARTS =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/;

/** Epoch ms of a date-time `isIsoDateTime` accepted (Date.parse is lax about these forms). */
function isoToMs(value: string): number {
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = ISO_PARTS.exec(value) ?? [];
  const utc = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s ?? 0),
    Number((frac ?? '0').padEnd(3, '0').slice(0, 3)),
  );
  const offset = sign === undefined ? 0 : (Number(oh) * 60 + Number(om)) * 60_000;
  return sign === '-' ? utc + offset : utc - offset;
}
