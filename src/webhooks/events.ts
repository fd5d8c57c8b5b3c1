/**
 * The service's webhook events (docs/webhooks.md): the envelope `{ id, type,
 * api_version, created_at, data }` and the payment snapshot in `data`, with the wire's snake_case
 * names kept. Unknown fields are kept at run time (the service adds fields within an
 * `api_version`), unknown event types parse as `UnknownWebhookEvent`, but the types list only the
 * documented fields, so a misspelt field is a compile error.
 */
import * as z from 'zod/mini';
import type { KnownPaymentStatus } from '../rules/payments';
import {
  IMPLIED_STAGES,
  PAYMENT_WEBHOOK_EVENT_TYPES,
  type PaymentWebhookEventType,
  type WebhookStageName,
} from '../rules/webhooks';
import { maybe, oneOf, openEnum, requiredString, responseObject } from '../schemas/common';

export type { PaymentWebhookEventType };
export { PAYMENT_WEBHOOK_EVENT_TYPES };

// A stage the payment has not reached is `null`; a key the service left out reads as null too
// (`staged` fills it in), so the type `T | null` holds whatever the body. Not `z._default`: the
// client's schemas use none, and zod's code for it would load with every client.
const STAGES = new WeakSet<z.ZodMiniType>();
function stage<T extends z.ZodMiniType>(schema: T) {
  const nullable = maybe(schema);
  STAGES.add(nullable);
  return nullable as unknown as z.ZodMiniType<z.output<T> | null, z.input<T> | null>;
}

/** An object whose `stage` fields the body left out read as `null`. */
function staged<S extends z.core.$ZodShape>(shape: S) {
  const stages = Object.keys(shape).filter((name) => STAGES.has(shape[name] as z.ZodMiniType));
  return responseObject(shape).check(
    z.overwrite((value) => {
      const filled: Record<string, unknown> = { ...value };
      for (const name of stages) filled[name] ??= null;
      return filled as typeof value;
    }),
  );
}

const amount = responseObject({
  /** `iso4217/<currency>` for fiat, `caip19/<CAIP-19 asset id>` for a token. */
  unit: z.string(),
  /** An integer string in minor units of `unit`. */
  value: z.string(),
});
/** An amount in a webhook snapshot: `value` is an integer string in minor units of `unit`. */
export interface WebhookAmount extends z.output<typeof amount> {}
/** An amount in a webhook snapshot: `value` is an integer string in minor units of `unit`. */
export const WebhookAmountSchema: z.ZodMiniType<WebhookAmount> = amount;

const feePercent = responseObject({
  /** Integer string: 29 of 1000 is 2.9 %. */
  numerator: z.string(),
  /** Integer string. */
  denominator: z.string(),
});
/** A fee's percentage as a fraction of integer strings (`29/1000` is 2.9 %). */
export interface WebhookFeePercent extends z.output<typeof feePercent> {}
/** A fee's percentage as a fraction of integer strings (`29/1000` is 2.9 %). */
export const WebhookFeePercentSchema: z.ZodMiniType<WebhookFeePercent> = feePercent;

const fee = responseObject({
  /** How the fee is computed: `base_plus_percent` today; others may come. */
  kind: openEnum<'base_plus_percent'>(),
  base_amount: WebhookAmountSchema,
  percent: WebhookFeePercentSchema,
  percent_amount: WebhookAmountSchema,
  total_amount: WebhookAmountSchema,
});
/** The service's fee on a payment: a base amount plus a percentage. */
export interface WebhookFee extends z.output<typeof fee> {}
/** The service's fee on a payment: a base amount plus a percentage. */
export const WebhookFeeSchema: z.ZodMiniType<WebhookFee> = fee;

const processingStage = staged({
  /** ISO 8601 UTC. */
  processing_at: z.string(),
  /** The token amount the buyer pays. */
  option_amount: WebhookAmountSchema,
  fee: stage(WebhookFeeSchema),
  /** What the merchant is to receive, the fee taken. */
  settlement_amount: WebhookAmountSchema,
  /** The buyer's account, CAIP-10, when known. */
  buyer_caip10: stage(z.string()),
  /** The chain paid on, CAIP-2. */
  chain_caip2: z.string(),
});
/** Set once the buyer committed to pay (`payment.processing` on). */
export interface SnapshotProcessing extends z.output<typeof processingStage> {}
/** Set once the buyer committed to pay (`payment.processing` on). */
export const SnapshotProcessingSchema: z.ZodMiniType<SnapshotProcessing> = processingStage;

const successStage = staged({
  /** ISO 8601 UTC. */
  succeeded_at: z.string(),
  /** The paying transaction, when known (`test:{paymentId}` in test mode). */
  tx_id: stage(z.string()),
});
/** Set once the payment succeeded. */
export interface SnapshotSuccess extends z.output<typeof successStage> {}
/** Set once the payment succeeded. */
export const SnapshotSuccessSchema: z.ZodMiniType<SnapshotSuccess> = successStage;

const failedStage = staged({
  /** ISO 8601 UTC. */
  failed_at: z.string(),
  /** For people to read; never branch on it. */
  failure_reason: stage(z.string()),
});
/** Set once the payment failed. */
export interface SnapshotFailed extends z.output<typeof failedStage> {}
/** Set once the payment failed. */
export const SnapshotFailedSchema: z.ZodMiniType<SnapshotFailed> = failedStage;

const cancelledStage = staged({
  /** ISO 8601 UTC. */
  cancelled_at: z.string(),
  /** For people to read; never branch on it. */
  cancellation_reason: stage(z.string()),
});
/** Set once the payment was cancelled (only while it awaited the buyer). */
export interface SnapshotCancelled extends z.output<typeof cancelledStage> {}
/** Set once the payment was cancelled (only while it awaited the buyer). */
export const SnapshotCancelledSchema: z.ZodMiniType<SnapshotCancelled> = cancelledStage;

const expiredStage = responseObject({
  /** ISO 8601 UTC. */
  expired_at: z.string(),
});
/** Set once the payment expired. */
export interface SnapshotExpired extends z.output<typeof expiredStage> {}
/** Set once the payment expired. */
export const SnapshotExpiredSchema: z.ZodMiniType<SnapshotExpired> = expiredStage;

const settledStage = staged({
  /** ISO 8601 UTC. */
  settled_at: z.string(),
  /** The settlement transaction, when known. */
  tx_id: stage(z.string()),
  /** What actually settled. */
  amount: WebhookAmountSchema,
});
/** Set once the funds settled to the merchant (`status` stays `succeeded`). */
export interface SnapshotSettled extends z.output<typeof settledStage> {}
/** Set once the funds settled to the merchant (`status` stays `succeeded`). */
export const SnapshotSettledSchema: z.ZodMiniType<SnapshotSettled> = settledStage;

const paymentSnapshot = staged({
  /** The REST API's payment id. Several events share it: never deduplicate on it. */
  payment_id: z.string(),
  /** The REST API's merchant id. */
  merchant_id: z.string(),
  /** False in test mode and for test deliveries. */
  live: z.boolean(),
  /**
   * Per payment, 0 on `payment.created`, rising with each change: an event whose version is at
   * most the highest already handled for its payment is stale.
   */
  payment_state_version: z.number(),
  /** The partner's reference (not unique); may be null. */
  reference_id: maybe(z.string()),
  /** Act on this, not on the event's `type`. There is no `settled` status. */
  status: openEnum<KnownPaymentStatus>(),
  /** The amount asked. */
  amount: WebhookAmountSchema,
  /** ISO 8601 UTC. */
  created_at: z.string(),
  /** ISO 8601 UTC. */
  expires_at: z.string(),
  processing: stage(SnapshotProcessingSchema),
  success: stage(SnapshotSuccessSchema),
  failed: stage(SnapshotFailedSchema),
  cancelled: stage(SnapshotCancelledSchema),
  expired: stage(SnapshotExpiredSchema),
  settled: stage(SnapshotSettledSchema),
});
/** A payment's full state when the event happened (never a delta); stages not reached are null. */
export interface PaymentSnapshot extends z.output<typeof paymentSnapshot> {}
/** A payment's full state when the event happened (never a delta); stages not reached are null. */
export const PaymentSnapshotSchema: z.ZodMiniType<PaymentSnapshot, unknown> = paymentSnapshot;

type Implied<T extends PaymentWebhookEventType> = (typeof IMPLIED_STAGES)[T][number];

/** The envelope of an event of type `T`, its snapshot's implied stages non-null. */
type PaymentEventOf<T extends PaymentWebhookEventType> = {
  /** `evt_…`: the same on every delivery of one event. Deduplicate on it. */
  id: string;
  type: T;
  /** The payload contract's version (`2026-05-18`), unrelated to the REST versions. */
  api_version: string;
  /** ISO 8601 UTC: when the event happened (any precision). */
  created_at: string;
  /** The payment's snapshot: the stages this type implies are set, the others may be null. */
  data: PaymentSnapshot & { [K in Implied<T>]: NonNullable<PaymentSnapshot[K]> };
};

/** Issues for the implied stages of `type` that `data` lacks, at `data.<stage>`. */
function missingStages(type: string, data: Record<string, unknown>): z.core.$ZodRawIssue[] {
  const stages: readonly WebhookStageName[] = Object.hasOwn(IMPLIED_STAGES, type)
    ? IMPLIED_STAGES[type as PaymentWebhookEventType]
    : [];
  return stages
    .filter((stage) => data[stage] === null || data[stage] === undefined)
    .map((stage) => ({
      code: 'custom',
      message: `must be set in a ${type} event, which implies its ${stage} stage (it is ${data[stage] === null ? 'null' : 'absent'})`,
      input: data[stage],
      path: ['data', stage],
    }));
}

function paymentEvent<T extends PaymentWebhookEventType>(
  type: T,
): z.ZodMiniType<PaymentEventOf<T>, unknown> {
  return responseObject({
    id: z.string(),
    type: oneOf([type]),
    api_version: z.string(),
    created_at: z.string(),
    data: PaymentSnapshotSchema,
  }).check(
    z.check((payload) => {
      if (payload.issues.length > 0) return;
      payload.issues.push(...missingStages(type, payload.value.data as never));
    }),
  ) as unknown as z.ZodMiniType<PaymentEventOf<T>, unknown>;
}

const paymentCreated = paymentEvent('payment.created');
/** A payment was created (`payment_state_version` 0); no stage is set. */
export interface PaymentCreatedEvent extends z.output<typeof paymentCreated> {}
/** A payment was created (`payment_state_version` 0); no stage is set. */
export const PaymentCreatedEventSchema: z.ZodMiniType<PaymentCreatedEvent, unknown> =
  paymentCreated;

const paymentProcessing = paymentEvent('payment.processing');
/** The buyer committed to pay: `processing` is set. */
export interface PaymentProcessingEvent extends z.output<typeof paymentProcessing> {}
/** The buyer committed to pay: `processing` is set. */
export const PaymentProcessingEventSchema: z.ZodMiniType<PaymentProcessingEvent, unknown> =
  paymentProcessing;

const paymentSucceeded = paymentEvent('payment.succeeded');
/** The payment succeeded: `processing` and `success` are set (`settled` if it already settled). */
export interface PaymentSucceededEvent extends z.output<typeof paymentSucceeded> {}
/** The payment succeeded: `processing` and `success` are set (`settled` if it already settled). */
export const PaymentSucceededEventSchema: z.ZodMiniType<PaymentSucceededEvent, unknown> =
  paymentSucceeded;

const paymentFailed = paymentEvent('payment.failed');
/** The payment failed: `failed` is set, and `processing` if the buyer had committed. */
export interface PaymentFailedEvent extends z.output<typeof paymentFailed> {}
/** The payment failed: `failed` is set, and `processing` if the buyer had committed. */
export const PaymentFailedEventSchema: z.ZodMiniType<PaymentFailedEvent, unknown> = paymentFailed;

const paymentExpired = paymentEvent('payment.expired');
/** The payment expired: `expired` is set, and `processing` if the buyer had committed. */
export interface PaymentExpiredEvent extends z.output<typeof paymentExpired> {}
/** The payment expired: `expired` is set, and `processing` if the buyer had committed. */
export const PaymentExpiredEventSchema: z.ZodMiniType<PaymentExpiredEvent, unknown> =
  paymentExpired;

const paymentCancelled = paymentEvent('payment.cancelled');
/** The payment was cancelled while it awaited the buyer: only `cancelled` is set. */
export interface PaymentCancelledEvent extends z.output<typeof paymentCancelled> {}
/** The payment was cancelled while it awaited the buyer: only `cancelled` is set. */
export const PaymentCancelledEventSchema: z.ZodMiniType<PaymentCancelledEvent, unknown> =
  paymentCancelled;

const paymentSettled = paymentEvent('payment.settled');
/**
 * The funds settled: `processing`, `success` and `settled` are set and `status` is still
 * `succeeded`. It may arrive before `payment.succeeded`: fulfil on the first snapshot whose
 * `status` is `succeeded`, whatever its type.
 */
export interface PaymentSettledEvent extends z.output<typeof paymentSettled> {}
/** The funds settled: `processing`, `success` and `settled` are set; `status` stays `succeeded`. */
export const PaymentSettledEventSchema: z.ZodMiniType<PaymentSettledEvent, unknown> =
  paymentSettled;

/** One of the seven documented payment events: `data` is a `PaymentSnapshot`. */
export type PaymentWebhookEvent =
  | PaymentCreatedEvent
  | PaymentProcessingEvent
  | PaymentSucceededEvent
  | PaymentFailedEvent
  | PaymentExpiredEvent
  | PaymentCancelledEvent
  | PaymentSettledEvent;

const PAYMENT_EVENT_SCHEMAS = {
  'payment.created': PaymentCreatedEventSchema,
  'payment.processing': PaymentProcessingEventSchema,
  'payment.succeeded': PaymentSucceededEventSchema,
  'payment.failed': PaymentFailedEventSchema,
  'payment.expired': PaymentExpiredEventSchema,
  'payment.cancelled': PaymentCancelledEventSchema,
  'payment.settled': PaymentSettledEventSchema,
} as const satisfies Record<PaymentWebhookEventType, z.ZodMiniType<PaymentWebhookEvent, unknown>>;

/**
 * Keys of the payment snapshot, each typed `never` on an unknown event's data: in a `case` of a
 * known type, the union with the unknown member then reads the known type's field as it is
 * (`event.data.success.tx_id` in `case 'payment.succeeded'`), not widened by `undefined`.
 */
type NoSnapshotFields = { readonly [K in keyof PaymentSnapshot]: never };

/**
 * The `data` of an event type this SDK does not know: not validated, any fields. Its keys that a
 * payment snapshot also has are typed `never` (not optional), so that in a `switch (event.type)`,
 * which keeps this member in every case, the known cases keep their snapshot's field types
 * (`case 'payment.succeeded': event.data.success.tx_id`); parse it yourself (e.g. with
 * `PaymentSnapshotSchema`) once you know its type.
 */
export interface UnknownWebhookData extends NoSnapshotFields {
  readonly [key: string]: unknown;
}

/**
 * An event of a type the SDK does not know yet (payout events, or types added later): accepted,
 * so that a new type never breaks a receiver. Acknowledge it (2xx) and skip it, or read `data`
 * yourself.
 */
export interface UnknownWebhookEvent {
  /** `evt_…`: the same on every delivery of one event. */
  id: string;
  // `string`, not `string & {}`: TypeScript narrows no union on a `string & {}` member, so a
  // `switch (event.type)` would leave every case the whole union.
  type: string;
  api_version: string;
  /** ISO 8601 UTC. */
  created_at: string;
  data: UnknownWebhookData;
}

/**
 * Any event the service sends: a documented payment event (narrow it with `switch (event.type)`
 * or `isPaymentWebhookEvent`) or an `UnknownWebhookEvent`.
 */
export type WebhookEvent = PaymentWebhookEvent | UnknownWebhookEvent;

/** True for the seven documented payment events, whose `data` is a `PaymentSnapshot`. */
export function isPaymentWebhookEvent(event: WebhookEvent): event is PaymentWebhookEvent {
  return Object.hasOwn(PAYMENT_EVENT_SCHEMAS, event.type);
}

function requiredObject() {
  return z.looseObject(
    {},
    { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an object') },
  );
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

// The envelope every event has, whatever its type: the only fields a body must carry.
const envelope = z.looseObject(
  {
    id: requiredString(),
    type: requiredString(),
    api_version: requiredString(),
    created_at: requiredString(),
    data: requiredObject(),
  },
  { error: 'must be a JSON object (the event envelope)' },
);

/**
 * Any event: the envelope checked (`id`, `type`, `api_version`, `created_at`, `data` required),
 * then, for a documented payment type, `data` against `PaymentSnapshotSchema` and the stages the
 * type implies (a documented event whose snapshot does not match, or lacks such a stage, is
 * refused, naming the field, rather than passed on as an unknown event). Other types pass as `UnknownWebhookEvent`, their `data` unchecked.
 */
export const WebhookEventSchema: z.ZodMiniType<WebhookEvent, unknown> = envelope.check(
  // A check, not `z.pipe` and `z.transform`: the client's schemas use neither, and zod's code for
  // them would load with every client. It runs once the envelope holds, and sets the value.
  z.check((payload) => {
    const event = payload.value;
    if (payload.issues.length > 0 || !Object.hasOwn(PAYMENT_EVENT_SCHEMAS, event.type)) return;
    const data = z.safeParse(PaymentSnapshotSchema, event.data);
    if (data.success) {
      payload.value = { ...event, data: data.data };
      payload.issues.push(...missingStages(event.type, data.data as never));
      return;
    }
    for (const issue of data.error.issues) {
      const input = valueAt(event.data, issue.path);
      // zod/mini has no locale: a missing field would read "Invalid input".
      const message = input === undefined ? 'is required' : issue.message;
      payload.issues.push({
        ...issue,
        message,
        input,
        path: ['data', ...issue.path],
      } as z.core.$ZodRawIssue);
    }
  }),
) as unknown as z.ZodMiniType<WebhookEvent, unknown>;

/**
 * A documented payment event: what `WebhookEventSchema` accepts, less the unknown types. (Not a
 * discriminated union: that would add about 1 KB gzip to the webhooks entry for no other check.)
 */
export const PaymentWebhookEventSchema: z.ZodMiniType<PaymentWebhookEvent, unknown> =
  WebhookEventSchema.check(
    z.check((payload) => {
      if (payload.issues.length > 0 || isPaymentWebhookEvent(payload.value)) return;
      payload.issues.push({
        code: 'custom',
        message: `must be a documented payment event type (${PAYMENT_WEBHOOK_EVENT_TYPES.join(', ')})`,
        input: payload.value.type,
        path: ['type'],
      });
    }),
  ) as unknown as z.ZodMiniType<PaymentWebhookEvent, unknown>;
