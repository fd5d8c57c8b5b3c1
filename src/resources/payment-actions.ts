import type { ApiPromise } from '../core/api-promise';
import { path } from '../core/http/path';
import type { CreateRequestOptions, RequestOptions } from '../core/http/transport';
import { parseRequest } from '../core/validate';
import {
  type PaymentActionParams,
  PaymentActionParamsSchema,
  type PaymentCancellation,
  PaymentCancellationSchema,
  type PaymentDetails,
  PaymentDetailsSchema,
  type PaymentStatusParams,
  PaymentStatusParamsSchema,
  type PaymentStatusResult,
} from '../schemas/payment-status';
import { merchantIdFor, type ResourceContext } from './resource';
import { paymentStatus } from './status-read';

/** The merchant of a call, checked like any header value: the call's own, else the client's. */

/** GET /v1/payments/{id}: the merchant's view of one payment. */
export function paymentDetails(
  context: ResourceContext,
  paymentId: string,
  params: PaymentActionParams,
  options: RequestOptions | undefined,
): ApiPromise<PaymentDetails> {
  return context.transport.request(() => {
    const operation = 'payments.details';
    const input = parseRequest(operation, PaymentActionParamsSchema, params);
    const merchantId = merchantIdFor(context, operation, input.merchantId);
    return {
      operation,
      method: 'GET',
      ...path(operation, '/v1/payments/{paymentId}', { paymentId }),
      headers: { 'Merchant-Id': merchantId },
      response: PaymentDetailsSchema,
      select: (body) => ({ ...body, paymentId }),
      options,
    };
  });
}

/** `payments.status`: the merchant-side read, its options checked before sending. */
export function checkedPaymentStatus(
  context: ResourceContext,
  paymentId: string,
  params: PaymentStatusParams,
  options: RequestOptions | undefined,
): ApiPromise<PaymentStatusResult> {
  const operation = 'payments.status';
  return paymentStatus(
    context,
    operation,
    paymentId,
    () => {
      const input = parseRequest(operation, PaymentStatusParamsSchema, params);
      return {
        merchantId: merchantIdFor(context, operation, input.merchantId),
        maxPollMs: input.maxPollMs,
      };
    },
    options,
  );
}

/** POST /v1/payments/{id}/cancel, always with an Idempotency-Key so a retry cannot act twice. */
export function cancelPayment(
  context: ResourceContext,
  paymentId: string,
  params: PaymentActionParams,
  options: CreateRequestOptions | undefined,
): ApiPromise<PaymentCancellation> {
  return context.transport.request(() => {
    const operation = 'payments.cancel';
    const input = parseRequest(operation, PaymentActionParamsSchema, params);
    const merchantId = merchantIdFor(context, operation, input.merchantId);
    return {
      operation,
      method: 'POST',
      ...path(operation, '/v1/payments/{paymentId}/cancel', { paymentId }),
      headers: { 'Merchant-Id': merchantId },
      idempotency: 'always',
      response: PaymentCancellationSchema,
      select: (cancellation) => cancellation,
      options,
    };
  });
}
