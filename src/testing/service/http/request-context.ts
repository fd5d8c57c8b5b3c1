import { IDEMPOTENCY_KEY_PATTERN } from '../../../rules/headers';
import type { Store } from '../../state/store';
import { canonicalJson, type Issue, json, ServiceError, validationError } from './responses';

/** Everything an endpoint needs to answer one request. */
export interface RequestContext {
  store: Store;
  request: Request;
  url: URL;
  /** The path from `/v1/` on. */
  path: string;
  /** Decoded path parameters, in order. */
  params: string[];
  /** The authenticated principal (scopes idempotency keys). */
  principal: string;
  /** `Date.now()` when the request arrived. */
  now: number;
  /** The body's text ('' when none). */
  bodyText: string;
}

/** The request body as a JSON object, or 400 `params_validation`. */
export function jsonObjectBody(ctx: RequestContext): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(ctx.bodyText);
  } catch {
    throw validationError([{ field: 'body', message: 'must be valid JSON' }]);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
  }
  return body as Record<string, unknown>;
}

export function throwIfIssues(issues: Issue[]): void {
  if (issues.length > 0) throw validationError(issues);
}

/** A successful answer before it becomes a Response, so it can be stored for replay. */
export interface Result {
  status: number;
  body: unknown;
}

/**
 * Runs `create` at most once per Idempotency-Key: a retry with the same key and the same request
 * replays the stored answer, the same key with a different request is 409 `idempotency_conflict`.
 * Keys are scoped to the principal and the endpoint (method and path).
 */
export function idempotent(
  ctx: RequestContext,
  options: { required: boolean; request: unknown },
  create: () => Result,
): Response {
  const key = ctx.request.headers.get('idempotency-key');
  if (key === null || key === '') {
    if (options.required) {
      throw new ServiceError(400, 'missing_idempotency_key', 'Idempotency-Key header is required');
    }
    const result = create();
    return json(result.status, result.body);
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw validationError([
      { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  const slot = `${ctx.principal} ${ctx.request.method} ${ctx.path} ${key}`;
  const fingerprint = canonicalJson(options.request);
  const stored = ctx.store.idempotency.get(slot);
  if (stored) {
    if (stored.fingerprint !== fingerprint) {
      throw new ServiceError(
        409,
        'idempotency_conflict',
        'This Idempotency-Key was already used with a different request',
        { details: { idempotencyKey: key } },
      );
    }
    return json(stored.status, stored.body, { 'idempotent-replayed': 'true' });
  }
  const result = create();
  ctx.store.idempotency.set(slot, { fingerprint, ...result });
  return json(result.status, result.body);
}
