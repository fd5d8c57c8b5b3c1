// Tracing of one process of the example: one trace per order, from the web process's
// `payments.create` to the outcome a worker writes, the trace context carried in the job as a W3C
// `traceparent`. Spans go to `$TRACES_DIR/<process>.jsonl`, one JSON line each (a stand-in for an
// OTLP exporter); without TRACES_DIR nothing is traced and the SDK gets no telemetry option.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Context, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { TelemetryOptions } from 'merchant-gateway';

/** One exported span, as a line of the file. */
export interface SpanLine {
  process: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
}

export function startTracing(processName: string): {
  telemetry: TelemetryOptions | undefined;
  tracer: ReturnType<typeof trace.getTracer>;
} {
  const dir = process.env.TRACES_DIR;
  // No provider registered: the API's tracer makes spans that record nothing.
  if (dir === undefined || dir === '')
    return { telemetry: undefined, tracer: trace.getTracer('shop') };
  const file = join(dir, `${processName}.jsonl`);
  const line = (span: ReadableSpan): string =>
    `${JSON.stringify({
      process: processName,
      name: span.name,
      traceId: span.spanContext().traceId,
      spanId: span.spanContext().spanId,
      parentSpanId: span.parentSpanContext?.spanId,
      attributes: span.attributes,
    } satisfies SpanLine)}\n`;
  // Written at once: a worker killed with SIGKILL keeps every span it ended.
  const exporter: SpanExporter = {
    export(spans, done) {
      appendFileSync(file, spans.map(line).join(''));
      done({ code: 0 });
    },
    async shutdown() {},
  };
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  // What @opentelemetry/sdk-node sets up: the active span follows async code.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return { telemetry: { tracerProvider: provider }, tracer: provider.getTracer('shop') };
}

/** The active span as a W3C `traceparent`, to carry in a job; undefined when nothing is traced. */
export function traceparent(): string | undefined {
  const ids = trace.getActiveSpan()?.spanContext();
  if (ids === undefined || !trace.isSpanContextValid(ids)) return undefined;
  return `00-${ids.traceId}-${ids.spanId}-${ids.traceFlags.toString(16).padStart(2, '0')}`;
}

/** The context a job's `traceparent` names: what the work done for that job is a child of. */
export function contextOf(parent: string | undefined): Context {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(parent ?? '');
  if (match === null) return context.active();
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  return trace.setSpanContext(context.active(), {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16),
    isRemote: true,
  });
}
