/** Response and error helpers shared by every endpoint of the mock. */

export interface Issue {
  field: string;
  message: string;
}

/** An error response in the service's shape: `{ code, message, details?, issues? }`. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: {
      details?: Record<string, unknown>;
      issues?: Issue[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** 400 `params_validation` listing every field-level problem. */
export function validationError(issues: Issue[]): ServiceError {
  const message = issues.map((issue) => `${issue.field} ${issue.message}`).join('; ');
  return new ServiceError(400, 'params_validation', message, { issues });
}

/** What `handle` returns instead of a response when the connection is to be dropped. */
export interface NetworkError {
  readonly type: 'network-error';
}

export const NETWORK_ERROR: NetworkError = Object.freeze({ type: 'network-error' });

export function isNetworkError(value: Response | NetworkError): value is NetworkError {
  return !(value instanceof Response);
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function errorResponse(error: ServiceError, headers: Record<string, string> = {}): Response {
  const { details, issues } = error.extra;
  return json(
    error.status,
    {
      code: error.code,
      message: error.message,
      ...(details ? { details } : {}),
      ...(issues ? { issues } : {}),
    },
    { ...headers, ...error.extra.headers },
  );
}

/** Resolves after `ms`, or early when `signal` aborts (the client gave up: no one reads the answer). */
export function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** JSON with object keys sorted, so two bodies that differ only in key order compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
