/**
 * What option.ts (the option, always in the entry) and scopes.ts (the spans, a lazy
 * chunk) share: the structural OpenTelemetry types and the active context. A file of its own so the
 * lazy chunk imports nothing that imports it back.
 */
import type { Redactor } from '../safety/redact';

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
  /** The path's template (`/v1/payments/{paymentId}`); `path` itself when it has no parameters. */
  template?: string | undefined;
  /** The payment the path names. */
  paymentId?: string | undefined;
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

/** What the spans' chunk is built from: the client's checked option (a `TelemetryHandle`). */
export interface TelemetrySetup {
  readonly options: TelemetryOptions;
  readonly baseUrl: string;
  readonly redactor: Redactor;
  readonly version: string;
}
