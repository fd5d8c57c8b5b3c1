import { bounded } from '../safety/bounded';
import { clip } from '../safety/redact';

/** A problem with one field of a request, in the service's own shape. */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `settlements.3.asset`. */
  field: string;
  message: string;
}

/** The base of every error this SDK throws. `instanceof MerchantGatewayError` catches them all. */
export class MerchantGatewayError extends Error {
  override readonly name: string = 'MerchantGatewayError';
  /**
   * The Idempotency-Key the failed call sent (yours or the one generated for it); undefined for
   * calls that send none. Repeat the call with `{ idempotencyKey }` set to it and the service
   * answers with the original result instead of acting twice.
   */
  readonly idempotencyKey?: string;

  /**
   * What `JSON.stringify(error)` gives: `name`, `message` and every public field (`code`,
   * `status`, `requestId`, `issues`, `idempotencyKey`, `details`, …), already scrubbed of the
   * client's keys, and cut to a bounded depth and size so it never throws, whatever the body.
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key in out || value === undefined) continue;
      out[key] = bounded(value);
    }
    if (this.cause !== undefined) out.cause = bounded(this.cause);
    return out;
  }
}

/** The client was configured wrongly (auth scheme, base URL, browser guard). Thrown by the constructor. */
export class ConfigurationError extends MerchantGatewayError {
  override readonly name: string = 'ConfigurationError';
}

function listIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
}

/** Bad input, caught before any request was sent. Nothing reached the service. */
export class RequestValidationError extends MerchantGatewayError {
  override readonly name: string = 'RequestValidationError';
  readonly issues: ValidationIssue[];

  constructor(operation: string, issues: ValidationIssue[]) {
    super(clip(`${operation}: invalid request: ${listIssues(issues)}`));
    this.issues = issues;
  }
}

// A 2xx to a state-changing call is the service saying it acted: repeating blindly could act twice.
function actedNote(init: {
  status: number;
  changesState?: boolean | undefined;
  idempotencyKey?: string | undefined;
}): string {
  if (init.changesState !== true) return '';
  const acted = `. The service acted on this request (it answered ${init.status})`;
  return init.idempotencyKey === undefined
    ? `${acted}: read its current state before repeating it`
    : `${acted}: repeat the call with the same idempotencyKey "${init.idempotencyKey}" to get its result`;
}

/** A 2xx response whose body is not JSON or does not match the expected shape. */
export class ResponseValidationError extends MerchantGatewayError {
  override readonly name: string = 'ResponseValidationError';
  readonly issues: ValidationIssue[];
  /** The parsed body, or the raw text when it was not JSON. */
  readonly body: unknown;
  readonly status: number;
  readonly requestId?: string;

  constructor(
    request: string,
    init: {
      issues: ValidationIssue[];
      body: unknown;
      status: number;
      requestId?: string | undefined;
      /** The request changed state (POST, PUT, PATCH, DELETE): a 2xx means the service acted. */
      changesState?: boolean | undefined;
      idempotencyKey?: string | undefined;
    },
  ) {
    super(
      clip(
        `${request} → ${init.status}: unexpected response body: ${listIssues(init.issues)}${actedNote(init)}`,
      ),
    );
    this.issues = init.issues;
    this.body = init.body;
    this.status = init.status;
    if (init.requestId !== undefined) this.requestId = init.requestId;
  }
}

/**
 * A 2xx body longer than the client's `maxResponseBytes` (decoded bytes): the SDK stopped reading
 * it and cancelled the rest. `body` is undefined.
 */
export class ResponseTooLargeError extends ResponseValidationError {
  override readonly name: string = 'ResponseTooLargeError';
  /** The limit that was exceeded, in bytes. */
  readonly maxBytes: number;

  constructor(
    request: string,
    init: { status: number; maxBytes: number; requestId?: string | undefined },
  ) {
    super(request, {
      issues: [{ field: '', message: `body is larger than maxResponseBytes (${init.maxBytes})` }],
      body: undefined,
      status: init.status,
      requestId: init.requestId,
    });
    this.maxBytes = init.maxBytes;
  }
}

/**
 * No response arrived: the connection failed, was reset, or DNS did not resolve. Once a call has
 * no attempt left, its message says how many attempts were made in how long
 * (`GET /v1/merchants/m_1: after 3 attempts in 1503 ms: connection failed: fetch failed`).
 */
export class ConnectionError extends MerchantGatewayError {
  override readonly name: string = 'ConnectionError';
  /** The request's method, e.g. `GET`; set on what a call rejects with. */
  declare readonly method?: string;
  /** The request's path, without the base URL or query; set on what a call rejects with. */
  declare readonly path?: string;
  /** Attempts made, the first included; set on what a call rejects with. */
  declare readonly attempts?: number;
  /** Milliseconds from the call's start to its last failure, retry waits included. */
  declare readonly elapsedMs?: number;
}

/** One attempt ran past `timeoutMs` (connecting, waiting or reading the body). */
export class TimeoutError extends ConnectionError {
  override readonly name: string = 'TimeoutError';
}

/** A list's service handed back a cursor it had already given in this iteration: following it would loop forever. */
export class PaginationError extends MerchantGatewayError {
  override readonly name: string = 'PaginationError';
  /** The cursor that came back a second time. */
  readonly cursor: string;

  constructor(message: string, cursor: string) {
    super(message);
    this.cursor = cursor;
  }
}

// An inline type import keeps this block appended without touching the file's head.
type PaymentStatusResult = import('../../schemas/payment-status').PaymentStatusResult;

/**
 * `payments.waitForFinal` or `payments.watch` ran out of time before the payment was final.
 * `cause` is the failure of the last read when it failed (a `ConnectionError`, a `TimeoutError`,
 * a `RateLimitedError` or a 5xx `ServerError`): the service was not answering, rather than the
 * payment not moving.
 */
export class PollTimeoutError extends MerchantGatewayError {
  override readonly name: string = 'PollTimeoutError';
  /** The payment that was followed. */
  readonly paymentId: string;
  /** The last status read before time ran out; undefined when no read completed. */
  readonly lastStatus: PaymentStatusResult | undefined;

  constructor(
    operation: string,
    paymentId: string,
    waitedMs: number,
    lastStatus: PaymentStatusResult | undefined,
    cause?: Error,
  ) {
    const last =
      lastStatus === undefined ? 'no status read yet' : `last status: ${lastStatus.status}`;
    super(
      `${operation}: payment ${paymentId} not final after ${waitedMs} ms (${last})`,
      cause === undefined ? undefined : { cause },
    );
    this.paymentId = paymentId;
    this.lastStatus = lastStatus;
  }
}
