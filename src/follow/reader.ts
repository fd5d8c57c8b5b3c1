import type { LevelLogger } from '../core/logger';
import type { Redactor } from '../core/safety/redact';
import type { TelemetryHandle } from '../core/telemetry/option';
import type { MerchantPaymentsPage } from '../schemas/lists';
import type { PartnerPaymentListParams } from '../schemas/partner-payments';
import type { PaymentStatusResult } from '../schemas/payment-status';
import type { HoldLimit } from './hold-limit';

/**
 * How follow code reads payments: a port the payments resource builds and hands in, so nothing in
 * `follow/` imports `resources/` (imports go core <- follow <- resources <- client).
 */
export interface PaymentReader {
  /**
   * One status read: the merchant side (`GET /v1/payments/{id}/status`) when `merchantId` is set,
   * else the gateway's. Immediate when `maxPollMs` is undefined; held up to `maxPollMs` otherwise,
   * and then ONE attempt: a transport retry would ask again for the hold an intermediary has just
   * cut, and hide how long the cut attempt lasted (the follow backs off and reads again itself).
   */
  status(
    paymentId: string,
    merchantId: string | undefined,
    maxPollMs: number | undefined,
    signal: AbortSignal,
  ): PromiseLike<PaymentStatusResult>;
  /** The pages of the partner-wide list (`GET /v1/payments`), fetched one at a time as iterated. */
  sweep(params: PartnerPaymentListParams, signal: AbortSignal): AsyncIterable<MerchantPaymentsPage>;
}

/** What a follow (single or many) needs from its client. */
export interface FollowContext {
  reader: PaymentReader;
  /**
   * The merchant to read for when neither the call nor the payment names one; undefined when the
   * client cannot read the merchant side (the app scheme) or knows no merchant.
   */
  merchantId: string | undefined;
  /** False for the app scheme: it always reads the gateway's side. */
  merchantSide: boolean;
  /** The client's limit on held reads, learned from intermediaries that cut idle requests. */
  holdLimit: HoldLimit;
  logger: LevelLogger;
  redactor: Redactor;
  /** The client's spans and metrics, when on. */
  telemetry?: TelemetryHandle | undefined;
}
