import { canonicalJson, ServiceError } from '../http/responses';

/**
 * Keyset cursors: the sort key and id of the last item handed out, plus a hash of the query that
 * produced it. Items created or changed between pages never make a page repeat or skip one.
 */
export interface CursorPosition {
  key: bigint;
  id: string;
}

export function encodeCursor(position: CursorPosition, queryHash: string): string {
  const text = JSON.stringify({ k: position.key.toString(), i: position.id, h: queryHash });
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The position a cursor points after, or 400 `invalid_params` if it is malformed or from another query. */
export function decodeCursor(cursor: string, queryHash: string): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    throw invalidCursor('Cursor is malformed');
  }
  const { k, i, h } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof k !== 'string' || !/^\d+$/.test(k) || typeof i !== 'string') {
    throw invalidCursor('Cursor is malformed');
  }
  if (h !== queryHash) throw invalidCursor('Cursor belongs to a different query');
  return { key: BigInt(k), id: i };
}

/** FNV-1a of the canonical JSON of `value`, as 8 hex digits. */
export function hashQuery(value: unknown): string {
  const text = canonicalJson(value);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function invalidCursor(message: string): ServiceError {
  return new ServiceError(400, 'invalid_params', message, { details: { field: 'cursor' } });
}
