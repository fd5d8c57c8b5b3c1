// gateway.webhooks: the client's Webhooks, its secret from the webhookSecret option or
// MERCHANT_GATEWAY_WEBHOOK_SECRET, made on first use (a client that receives none needs none).
import { inspect } from 'node:util';
import { MerchantGateway, Webhooks, WebhookVerificationError } from 'merchant-gateway';
import { describe, expect, test, vi } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/webhooks/signature';
import { paymentProcessing, webhookBody } from '../../support/webhook-fixtures';

const options = { baseUrl: 'https://gateway.test', apiKey: 'sk_test_client' };
const body = webhookBody(paymentProcessing);
const signed = (secret: string) =>
  signWebhook({ secret, id: 'msg_client', timestamp: Date.now() / 1000, body });

describe('gateway.webhooks', () => {
  test('verifies with the webhookSecret option', async () => {
    const secret = generateWebhookSecret();
    const gateway = new MerchantGateway({ ...options, webhookSecret: secret });
    expect(gateway.webhooks).toBeInstanceOf(Webhooks);
    expect(gateway.webhooks).toBe(gateway.webhooks);
    await expect(gateway.webhooks.unwrap(body, await signed(secret))).resolves.toEqual(
      paymentProcessing,
    );
  });

  test('reads MERCHANT_GATEWAY_WEBHOOK_SECRET, comma-separated for a rotation', async () => {
    const [old, current] = [generateWebhookSecret(), generateWebhookSecret()];
    vi.stubEnv('MERCHANT_GATEWAY_WEBHOOK_SECRET', `${old},${current}`);
    const gateway = new MerchantGateway(options);
    await expect(
      gateway.webhooks.verifySignature(body, await signed(old)),
    ).resolves.toBeUndefined();
    await expect(
      gateway.webhooks.verifySignature(body, await signed(current)),
    ).resolves.toBeUndefined();
    // The option wins over the environment.
    const other = generateWebhookSecret();
    const withOption = new MerchantGateway({ ...options, webhookSecret: [other] });
    const error = await withOption.webhooks
      .verifySignature(body, await signed(old))
      .catch((e: unknown) => e);
    expect((error as WebhookVerificationError).reason).toBe('invalid_signature');
  });

  test('without a secret the client works, and gateway.webhooks says what to set', () => {
    vi.stubEnv('MERCHANT_GATEWAY_WEBHOOK_SECRET', '');
    const gateway = new MerchantGateway(options);
    let thrown: unknown;
    try {
      void gateway.webhooks;
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WebhookVerificationError);
    expect((thrown as WebhookVerificationError).reason).toBe('invalid_secret');
    expect((thrown as Error).message).toContain(
      'pass the webhookSecret option or set MERCHANT_GATEWAY_WEBHOOK_SECRET',
    );
  });

  test('a malformed secret from the environment surfaces on first use, not at construction', () => {
    vi.stubEnv('MERCHANT_GATEWAY_WEBHOOK_SECRET', 'whsec_%%%');
    const gateway = new MerchantGateway(options);
    expect(() => gateway.webhooks).toThrow(
      /the secret is not base64 of at least one byte after whsec_/,
    );
  });

  test('a webhookSecret set on a polluted Object.prototype is not a secret', () => {
    vi.stubEnv('MERCHANT_GATEWAY_WEBHOOK_SECRET', '');
    const proto = Object.prototype as { webhookSecret?: string; secret?: string };
    proto.webhookSecret = generateWebhookSecret();
    proto.secret = generateWebhookSecret();
    try {
      expect(() => new MerchantGateway(options).webhooks).toThrow(/no webhook secret/);
      expect(() => new Webhooks({} as { secret: string })).toThrow(/no secret/);
    } finally {
      delete proto.webhookSecret;
      delete proto.secret;
    }
  });

  test('the client never shows the webhook secret', () => {
    const secret = generateWebhookSecret();
    const gateway = new MerchantGateway({ ...options, webhookSecret: secret });
    void gateway.webhooks;
    const key = secret.slice('whsec_'.length);
    expect(JSON.stringify(gateway)).not.toContain(key);
    expect(inspect(gateway, { depth: 10 })).not.toContain(key);
    expect(inspect(gateway.webhooks, { depth: 10 })).not.toContain(key);
    expect(JSON.stringify(gateway.withOptions({ timeoutMs: 5_000 }))).not.toContain(key);
  });
});
