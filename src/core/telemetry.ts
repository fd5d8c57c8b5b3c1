/**
 * OpenTelemetry traces and metrics (the contract's "Observability"), without importing
 * `@opentelemetry/api`: the providers are the user's, typed by what this file calls; the caller's
 * active context comes from the API's global (`Symbol.for('opentelemetry.js.api.1')`, the key of
 * every 1.x version), and `traceparent` is written here. Every hook of the SDK into it is one
 * call marked `// telemetry:`; without the `telemetry` option none of this runs.
 */
import { ConfigurationError } from './errors';
import { own } from './own';
import { templateOf } from './path';
import type { Redactor } from './redact';
import type { AttemptScope, CallScope, Telemetry } from './telemetry-scopes';

/** An attribute value, as OpenTelemetry takes it. */
export type TelemetryValue = string | number | boolean;
/** Attributes of a span or a measurement. */
export type TelemetryAttributes = Record<string, TelemetryValue | undefined>;

/** An OpenTelemetry `Context` (only what the SDK reads and builds). */
export interface TelemetryContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): TelemetryContext;
}

/** An OpenTelemetry `Span` (only what the SDK calls). */
export interface TelemetrySpan {
  spanContext(): {
    traceId: string;
    spanId: string;
    traceFlags: number;
    traceState?: { serialize(): string } | undefined;
  };
  setAttribute(key: string, value: TelemetryValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** An OpenTelemetry `Tracer`. */
export interface TelemetryTracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: TelemetryAttributes },
    context?: TelemetryContext,
  ): TelemetrySpan;
}

/** An OpenTelemetry `TracerProvider`: `trace.getTracerProvider()`, or an SDK's own. */
export interface TelemetryTracerProvider {
  getTracer(name: string, version?: string): TelemetryTracer;
}

/** An OpenTelemetry `Histogram`. */
export interface TelemetryHistogram {
  record(value: number, attributes?: TelemetryAttributes): void;
}

/** An OpenTelemetry `UpDownCounter`. */
export interface TelemetryUpDownCounter {
  add(value: number, attributes?: TelemetryAttributes): void;
}

interface InstrumentOptions {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}

/** An OpenTelemetry `Meter`. */
export interface TelemetryMeter {
  createHistogram(name: string, options?: InstrumentOptions): TelemetryHistogram;
  createUpDownCounter(name: string, options?: InstrumentOptions): TelemetryUpDownCounter;
}

/** An OpenTelemetry `MeterProvider`: `metrics.getMeterProvider()`, or an SDK's own. */
export interface TelemetryMeterProvider {
  getMeter(name: string, version?: string): TelemetryMeter;
}

/** The client's `telemetry` option. */
export interface TelemetryOptions {
  /** Where spans go: one per SDK call, one per HTTP attempt, one per follow. */
  tracerProvider?: TelemetryTracerProvider | undefined;
  /** Where `http.client.request.duration` and the payment metrics go. */
  meterProvider?: TelemetryMeterProvider | undefined;
  /**
   * Records each call's `Idempotency-Key` as `merchant_gateway.idempotency_key`.
   * @default false
   */
  recordIdempotencyKeys?: boolean | undefined;
}

/** What a call tells its scope: a slice of the transport's request spec. */
export interface TracedCall {
  operation: string;
  method: string;
  path: string;
  query?: URLSearchParams | undefined;
  extraTimeoutMs?: number | undefined;
}

export const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

interface ContextManager {
  active(): TelemetryContext;
  with<R>(context: TelemetryContext, fn: () => R): R;
}

/** The context manager the user registered with any 1.x API, if any. */
export function manager(): ContextManager | undefined {
  const api = (globalThis as Record<symbol, { context?: ContextManager } | undefined>)[
    Symbol.for('opentelemetry.js.api.1')
  ];
  return api?.context;
}

/**
 * `scope`: what a call made synchronously inside a scope's `within` is a child of (a follow's
 * reads), with or without a context manager.
 */
export const ambient: { scope: { context?: TelemetryContext | undefined } | undefined } = {
  scope: undefined,
};

/** The context a span started now is a child of; undefined without any (no API loaded). */
export function activeContext(): TelemetryContext | undefined {
  return ambient.scope?.context ?? manager()?.active();
}

/** `trace_id` and `span_id` of the active span, for log lines; undefined when none is. */
export function traceFields(): Record<string, string> | undefined {
  const span = activeContext()?.getValue(SPAN_KEY) as TelemetrySpan | undefined;
  const ids = span?.spanContext();
  return ids === undefined || /^0*$/.test(ids.traceId)
    ? undefined
    : { trace_id: ids.traceId, span_id: ids.spanId };
}

/** What the follower reports: payments in and out, and each one's time to its final status. */
export interface FollowerTelemetry {
  added(paymentId: string): void;
  final(paymentId: string, status: string): void;
  left(paymentId: string): void;
  closed(): void;
}

export type { AttemptScope, CallScope };

/**
 * The `telemetry` option of a client, checked. Its spans and instruments load on first use (a
 * chunk of their own, so the main entry stays small); each call waits for that once.
 */
export class TelemetryHandle {
  #loaded: Telemetry | undefined;
  /** Settles when the spans and instruments are ready. */
  readonly ready: Promise<Telemetry>;

  constructor(
    readonly options: TelemetryOptions,
    readonly baseUrl: string,
    readonly redactor: Redactor,
    readonly version: string,
  ) {
    this.ready = import('./telemetry-scopes').then(({ Telemetry }) => {
      this.#loaded = new Telemetry(this);
      return this.#loaded;
    });
    // A failed load rejects the calls that wait for it; unused, it must not be unhandled.
    this.ready.catch(() => {});
  }

  /** Runs one SDK call (`send`) under its span, a child of the context active now. */
  async call<R extends { data: unknown }>(
    call: TracedCall,
    send: (scope: CallScope) => Promise<R>,
  ): Promise<R> {
    // Read now, not after the chunk loads: `parent` and the path's template are as of the call.
    const parent = activeContext();
    const template = templateOf(call.path);
    return (this.#loaded ?? (await this.ready)).call(call, parent, template, send);
  }

  /** A follow (`waitForFinal`, `watch`) under one span: see `Telemetry.follow`. */
  async *follow<
    C extends { read: (...args: never[]) => PromiseLike<{ status: string }> },
    Y,
    F extends { status: string },
  >(
    operation: string,
    paymentOrId: unknown,
    context: C,
    run: (context: C) => AsyncGenerator<Y, F, undefined>,
  ): AsyncGenerator<Y, F, undefined> {
    return yield* (this.#loaded ?? (await this.ready)).follow(operation, paymentOrId, context, run);
  }

  /** The follower's counter and histogram; undefined until `ready`. */
  follower(): FollowerTelemetry | undefined {
    return this.#loaded?.follower();
  }
}

/** The client's `telemetry` option checked: undefined when off (no provider given). */
export function telemetryFrom(
  options: TelemetryOptions | undefined,
  baseUrl: string,
  redactor: Redactor,
  version: string,
): TelemetryHandle | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('telemetry must be an object');
  }
  // Own properties only: a polluted Object.prototype must not turn telemetry on.
  const given = own(options);
  for (const [name, method] of [
    ['tracerProvider', 'getTracer'],
    ['meterProvider', 'getMeter'],
  ] as const) {
    const provider = given[name];
    if (provider !== undefined && typeof (provider as never)?.[method] !== 'function') {
      throw new ConfigurationError(`telemetry.${name} has no ${method}()`);
    }
  }
  if (given.tracerProvider === undefined && given.meterProvider === undefined) return undefined;
  return new TelemetryHandle(given, baseUrl, redactor, version);
}
