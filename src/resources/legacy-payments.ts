import { warnDeprecatedOnce } from '../core/deprecation';
import { path } from '../core/http/path';
import type { RequestOptions } from '../core/http/transport';
import { PagePromise } from '../core/page-promise';
import { parseRequest } from '../core/validate';
import {
  type LegacyPayment,
  type LegacyPaymentListParams,
  LegacyPaymentListParamsSchema,
  type LegacyPaymentsPage,
  LegacyPaymentsPageSchema,
} from '../schemas/lists';
import { startCursorOf, toQuery } from './payment-list';
import type { ResourceContext } from './resource';

const DEPRECATION_CODE = 'MERCHANT_GATEWAY_LEGACY_LIST';
const DEPRECATION_MESSAGE =
  'legacyPayments.list (GET /v1/merchants/{merchant_id}/payments) is deprecated by the service: use payments.list instead';

/** @deprecated The path-based list of a merchant's payments. Use `payments.list` instead. */
export class LegacyPayments {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * Lists a merchant's payments through the service's deprecated path-based list, with its
   * snake_case names. Sends `X-Api-Key` with the client's `legacyApiKey`, or the partner
   * `Api-Key` when there is none. The first call in a process warns once: through your `logger`
   * when you configured one (whatever `logLevel`), else `process.emitWarning` (code
   * `MERCHANT_GATEWAY_LEGACY_LIST`), else `console.warn`.
   *
   * @deprecated Use payments.list instead.
   * @example
   * ```ts
   * for await (const payment of gateway.legacyPayments.list('m_123', { status: 'succeeded' })) {
   *   console.log(payment.payment_id, payment.fiat_amount);
   * }
   * ```
   * @throws {RequestValidationError} before sending, when the id or a query value breaks a rule.
   * @throws {AuthenticationError} code `missing_api_key` or `invalid_api_key`.
   * @throws {PaginationError} while iterating, when the service repeats a cursor.
   */
  list(
    merchantId: string,
    params: LegacyPaymentListParams = {},
    options?: RequestOptions,
  ): PagePromise<LegacyPayment, LegacyPaymentsPage> {
    const { transport } = this.#context;
    warnDeprecatedOnce(DEPRECATION_CODE, DEPRECATION_MESSAGE, transport.config.logger);
    const operation = 'legacyPayments.list';
    return new PagePromise({
      operation,
      redact: (text) => transport.config.redactor.string(text),
      startCursor: startCursorOf(params),
      items: (page) => page.data,
      nextCursor: (page) => page.next_cursor,
      fetch: (cursor) =>
        transport.request(() => {
          const urlPath = path(operation, '/v1/merchants/{merchant_id}/payments', {
            merchant_id: merchantId,
          });
          const input = parseRequest(operation, LegacyPaymentListParamsSchema, params);
          const query = toQuery([
            ['start_ts', input.start_ts],
            ['end_ts', input.end_ts],
            ['asset', input.asset],
            ['network', input.network],
            ['sort_by', input.sort_by],
            ['sort_dir', input.sort_dir],
            ['cursor', cursor ?? input.cursor],
            ['limit', input.limit],
            ['status', input.status],
          ]);
          return {
            operation,
            method: 'GET',
            ...urlPath,
            query,
            auth: 'legacy',
            response: LegacyPaymentsPageSchema,
            select: (page) => page,
            options,
          };
        }),
    });
  }
}
