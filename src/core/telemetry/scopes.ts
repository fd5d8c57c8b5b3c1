/**
 * The spans and instruments of the `telemetry` option, loaded on first use (a chunk of its own,
 * outside the main entry's first load): see option.ts for the design.
 */

import type {
  FollowerTelemetry,
  TelemetryAttributes,
  TelemetryContext,
  TelemetryHistogram,
  TelemetrySetup,
  TelemetrySpan,
  TelemetryTracer,
  TelemetryUpDownCounter,
  TelemetryValue,
  TracedCall,
} from './api';
import { activeContext, ambient, manager, SPAN_KEY } from './api';

/** A context of our own when no API is loaded: what a tracer reads off one is the parent span. */
class Root implements TelemetryContext {
  readonly #values: Map<symbol, unknown>;
  constructor(values = new Map<symbol, unknown>()) {
    this.#values = values;
  }
  getValue(key: symbol): unknown {
    return this.#values.get(key);
  }
  setValue(key: symbol, value: unknown): TelemetryContext {
    return new Root(new Map(this.#values).set(key, value));
  }
}

const PAYMENT = 'merchant_gateway.payment.id';
const STATUS = 'merchant_gateway.payment.status';
const ERROR_TYPE = 'error.type';

function errorType(error: unknown): string {
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? String(status) : ((error as Error)?.name ?? 'Error');
}

/** `attributes` with the client's keys, in any encoding, replaced: an id may be anything. */
function scrubbed(telemetry: Telemetry, attributes: TelemetryAttributes): TelemetryAttributes {
  const out: TelemetryAttributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    out[key] = typeof value === 'string' ? telemetry.redactor.string(value) : value;
  }
  return out;
}

/** A route's attempt span name (`POST /v1/payments`) and attributes, scrubbed. */
interface RouteSpan {
  readonly name: string;
  readonly attributes: TelemetryAttributes;
}

/** The most routes a client keeps scrubbed attributes for: the SDK's own templates are fewer. */
const MAX_ROUTES = 256;

/** A span (when traced) and the context that makes it the parent of what runs within it. */
class Scope {
  readonly span: TelemetrySpan | undefined;
  readonly context: TelemetryContext | undefined;
  constructor(
    readonly telemetry: Telemetry,
    name: string,
    kind: number,
    attributes: TelemetryAttributes,
    parent: TelemetryContext = activeContext() ?? new Root(),
    /** The attributes are already scrubbed (an attempt's, scrubbed once per call). */
    clean = false,
  ) {
    this.span = telemetry.tracer?.startSpan(
      name,
      { kind, attributes: clean ? attributes : scrubbed(telemetry, attributes) },
      parent,
    );
    this.context = this.span && parent.setValue(SPAN_KEY, this.span);
  }

  set(key: string, value: TelemetryValue | undefined): void {
    if (value !== undefined) {
      this.span?.setAttribute(
        key,
        typeof value === 'string' ? this.telemetry.redactor.string(value) : value,
      );
    }
  }

  /** Runs `fn` with this scope as the parent of calls it makes and, for the user's context manager, as the active span. */
  within<R>(fn: () => R): R {
    const outer = ambient.scope;
    ambient.scope = this;
    try {
      const cm = this.context && manager();
      return cm && this.context ? cm.with(this.context, fn) : fn();
    } finally {
      ambient.scope = outer;
    }
  }

  end(error?: unknown): void {
    if (error !== undefined) {
      this.set(ERROR_TYPE, errorType(error));
      const message = error instanceof Error ? error.message : undefined;
      this.span?.setStatus({
        code: 2,
        ...(message && { message: this.telemetry.redactor.string(message) }),
      });
    }
    this.span?.end();
  }
}

/** One SDK call: its INTERNAL span and, under it, one CLIENT span per attempt. */
export class CallScope extends Scope {
  /** The route's attributes, which metrics carry too: no payment id (one series per route). */
  readonly #route: RouteSpan;
  /** Every attempt's span attributes, `url.full` included: built and scrubbed once per call. */
  readonly #attempt: TelemetryAttributes;
  readonly #held: boolean;
  /** The payment id the path names, as given and as scrubbed. */
  readonly #paymentId: [given: string, scrubbed: string] | undefined;

  constructor(telemetry: Telemetry, call: TracedCall, parent: TelemetryContext | undefined) {
    const { redactor } = telemetry;
    const id = call.paymentId === undefined ? undefined : redactor.string(call.paymentId);
    super(telemetry, call.operation, 0, { [PAYMENT]: id }, parent ?? new Root(), true);
    this.#paymentId = id === undefined ? undefined : [call.paymentId as string, id];
    this.#held = (call.extraTimeoutMs ?? 0) > 0;
    this.#route = telemetry.route(call.method, call.template ?? call.path);
    const url = `${telemetry.baseUrl}${call.path}${call.query?.size ? `?${call.query}` : ''}`;
    this.#attempt = { ...this.#route.attributes, [PAYMENT]: id, 'url.full': redactor.string(url) };
  }

  /** Runs one attempt under a CLIENT span of its own, and measures it. */
  async attempt<R>(
    n: number,
    run: (n: number, scope: AttemptScope) => Promise<R & { response: Response }>,
  ): Promise<R> {
    const { attributes, name } = this.#route;
    const scope = new AttemptScope(
      this.telemetry,
      name,
      2,
      n > 1 ? { ...this.#attempt, 'http.request.resend_count': n - 1 } : this.#attempt,
      this.context ?? activeContext() ?? new Root(),
      true,
    );
    scope.call = this;
    const started = performance.now();
    let status: number | undefined;
    let error: unknown;
    try {
      const result = await run(n, scope);
      status = result.response.status;
      return result;
    } catch (thrown) {
      error = thrown;
      const code = (thrown as { status?: unknown }).status;
      if (typeof code === 'number') status = code;
      throw thrown;
    } finally {
      scope.set('http.response.status_code', status);
      scope.end(error);
      const measured: TelemetryAttributes = { ...attributes, 'http.response.status_code': status };
      if (error !== undefined) measured[ERROR_TYPE] = errorType(error);
      if (this.#held) measured['merchant_gateway.held_read'] = true;
      if (status === undefined) delete measured['http.response.status_code'];
      this.telemetry.duration?.record((performance.now() - started) / 1000, measured);
    }
  }

  /** Ends the call's span; the id of a payment it created is recorded on it. */
  done(data: unknown): void {
    const id = (data as { paymentId?: unknown } | null)?.paymentId;
    if (typeof id === 'string') {
      // The id the path named is already scrubbed; another (a created payment's) is scrubbed here.
      const known = this.#paymentId;
      if (known !== undefined && known[0] === id) this.span?.setAttribute(PAYMENT, known[1]);
      else this.set(PAYMENT, id);
    }
    this.end();
  }
}

/** One HTTP attempt: its span's context goes out as `traceparent`. */
export class AttemptScope extends Scope {
  call: CallScope | undefined;

  /** Adds `traceparent` (and `tracestate`) unless one is set, and the key when recorded. */
  inject(headers: Headers): void {
    const key = this.telemetry.recordKeys ? headers.get('idempotency-key') : null;
    if (key !== null) {
      this.set('merchant_gateway.idempotency_key', key);
      this.call?.set('merchant_gateway.idempotency_key', key);
    }
    const ids = this.span?.spanContext();
    if (ids === undefined || /^0*$/.test(ids.traceId) || headers.has('traceparent')) return;
    headers.set(
      'traceparent',
      `00-${ids.traceId}-${ids.spanId}-${(ids.traceFlags & 255).toString(16).padStart(2, '0')}`,
    );
    const state = ids.traceState?.serialize();
    if (state) headers.set('tracestate', state);
  }
}

/** A client's telemetry: its tracer and instruments, made once, when the chunk loads. */
export class Telemetry {
  readonly tracer: TelemetryTracer | undefined;
  readonly duration: TelemetryHistogram | undefined;
  readonly #follows: TelemetryHistogram | undefined;
  readonly #followed: TelemetryUpDownCounter | undefined;
  readonly recordKeys: boolean;
  readonly #routes = new Map<string, RouteSpan>();
  readonly host: string;
  readonly port: number;

  readonly baseUrl: string;
  readonly redactor: TelemetrySetup['redactor'];

  constructor(handle: TelemetrySetup) {
    const { options, baseUrl, version } = handle;
    const { tracerProvider, meterProvider } = options;
    this.baseUrl = baseUrl;
    this.redactor = handle.redactor;
    this.tracer = tracerProvider?.getTracer('merchant-gateway', version);
    const meter = meterProvider?.getMeter('merchant-gateway', version);
    const seconds = (name: string, description: string, buckets: number[]) =>
      meter?.createHistogram(name, {
        description,
        unit: 's',
        advice: { explicitBucketBoundaries: buckets },
      });
    this.duration = seconds(
      'http.client.request.duration',
      'Duration of HTTP client requests.',
      [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30],
    );
    this.#follows = seconds(
      'merchant_gateway.payment.follow.duration',
      'Time from the start of following a payment to its final status.',
      [1, 5, 10, 30, 60, 120, 300, 600, 900, 1800, 3600],
    );
    this.#followed = meter?.createUpDownCounter('merchant_gateway.follower.payments', {
      description: 'Payments a follower holds.',
      unit: '{payment}',
    });
    this.recordKeys = options.recordIdempotencyKeys === true;
    const url = new URL(baseUrl);
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  }

  /**
   * A route's span name and attributes (method, template, server), scrubbed once: the templates
   * are the SDK's own, a few dozen, so they are kept; past a bound (never, by design) not kept.
   */
  route(method: string, template: string): RouteSpan {
    const key = `${method} ${template}`;
    let route = this.#routes.get(key);
    if (route === undefined) {
      route = {
        name: key,
        attributes: scrubbed(this, {
          'http.request.method': method,
          'url.template': template,
          'server.address': this.host,
          'server.port': this.port,
        }),
      };
      if (this.#routes.size < MAX_ROUTES) this.#routes.set(key, route);
    }
    return route;
  }

  /** Runs one SDK call (`send`) under its span, a child of `parent`. */
  async call<R extends { data: unknown }>(
    call: TracedCall,
    parent: TelemetryContext | undefined,
    send: (scope: CallScope) => Promise<R>,
  ): Promise<R> {
    const scope = new CallScope(this, call, parent);
    try {
      const result = await scope.within(() => send(scope));
      scope.done(result.data);
      return result;
    } catch (error) {
      scope.end(error);
      throw error;
    }
  }

  /**
   * Wraps a follow (`waitForFinal`, `watch`): one span for all of it, its reads (made through the
   * reader's `status` handed to `run`) as children, its end status recorded, and its duration when
   * final.
   */
  async *follow<
    C extends { reader: { status: (...args: never[]) => PromiseLike<{ status: string }> } },
    Y,
    F extends { status: string },
  >(
    operation: string,
    paymentOrId: unknown,
    context: C,
    run: (context: C) => AsyncGenerator<Y, F, undefined>,
  ): AsyncGenerator<Y, F, undefined> {
    const id =
      typeof paymentOrId === 'string'
        ? paymentOrId
        : (paymentOrId as { paymentId?: string })?.paymentId;
    const scope = new Scope(this, operation, 0, {
      [PAYMENT]: typeof id === 'string' ? id : undefined,
    });
    const started = performance.now();
    let status: string | undefined;
    let error: unknown;
    const { reader } = context;
    const read = ((...args: never[]) =>
      scope
        .within(() => reader.status(...args))
        .then((result) => {
          status = result.status;
          return result;
        })) as C['reader']['status'];
    try {
      const final = yield* run({ ...context, reader: { ...reader, status: read } });
      this.#follows?.record((performance.now() - started) / 1000, { [STATUS]: final.status });
      return final;
    } catch (thrown) {
      error = thrown;
      throw thrown;
    } finally {
      scope.set(STATUS, status);
      scope.end(error);
    }
  }

  /** The follower's side: `merchant_gateway.follower.payments` and each payment's time to final. */
  follower(): FollowerTelemetry {
    const since = new Map<string, number>();
    const counter = this.#followed;
    const follows = this.#follows;
    const left = (paymentId: string) => {
      if (since.delete(paymentId)) counter?.add(-1);
    };
    return {
      added: (paymentId) => {
        if (since.has(paymentId)) return;
        since.set(paymentId, performance.now());
        counter?.add(1);
      },
      final: (paymentId, status) => {
        const start = since.get(paymentId);
        if (start !== undefined) {
          follows?.record((performance.now() - start) / 1000, { [STATUS]: status });
        }
        left(paymentId);
      },
      left,
      closed: () => {
        counter?.add(-since.size);
        since.clear();
      },
    };
  }
}
