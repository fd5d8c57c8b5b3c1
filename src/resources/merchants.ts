import type { ApiPromise } from '../core/api-promise';
import { path } from '../core/path';
import type { CreateRequestOptions, RequestOptions } from '../core/transport';
import { parseRequest } from '../core/validate';
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
import type { ResourceContext } from './resource';

/** Create, update and read the merchants of the authenticated partner. */
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
        path: urlPath,
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
        path: path(operation, '/v1/merchants/{merchantId}', { merchantId }),
        response: MerchantWithSettlementsEnvelopeSchema,
        select: (envelope) => envelope.merchant,
        options,
      };
    });
  }
}
