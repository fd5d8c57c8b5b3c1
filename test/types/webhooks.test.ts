import * as main from 'merchant-gateway';
import { MerchantGateway } from 'merchant-gateway';
import type {
  PaymentCreatedEvent,
  PaymentSettledEvent,
  PaymentSnapshot,
  PaymentSucceededEvent,
  PaymentWebhookEvent,
  SnapshotCancelled,
  SnapshotExpired,
  SnapshotFailed,
  SnapshotProcessing,
  SnapshotSettled,
  SnapshotSuccess,
  UnknownWebhookEvent,
  WebhookAmount,
  WebhookEvent,
} from 'merchant-gateway/webhooks';
import {
  isPaymentWebhookEvent,
  type PaymentSettledEventSchema,
  type PaymentSnapshotSchema,
  type PaymentSucceededEventSchema,
  type WebhookEventSchema,
  Webhooks,
} from 'merchant-gateway/webhooks';
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import { paymentSucceeded } from '../support/webhook-fixtures';

// Types only: each `@ts-expect-error` fails the typecheck (`tsc --noEmit`) if the line below it
// compiles. Any property of `anything`, at any depth, is itself, so the bodies run too.
const anything: unknown = new Proxy(() => anything, { get: () => anything });
const value = <T>(): T => anything as T;

describe('a switch on the event type narrows, the unknown member included', () => {
  it("case 'payment.succeeded' reads the snapshot's fields; camelCase and misspellings fail", () => {
    const event = value<WebhookEvent>();
    switch (event.type) {
      case 'payment.succeeded': {
        const txId: string | null | undefined = event.data.success?.tx_id;
        void txId;
        // @ts-expect-error the wire's names are snake_case: paymentId is not a field
        event.data.paymentId;
        // @ts-expect-error a misspelt stage field does not compile
        event.data.success?.txId;
        // @ts-expect-error nor a misspelt snapshot field
        event.data.payment_state;
        expectTypeOf(event.data.payment_id).toEqualTypeOf<string>();
        // The stages a succeeded event implies, with no ?. and no isPaymentWebhookEvent first.
        expectTypeOf(event.data.success.tx_id).toEqualTypeOf<string | null>();
        break;
      }
      case 'payment.settled':
        expectTypeOf(event.data.settled).toEqualTypeOf<SnapshotSettled>();
        break;
      default:
        // The other known types, and any type to come.
        expectTypeOf(event.type).toExtend<string>();
        expectTypeOf<'payment.created'>().toExtend<typeof event.type>();
    }
  });

  it('a payment event, once told from an unknown one, has the full snapshot', () => {
    const event = paymentSucceeded as WebhookEvent;
    if (!isPaymentWebhookEvent(event)) {
      expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
      return;
    }
    expectTypeOf(event).toEqualTypeOf<PaymentWebhookEvent>();
    switch (event.type) {
      case 'payment.succeeded':
        expectTypeOf(event).toEqualTypeOf<PaymentSucceededEvent>();
        expectTypeOf(event.data.payment_id).toEqualTypeOf<string>();
        expectTypeOf(event.data.payment_state_version).toEqualTypeOf<number>();
        break;
      case 'payment.settled':
        expectTypeOf(event).toEqualTypeOf<PaymentSettledEvent>();
        break;
      case 'payment.created':
        expectTypeOf(event).toEqualTypeOf<PaymentCreatedEvent>();
        break;
      default:
        // Exhaustive over the seven without an unknown member left.
        expectTypeOf(event.type).toEqualTypeOf<
          'payment.processing' | 'payment.failed' | 'payment.expired' | 'payment.cancelled'
        >();
    }
  });
});

describe('the stages an event type implies are non-null in its type (issue 41)', () => {
  it("case 'payment.succeeded' reads success.tx_id without ?., the unknown member included", () => {
    const event = value<WebhookEvent>();
    switch (event.type) {
      case 'payment.created':
        // @ts-expect-error no stage is implied by a created event
        event.data.processing.processing_at;
        break;
      case 'payment.processing':
        expectTypeOf(event.data.processing).toEqualTypeOf<SnapshotProcessing>();
        // @ts-expect-error success is not implied by a processing event
        event.data.success.tx_id;
        break;
      case 'payment.succeeded': {
        const txId: string | null = event.data.success.tx_id;
        void txId;
        expectTypeOf(event.data.processing).toEqualTypeOf<SnapshotProcessing>();
        expectTypeOf(event.data.success).toEqualTypeOf<SnapshotSuccess>();
        // Settled only if settlement already happened.
        expectTypeOf(event.data.settled).toEqualTypeOf<SnapshotSettled | null>();
        break;
      }
      case 'payment.settled':
        expectTypeOf(event.data.processing).toEqualTypeOf<SnapshotProcessing>();
        expectTypeOf(event.data.success).toEqualTypeOf<SnapshotSuccess>();
        expectTypeOf(event.data.settled).toEqualTypeOf<SnapshotSettled>();
        break;
      case 'payment.failed':
        expectTypeOf(event.data.failed).toEqualTypeOf<SnapshotFailed>();
        // The buyer may not have committed: processing stays nullable.
        expectTypeOf(event.data.processing).toEqualTypeOf<SnapshotProcessing | null>();
        break;
      case 'payment.expired':
        expectTypeOf(event.data.expired).toEqualTypeOf<SnapshotExpired>();
        expectTypeOf(event.data.processing).toEqualTypeOf<SnapshotProcessing | null>();
        break;
      case 'payment.cancelled':
        expectTypeOf(event.data.cancelled).toEqualTypeOf<SnapshotCancelled>();
        break;
    }
  });

  it('the per-type schemas parse to the narrowed types; the snapshot schema stays T | null', () => {
    expectTypeOf<
      z.output<typeof PaymentSettledEventSchema>['data']['settled']
    >().toEqualTypeOf<SnapshotSettled>();
    expectTypeOf<
      z.output<typeof PaymentSnapshotSchema>['settled']
    >().toEqualTypeOf<SnapshotSettled | null>();
  });
});

describe('the snapshot is closed and named', () => {
  it('stages are T | null; names show in place of expanded zod output', () => {
    const data = value<PaymentSnapshot>();
    expectTypeOf(data.processing).toEqualTypeOf<SnapshotProcessing | null>();
    expectTypeOf(data.success).toEqualTypeOf<SnapshotSuccess | null>();
    expectTypeOf(data.amount).toEqualTypeOf<WebhookAmount>();
    expectTypeOf(data.reference_id).toEqualTypeOf<string | null | undefined>();
    // @ts-expect-error a misspelt field does not compile
    data.paymentStateVersion;
    // @ts-expect-error the amount of a snapshot carries no display
    data.amount.display;
    // The status is open: known values complete, others accepted.
    const status: PaymentSnapshot['status'] = 'refunded_someday';
    void status;
  });

  it('the schemas parse to the named types', () => {
    expectTypeOf<z.output<typeof WebhookEventSchema>>().toEqualTypeOf<WebhookEvent>();
    expectTypeOf<z.output<typeof PaymentSnapshotSchema>>().toEqualTypeOf<PaymentSnapshot>();
    expectTypeOf<
      z.output<typeof PaymentSucceededEventSchema>
    >().toEqualTypeOf<PaymentSucceededEvent>();
  });
});

describe('Webhooks, from both entries', () => {
  it('unwrap takes a body with headers, or a Request alone; never a parsed object', () => {
    const webhooks = new Webhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    expectTypeOf(webhooks.unwrap).toBeCallableWith(value<Request>());
    expectTypeOf(webhooks.unwrap).toBeCallableWith('{}', value<Headers>());
    expectTypeOf(webhooks.unwrap).toBeCallableWith(
      value<Buffer>(),
      value<import('node:http').IncomingHttpHeaders>(),
    );
    expectTypeOf(webhooks.unwrap).returns.toEqualTypeOf<Promise<WebhookEvent>>();
    // @ts-expect-error a parsed body is not a raw body
    expectTypeOf(webhooks.unwrap).toBeCallableWith({ id: 'evt_1' }, value<Headers>());
    // @ts-expect-error headers are required with a body
    expectTypeOf(webhooks.verifySignature).toBeCallableWith('{}');
  });

  it('the main entry exports the same class and types; gateway.webhooks is one', () => {
    expectTypeOf(main.Webhooks).toEqualTypeOf<typeof Webhooks>();
    expectTypeOf<main.WebhookEvent>().toEqualTypeOf<WebhookEvent>();
    const gateway = new MerchantGateway({
      baseUrl: 'https://gateway.test',
      apiKey: 'sk_test',
      webhookSecret: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_AAAA'],
    });
    expectTypeOf(gateway.webhooks).toEqualTypeOf<Webhooks>();
  });
});
