// Parsing a verified delivery into its event: every documented example to its typed member,
// unknown types and fields passed through (the service adds both), and only a body that is not
// JSON or an envelope without its five fields refused. Through the public unwrap, signed for real.

import {
  isPaymentWebhookEvent,
  PaymentSettledEventSchema,
  PaymentSnapshotSchema,
  type PaymentWebhookEvent,
  PaymentWebhookEventSchema,
  WebhookEventSchema,
  Webhooks,
  WebhookVerificationError,
} from 'merchant-gateway/webhooks';
import { describe, expect, test } from 'vitest';
import * as z from 'zod/mini';
import {
  generateWebhookSecret,
  importSigningKey,
  secretKeyBytes,
  signatureOf,
  signWebhook,
} from '../../../src/webhooks/signature';
import {
  EXAMPLE_EVENTS,
  paymentCreated,
  paymentSettled,
  webhookBody,
} from '../../support/webhook-fixtures';

const secret = generateWebhookSecret();

/** The stages each type implies, as the facts' table says (docs/webhooks.md). */
const IMPLIED: Record<string, string[]> = {
  'payment.created': [],
  'payment.processing': ['processing'],
  'payment.succeeded': ['processing', 'success'],
  'payment.failed': ['failed'],
  'payment.expired': ['expired'],
  'payment.cancelled': ['cancelled'],
  'payment.settled': ['processing', 'success', 'settled'],
};
const webhooks = new Webhooks({ secret });

/** `body` signed now and unwrapped. */
async function unwrap(body: string) {
  const headers = await signWebhook({ secret, id: 'msg_1', timestamp: Date.now() / 1000, body });
  return webhooks.unwrap(body, headers);
}

async function refusal(body: string): Promise<WebhookVerificationError> {
  const error = await unwrap(body).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect((error as WebhookVerificationError).reason).toBe('invalid_payload');
  return error as WebhookVerificationError;
}

describe("the documentation's examples", () => {
  test.each(EXAMPLE_EVENTS.map((e) => [e.id, e] as const))(
    '%s parses to its typed member',
    async (_, example) => {
      const event = await unwrap(webhookBody(example));
      expect(event).toEqual(example);
      expect(isPaymentWebhookEvent(event)).toBe(true);
    },
  );

  test('what a switch on the type reads is the snapshot as sent', async () => {
    const event = await unwrap(webhookBody(paymentSettled));
    switch (event.type) {
      case 'payment.settled':
        expect(event.data.status).toBe('succeeded');
        expect(event.data.settled?.amount).toEqual({
          unit: 'caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          value: '9710000',
        });
        expect(event.data.payment_state_version).toBe(3);
        break;
      default:
        throw new Error(`parsed as ${event.type}`);
    }
  });
});

describe('what the service may add passes through', () => {
  test('an unknown event type is an UnknownWebhookEvent, its data as sent', async () => {
    const payout = {
      id: 'evt_payout_1',
      type: 'payout.paid',
      api_version: '2026-05-18',
      created_at: '2026-07-01T00:00:00Z',
      data: { payout_id: 'po_1', amount: 12 },
    };
    const event = await unwrap(JSON.stringify(payout));
    expect(event).toEqual(payout);
    expect(isPaymentWebhookEvent(event)).toBe(false);
  });

  test('unknown fields are kept, in the envelope, the snapshot and its stages', async () => {
    const extended = {
      ...paymentSettled,
      livemode_hint: true,
      data: {
        ...paymentSettled.data,
        metadata: { order: 42 },
        status: 'partially_refunded',
        settled: { ...paymentSettled.data.settled, network_fee: '12' },
      },
    };
    const event = await unwrap(JSON.stringify(extended));
    expect(event).toEqual(extended);
  });

  test('a stage key left out reads as null; created_at of any ISO precision is kept as sent', async () => {
    const { expired: _, settled: __, ...data } = paymentCreated.data;
    const event = await unwrap(
      JSON.stringify({ ...paymentCreated, created_at: '2026-06-30T09:59:00Z', data }),
    );
    expect(event.type === 'payment.created' && event.data.expired).toBeNull();
    expect(event.type === 'payment.created' && event.data.settled).toBeNull();
    expect(event.created_at).toBe('2026-06-30T09:59:00Z');
  });
});

describe('what is refused (invalid_payload), naming what is wrong', () => {
  test('a body that is not JSON, or not UTF-8', async () => {
    expect((await refusal('{"id": "evt_1",')).message).toContain('the body is not JSON');
    // Signed over the very bytes (Latin-1, not UTF-8), so only the parse can refuse them.
    const latin1 = Buffer.from('{"id":"caf\xe9"}', 'latin1');
    const key = await importSigningKey(secretKeyBytes(secret) as Uint8Array);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const headers = {
      'webhook-id': 'msg_latin1',
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${await signatureOf(key, 'msg_latin1', timestamp, latin1)}`,
    };
    const error = await webhooks.unwrap(latin1, headers).catch((e: unknown) => e);
    expect((error as WebhookVerificationError).reason).toBe('invalid_payload');
    expect((error as Error).message).toContain('not JSON in UTF-8');
  });

  test.each(['id', 'type', 'api_version', 'created_at', 'data'] as const)(
    'an envelope without %s',
    async (field) => {
      const { [field]: _, ...rest } = paymentCreated;
      const error = await refusal(JSON.stringify(rest));
      expect(error.message).toContain(`${field} is required`);
      expect(error.issues).toEqual([{ field, message: 'is required' }]);
    },
  );

  test('an envelope that is not an object, or whose fields have the wrong types', async () => {
    expect((await refusal('[]')).message).toContain('must be a JSON object');
    expect((await refusal('null')).message).toContain('must be a JSON object');
    const error = await refusal(JSON.stringify({ ...paymentCreated, id: 7, data: 'x' }));
    expect(error.issues?.map((i) => i.field)).toEqual(['id', 'data']);
  });

  test('a documented event whose snapshot does not match is refused, not passed on as unknown', async () => {
    const { payment_state_version: _, ...data } = paymentSettled.data;
    const missing = await refusal(JSON.stringify({ ...paymentSettled, data }));
    expect(missing.message).toContain('data.payment_state_version is required');
    const wrong = await refusal(
      JSON.stringify({
        ...paymentSettled,
        data: { ...paymentSettled.data, settled: { ...paymentSettled.data.settled, amount: 9 } },
      }),
    );
    expect(wrong.issues).toEqual([{ field: 'data.settled.amount', message: 'expected object' }]);
  });
});

describe('an event of a known type without a stage its type implies is refused, naming the stage', () => {
  const implied: [PaymentWebhookEvent, string[]][] = EXAMPLE_EVENTS.map((example) => [
    example,
    IMPLIED[example.type] ?? [],
  ]);
  test.each(
    implied.filter(([, stages]) => stages.length > 0).map(([e, s]) => [e.type, e, s] as const),
  )('%s', async (type, example, stages) => {
    for (const stage of stages) {
      // null, as the relay sent when its read failed, and left out, which reads as null.
      const nulled = await refusal(
        JSON.stringify({ ...example, data: { ...example.data, [stage]: null } }),
      );
      expect(nulled.issues).toEqual([
        {
          field: `data.${stage}`,
          message: `must be set in a ${type} event, which implies its ${stage} stage (it is null)`,
        },
      ]);
      expect(nulled.message).toContain(`data.${stage} must be set in a ${type} event`);
      const { [stage as 'processing']: _, ...rest } = example.data;
      const absent = await refusal(JSON.stringify({ ...example, data: rest }));
      expect(absent.issues?.map((i) => i.field)).toEqual([`data.${stage}`]);
    }
  });

  test('the stages a type does not imply may be null: created with none, failed and expired without processing', async () => {
    for (const example of EXAMPLE_EVENTS) {
      const allowed = Object.fromEntries(
        ['processing', 'success', 'failed', 'cancelled', 'expired', 'settled']
          .filter((stage) => !(IMPLIED[example.type] ?? []).includes(stage))
          .map((stage) => [stage, null]),
      );
      const event = await unwrap(
        JSON.stringify({ ...example, data: { ...example.data, ...allowed } }),
      );
      expect(event.type).toBe(example.type);
    }
  });

  test('the per-type schemas refuse it too; an unknown type with no stage passes', () => {
    const result = z.safeParse(PaymentSettledEventSchema, {
      ...paymentSettled,
      data: { ...paymentSettled.data, settled: null },
    });
    expect(result.error?.issues.map((i) => i.path)).toEqual([['data', 'settled']]);
    const payout = { ...paymentCreated, type: 'payment.refunded_someday' };
    expect(z.safeParse(WebhookEventSchema, payout).success).toBe(true);
  });
});

describe('the exported schemas', () => {
  test('parse stored events as unwrap does', () => {
    for (const example of EXAMPLE_EVENTS) {
      expect(z.parse(WebhookEventSchema, JSON.parse(webhookBody(example)))).toEqual(example);
      expect(z.parse(PaymentWebhookEventSchema, example)).toEqual(example);
      expect(z.parse(PaymentSnapshotSchema, example.data)).toEqual(example.data);
    }
  });

  test('PaymentWebhookEventSchema refuses an unknown type, which WebhookEventSchema accepts', () => {
    const payout = { ...paymentCreated, type: 'payout.paid' };
    expect(z.safeParse(WebhookEventSchema, payout).success).toBe(true);
    const result = z.safeParse(PaymentWebhookEventSchema, payout);
    expect(result.error?.issues[0]?.path).toEqual(['type']);
  });
});
