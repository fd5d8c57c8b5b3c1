// The buyer entry's client shares the main client's construction (client-config.ts), so it takes
// the `telemetry` option too: a PSP's checkout backend traces its buyer calls like any other.
import { BuyerClient, ConfigurationError } from 'merchant-gateway/buyer';
import { createMockGateway } from 'merchant-gateway/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { setUpOtel } from './otel';

const mock = createMockGateway({ pollInMs: 100 });
const otel = setUpOtel();

beforeEach(() => {
  mock.reset();
  otel.reset();
});

describe('BuyerClient with telemetry', () => {
  it('traces a buyer call with the contract span, its attempt and the path template', async () => {
    const buyer = new BuyerClient({
      baseUrl: 'http://127.0.0.1:1',
      apiKey: mock.credentials.apiKey,
      fetch: mock.fetch,
      telemetry: { tracerProvider: otel.tracerProvider },
    });
    await expect(buyer.get('pay_missing')).rejects.toMatchObject({ name: 'NotFoundError' });
    const spans = otel.finished();
    const call = spans.find((s) => s.name === 'buyer.get');
    expect(call).toBeDefined();
    const attempt = spans.find((s) => s.parentSpanContext?.spanId === call?.spanContext().spanId);
    expect(attempt?.attributes['url.template']).toBe('/v1/gateway/payment/{paymentId}');
  });

  it('refuses a provider without getTracer, as the main client does', () => {
    expect(
      () =>
        new BuyerClient({
          baseUrl: 'http://127.0.0.1:1',
          apiKey: mock.credentials.apiKey,
          telemetry: { tracerProvider: {} as never },
        }),
    ).toThrow(ConfigurationError);
  });
});
