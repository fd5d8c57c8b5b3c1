import type { ApiPromise } from '../core/api-promise';
import { path } from '../core/http/path';
import type { CreateRequestOptions, RequestOptions } from '../core/http/transport';
import { PagePromise } from '../core/page-promise';
import { parseRequest } from '../core/validate';
import {
  type MerchantDeletion,
  MerchantDeletionSchema,
  type MerchantListParams,
  MerchantListParamsSchema,
  type MerchantsPage,
  MerchantsPageSchema,
} from '../schemas/merchant-list';
import {
  type Merchant,
  type MerchantCreateParams,
  MerchantCreateParamsSchema,
  MerchantEnvelopeSchema,
  type MerchantUpdateParams,
  MerchantUpdateParamsSchema,
  type MerchantWithSettlements,
  MerchantWithSettlementsEnvelopeSchema,
} from '../schemas/merchants';
import { startCursorOf, toQuery } from './payment-list';
import type { ResourceContext } from './resource';

/** Create, update, read, list and delete the merchants of the authenticated partner. */
export class Merchants {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * Creates a merchant. Always sends an Idempotency-Key (yours, or one generated per call and
   * reused by every retry), so a retried create never makes a second merchant.
   *
   * @example
   * ```ts
   * const merchant = await gateway.merchants.create({ merchantName: 'Acme', merchantEmail: 'pay@acme.io' });
   * ```
   * @throws {RequestValidationError} before sending, when a field breaks a rule.
   * @throws {ConflictError} when `idempotencyKey` was used before with another body.
   */
  create(params: MerchantCreateParams, options?: CreateRequestOptions): ApiPromise<Merchant> {
    return this.#context.transport.request(() => {
      const operation = 'merchants.create';
      const body = parseRequest(operation, MerchantCreateParamsSchema, params);
      return {
        operation,
        method: 'POST',
        path: '/v1/merchants',
        body,
        idempotency: 'always',
        response: MerchantEnvelopeSchema,
        select: (envelope) => envelope.merchant,
        options,
      };
    });
  }

  /**
   * Updates a merchant's name, email or logo (`iconUrl: null` removes it). At least one field.
   * @throws {NotFoundError} when the merchant does not exist.
   */
  update(
    merchantId: string,
    params: MerchantUpdateParams,
    options?: RequestOptions,
  ): ApiPromise<Merchant> {
    return this.#context.transport.request(() => {
      const operation = 'merchants.update';
      const urlPath = path(operation, '/v1/merchants/{merchantId}', { merchantId });
      const body = parseRequest(operation, MerchantUpdateParamsSchema, params);
      return {
        operation,
        method: 'PATCH',
        ...urlPath,
        body,
        response: MerchantEnvelopeSchema,
        select: (envelope) => envelope.merchant,
        options,
      };
    });
  }

  /**
   * Reads a merchant with its crypto and fiat settlements.
   * @throws {NotFoundError} when the merchant does not exist.
   */
  get(merchantId: string, options?: RequestOptions): ApiPromise<MerchantWithSettlements> {
    return this.#context.transport.request(() => {
      const operation = 'merchants.get';
      return {
        operation,
        method: 'GET',
        ...path(operation, '/v1/merchants/{merchantId}', { merchantId }),
        response: MerchantWithSettlementsEnvelopeSchema,
        select: (envelope) => envelope.merchant,
        options,
      };
    });
  }

  /**
   * Lists the partner's merchants (deleted ones are left out), newest first as the service
   * orders them. `await` it for the first page with `totalCount`; `for await` it for every
   * merchant of every page, each page fetched only when the previous one is used up.
   *
   * `status` is one of `active`, `inactive`, `suspended`; `search` (1 to 256 characters) matches
   * the name or id, case-insensitively; `limit` is merchants per page, 1 to 100 (the service's
   * default: 20).
   *
   * @example
   * ```ts
   * const { merchants, totalCount } = await gateway.merchants.list({ status: 'active', limit: 50 });
   * for await (const merchant of gateway.merchants.list({ search: 'coffee' })) {
   *   console.log(merchant.id, merchant.name);
   * }
   * ```
   * @throws {RequestValidationError} before sending, when a query value breaks a rule.
   * @throws {PaginationError} while iterating, when the service repeats a cursor.
   */
  list(
    params: MerchantListParams = {},
    options?: RequestOptions,
  ): PagePromise<Merchant, MerchantsPage> {
    const { transport } = this.#context;
    const operation = 'merchants.list';
    return new PagePromise({
      operation,
      redact: (text) => transport.config.redactor.string(text),
      startCursor: startCursorOf(params),
      items: (page) => page.merchants,
      nextCursor: (page) => page.nextCursor,
      fetch: (cursor) =>
        transport.request(() => {
          const input = parseRequest(operation, MerchantListParamsSchema, params);
          return {
            operation,
            method: 'GET',
            path: '/v1/merchants',
            query: toQuery([
              ['status', input.status],
              ['search', input.search],
              ['cursor', cursor ?? input.cursor],
              ['limit', input.limit],
            ]),
            response: MerchantsPageSchema,
            select: (page) => page,
            options,
          };
        }),
    });
  }

  /**
   * Deletes a merchant. The service keeps it (a soft delete) but it leaves `merchants.list` and
   * takes no new payments; deleting it again answers `deleted: true` too, so the call is safe to
   * retry.
   *
   * @example
   * ```ts
   * const { deleted } = await gateway.merchants.delete('m_123');
   * ```
   * @throws {NotFoundError} when the merchant never existed.
   */
  delete(merchantId: string, options?: RequestOptions): ApiPromise<MerchantDeletion> {
    return this.#context.transport.request(() => {
      const operation = 'merchants.delete';
      return {
        operation,
        method: 'DELETE',
        ...path(operation, '/v1/merchants/{merchantId}', { merchantId }),
        response: MerchantDeletionSchema,
        select: (deletion) => deletion,
        options,
      };
    });
  }
}
