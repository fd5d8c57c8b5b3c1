// The status read both sides make, apart from payment-actions.ts so the buyer entry carries none
// of the merchant-side schemas that module imports.
import type { ApiPromise } from '../core/api-promise';
import { path } from '../core/http/path';
import type { RequestOptions } from '../core/http/transport';
import { type PaymentStatusResult, PaymentStatusResultSchema } from '../schemas/payment-view';
import type { BaseContext } from './resource';

/** Which status read to make: the merchant side when `merchantId` is set, and how long to hold it. */
export interface StatusRead {
  merchantId?: string | undefined;
  maxPollMs?: number | undefined;
}

/**
 * GET /v1/payments/{id}/status (a merchant id given) or /v1/gateway/payment/{id}/status (none:
 * the buyer side, which polling uses for app-scheme clients). `maxPollMs` holds the read open.
 * `read` runs when the request is built, so its validation failures reject the promise.
 */
export function paymentStatus(
  context: BaseContext,
  operation: string,
  paymentId: string,
  read: () => StatusRead,
  options: RequestOptions | undefined,
): ApiPromise<PaymentStatusResult> {
  return context.transport.request(() => {
    const { merchantId, maxPollMs } = read();
    const template =
      merchantId === undefined
        ? '/v1/gateway/payment/{paymentId}/status'
        : '/v1/payments/{paymentId}/status';
    const query = new URLSearchParams();
    if (maxPollMs !== undefined && maxPollMs > 0) query.set('maxPollMs', String(maxPollMs));
    return {
      operation,
      method: 'GET',
      ...path(operation, template, { paymentId }),
      query,
      ...(merchantId === undefined ? {} : { headers: { 'Merchant-Id': merchantId } }),
      response: PaymentStatusResultSchema,
      select: (result) => result,
      // The service may rightly hold the read this long before answering.
      extraTimeoutMs: maxPollMs ?? 0,
      options,
    };
  });
}
