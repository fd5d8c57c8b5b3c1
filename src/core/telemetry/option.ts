/**
 * OpenTelemetry traces and metrics (the contract's "Observability"), without importing
 * `@opentelemetry/api`: the providers are the user's, typed by what this file calls; the caller's
 * active context comes from the API's global (`Symbol.for('opentelemetry.js.api.1')`, the key of
 * every 1.x version), and `traceparent` is written here. Every hook of the SDK into it is one
 * call marked `// telemetry:`; without the `telemetry` option none of this runs.
 */
import { ConfigurationError } from '../errors/base';
import { ownProperties } from '../safety/own-properties';
import type { Redactor } from '../safety/redact';
import { activeContext, type TelemetryOptions, type TracedCall } from './api';
import type { AttemptScope, CallScope, Telemetry } from './scopes';

export type {
  FollowerTelemetry,
  TelemetryAttributes,
  TelemetryContext,
  TelemetryHistogram,
  TelemetryMeter,
  TelemetryMeterProvider,
  TelemetryOptions,
  TelemetrySpan,
  TelemetryTracer,
  TelemetryTracerProvider,
  TelemetryUpDownCounter,
  TelemetryValue,
  TracedCall,
} from './api';
// The logger's trace ids come from here too, so every hook imports one file.
export { traceFields } from './api';

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
    this.ready = import('./scopes').then(({ Telemetry }) => {
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
    // Read now, not after the chunk loads: the parent is the context active at the call.
    const parent = activeContext();
    return (this.#loaded ?? (await this.ready)).call(call, parent, send);
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
  const given = ownProperties(options);
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
