import { jsonSafeCopy } from '../safety/json-safe-copy';
import { clip } from '../safety/redact';

/** A problem with one field of a request, in the service's own shape. */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `settlements.3.asset`. */
  field: string;
  message: string;
}

/**
 * Where an error lists the classes it belongs to (its own and each ancestor's brand). On
 * `Symbol.for`, so every copy of the package (each entry's bundle, ESM beside CommonJS, two
 * versions) reads the same key.
 */
const FAMILY: unique symbol = Symbol.for('merchant-gateway.error');

/**
 * Each class of the family names its brand in a static `'~brand'` field (a plain string key, so a
 * bundler still drops the classes a program does not use); a subclass without one of its own,
 * like a user's, is judged by its prototype chain.
 */
type Branded = { '~brand'?: string };

/** The brands of `value`, when it is an error of this family from any copy of the package. */
function brandsOf(value: unknown): readonly string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const brands = (value as { [FAMILY]?: unknown })[FAMILY];
  return Array.isArray(brands) ? brands : undefined;
}

/** Whether `value` is an instance of `asked`: by brand when the class has one of its own. */
function isMember(asked: Branded, value: unknown): boolean {
  if (!Object.hasOwn(asked, '~brand'))
    return Function.prototype[Symbol.hasInstance].call(asked, value);
  return brandsOf(value)?.includes(asked['~brand'] as string) === true;
}

/**
 * The base of every error this SDK throws. `instanceof MerchantGatewayError` catches them all,
 * whichever entry (`merchant-gateway`, `/buyer`, `/webhooks`), format or copy of the package threw
 * it: `instanceof` reads a brand on `Symbol.for`, not the class's identity.
 *
 * @example
 * ```ts
 * import { MerchantGatewayError } from 'merchant-gateway';
 * import { WebhookVerificationError } from 'merchant-gateway/webhooks';
 *
 * const error: unknown = new WebhookVerificationError('invalid_payload', 'not JSON');
 * console.log(error instanceof MerchantGatewayError); // true
 * ```
 */
export class MerchantGatewayError extends Error {
  /** @internal */
  static readonly '~brand': string = 'MerchantGatewayError';

  /**
   * True for an error of this class or a subclass, from any copy of the package: each error
   * carries its classes' brands. A subclass of your own (no brand) is judged the ordinary way.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: inherited, `this` is the class on instanceof's right
    return isMember(this, value);
  }

  override readonly name: string = 'MerchantGatewayError';
  /**
   * The Idempotency-Key the failed call sent (yours or the one generated for it); undefined for
   * calls that send none. Repeat the call with `{ idempotencyKey }` set to it and the service
   * answers with the original result instead of acting twice.
   */
  readonly idempotencyKey?: string;

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    // The brands of new.target and each ancestor that has one; hidden from JSON and inspect.
    const brands: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function'; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, '~brand')) brands.push((c as Branded)['~brand'] as string);
    }
    Object.defineProperty(this, FAMILY, { value: Object.freeze(brands) });
  }

  /**
   * What `JSON.stringify(error)` gives: `name`, `message` and every public field (`code`,
   * `status`, `requestId`, `issues`, `idempotencyKey`, `details`, …), already scrubbed of the
   * client's keys, and cut to a bounded depth and size so it never throws, whatever the body.
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key in out || value === undefined) continue;
      out[key] = jsonSafeCopy(value);
    }
    if (this.cause !== undefined) out.cause = jsonSafeCopy(this.cause);
    return out;
  }
}

/** The client was configured wrongly (auth scheme, base URL, browser guard). Thrown by the constructor. */
export class ConfigurationError extends MerchantGatewayError {
  /** @internal */
  static override readonly '~brand': string = 'ConfigurationError';
  override readonly name: string = 'ConfigurationError';
}

function listIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
}

/** Bad input, caught before any request was sent. Nothing reached the service. */
export class RequestValidationError extends MerchantGatewayError {
  /** @internal */
  static override readonly '~brand': string = 'RequestValidationError';
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
  /** @internal */
  static override readonly '~brand': string = 'ResponseValidationError';
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
  /** @internal */
  static override readonly '~brand': string = 'ResponseTooLargeError';
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
  /** @internal */
  static override readonly '~brand': string = 'ConnectionError';
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
  /** @internal */
  static override readonly '~brand': string = 'TimeoutError';
  override readonly name: string = 'TimeoutError';
}

/** A list's service handed back a cursor it had already given in this iteration: following it would loop forever. */
export class PaginationError extends MerchantGatewayError {
  /** @internal */
  static override readonly '~brand': string = 'PaginationError';
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
  /** @internal */
  static override readonly '~brand': string = 'PollTimeoutError';
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
