// Interop both ways with the reference implementations of the scheme the service uses: what the
// standardwebhooks and svix libraries sign, the SDK verifies; what the SDK's signer (the mock's
// and the relay's) signs, both libraries verify. Real libraries, real events.

import { Webhooks, WebhookVerificationError } from 'merchant-gateway/webhooks';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, test } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/webhooks/signature';
import { EXAMPLE_EVENTS, webhookBody } from '../../support/webhook-fixtures';

const secret = generateWebhookSecret();
const webhooks = new Webhooks({ secret });
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('deliveries signed by the reference libraries verify with the SDK', () => {
  test.each(EXAMPLE_EVENTS.map((event) => [event.type, event] as const))(
    'standardwebhooks signs a %s event; the SDK unwraps it',
    async (_, event) => {
      const body = webhookBody(event);
      const date = new Date();
      const headers = {
        'webhook-id': `msg_${event.id}`,
        'webhook-timestamp': String(Math.floor(date.getTime() / 1000)),
        'webhook-signature': new StandardWebhook(secret).sign(`msg_${event.id}`, date, body),
      };
      await expect(webhooks.unwrap(body, headers)).resolves.toEqual(event);
    },
  );

  test('svix signs; the SDK verifies under the svix-* names and the webhook-* names', async () => {
    const body = webhookBody(EXAMPLE_EVENTS[2]);
    const date = new Date();
    const signature = new SvixWebhook(secret).sign('msg_svix_1', date, body);
    const timestamp = String(Math.floor(date.getTime() / 1000));
    const svixNames = {
      'svix-id': 'msg_svix_1',
      'svix-timestamp': timestamp,
      'svix-signature': signature,
    };
    await expect(webhooks.unwrap(body, svixNames)).resolves.toEqual(EXAMPLE_EVENTS[2]);
    const standardNames = {
      'webhook-id': 'msg_svix_1',
      'webhook-timestamp': timestamp,
      'webhook-signature': signature,
    };
    await expect(
      webhooks.verifySignature(Buffer.from(body), standardNames),
    ).resolves.toBeUndefined();
  });

  test('a delivery a library signed with another secret is refused', async () => {
    const body = webhookBody(EXAMPLE_EVENTS[0]);
    const date = new Date();
    const headers = {
      'webhook-id': 'msg_other',
      'webhook-timestamp': String(Math.floor(date.getTime() / 1000)),
      'webhook-signature': new StandardWebhook(generateWebhookSecret()).sign(
        'msg_other',
        date,
        body,
      ),
    };
    const error = await webhooks.unwrap(body, headers).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('invalid_signature');
  });
});

describe("the SDK's signer verifies with both libraries", () => {
  test.each(EXAMPLE_EVENTS.map((event) => [event.type, event] as const))(
    'a %s delivery signed by signWebhook',
    async (_, event) => {
      const body = webhookBody(event);
      const headers = await signWebhook({
        secret,
        id: `msg_${event.id}`,
        timestamp: nowSeconds(),
        body,
      });
      expect(new StandardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
      expect(() => new SvixWebhook(secret).verify(body, headers)).not.toThrow();
      // Svix's older header names, as a receiver written against them reads them.
      const svixNames = {
        'svix-id': headers['webhook-id'] ?? '',
        'svix-timestamp': headers['webhook-timestamp'] ?? '',
        'svix-signature': headers['webhook-signature'] ?? '',
      };
      expect(() => new SvixWebhook(secret).verify(body, svixNames)).not.toThrow();
      await expect(webhooks.unwrap(body, headers)).resolves.toEqual(event);
    },
  );

  test('the libraries refuse what the SDK signed once the body is altered', async () => {
    const body = webhookBody(EXAMPLE_EVENTS[6]);
    const headers = await signWebhook({ secret, id: 'msg_alt', timestamp: nowSeconds(), body });
    const altered = body.replace('9710000', '9710001');
    expect(() => new StandardWebhook(secret).verify(altered, headers)).toThrow(/signature/);
    expect(() => new SvixWebhook(secret).verify(altered, headers)).toThrow(/signature/);
  });
});
