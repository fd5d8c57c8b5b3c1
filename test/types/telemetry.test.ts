import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { type ClientOptions, MerchantGateway, type TelemetryOptions } from 'merchant-gateway';
import type { BuyerClientOptions } from 'merchant-gateway/buyer';
import { describe, expectTypeOf, it } from 'vitest';

// Types only: each `@ts-expect-error` fails the typecheck if the line below it compiles.
describe('the telemetry option', () => {
  it("takes the API's global providers and an SDK's own, typed without importing the API", () => {
    expectTypeOf(trace.getTracerProvider()).toExtend<TelemetryOptions['tracerProvider']>();
    expectTypeOf(metrics.getMeterProvider()).toExtend<TelemetryOptions['meterProvider']>();
    expectTypeOf<BasicTracerProvider>().toExtend<TelemetryOptions['tracerProvider']>();
    expectTypeOf<MeterProvider>().toExtend<TelemetryOptions['meterProvider']>();
    expectTypeOf<TelemetryOptions>().toExtend<ClientOptions['telemetry']>();
    expectTypeOf<TelemetryOptions>().toExtend<BuyerClientOptions['telemetry']>();
    const options: ClientOptions = {
      telemetry: {
        tracerProvider: new BasicTracerProvider(),
        meterProvider: new MeterProvider(),
        recordIdempotencyKeys: true,
      },
    };
    expectTypeOf(options).toExtend<ClientOptions>();
  });

  it('refuses what is not a provider', () => {
    const bad = (): void => {
      // @ts-expect-error a tracer provider has getTracer
      new MerchantGateway({ telemetry: { tracerProvider: { getMeter() {} } } });
    };
    expectTypeOf(bad).toBeFunction();
  });
});
