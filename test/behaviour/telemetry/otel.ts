// The OpenTelemetry SDKs as a user sets them up: spans to an in-memory exporter, metrics to an
// in-memory exporter through a periodic reader (flushed by the test), the async-hooks context manager.
import { context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export function setUpOtel() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spans)],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    finished: () => spans.getFinishedSpans(),
    reset: () => {
      spans.reset();
      metricExporter.reset();
    },
    /** Every metric the SDK's meter exported, by name, as of now. */
    metrics: async () => {
      metricExporter.reset();
      await reader.forceFlush();
      const all = metricExporter.getMetrics().at(-1)?.scopeMetrics ?? [];
      const byName = new Map<string, (typeof all)[number]['metrics'][number]>();
      for (const scope of all) {
        if (scope.scope.name !== 'merchant-gateway') continue;
        for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      }
      return byName;
    },
  };
}

/** Registers the context manager users install (`@opentelemetry/sdk-node` does the same). */
export function useContextManager(): () => void {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  return () => {
    context.disable();
  };
}

export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

export function idOf(span: ReadableSpan | Span): string {
  return span.spanContext().spanId;
}
