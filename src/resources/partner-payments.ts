import type { RequestOptions } from '../core/http/transport';
import type { PagePromise } from '../core/page-promise';
import type { MerchantPayment, MerchantPaymentsPage } from '../schemas/lists';
import type { PartnerPaymentListParams } from '../schemas/partner-payments';
import { listPartnerPayments } from './payment-list';
import type { ResourceContext } from './resource';

/** The partner's view of payments: every merchant's at once, or the ones you name. */
export class PartnerPayments {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * Lists the payments of the partner's merchants (GET /v1/payments) with the filters, sorts,
   * pages and stats of `payments.list`. `merchantId` (one id or an array) is sent as repeated
   * `merchantId` query parameters; left out, the list spans all your merchants. No `Merchant-Id`
   * header is sent, and the client's default `merchantId` does not apply here.
   *
   * @example
   * ```ts
   * const page = await gateway.partnerPayments.list({ merchantId: ['m_1', 'm_2'], limit: 100 });
   * console.log(page.stats.totalTransactions);
   * for await (const payment of gateway.partnerPayments.list({ status: 'succeeded' })) {
   *   console.log(payment.merchant.id, payment.paymentId);
   * }
   * ```
   * @throws {RequestValidationError} before sending, when a query value breaks a rule (an empty
   * `merchantId` or empty array included).
   * @throws {PaginationError} while iterating, when the service repeats a cursor.
   */
  list(
    params: PartnerPaymentListParams = {},
    options?: RequestOptions,
  ): PagePromise<MerchantPayment, MerchantPaymentsPage> {
    return listPartnerPayments(this.#context, params, options);
  }
}
