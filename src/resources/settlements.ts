import type { ApiPromise } from '../core/api-promise';
import { type ApiError, NotFoundError } from '../core/errors/api-error';
import { path, type Route } from '../core/http/path';
import type { CreateRequestOptions, RequestOptions } from '../core/http/transport';
import { parseRequest } from '../core/validate';
import {
  type CryptoSettlementDeletion,
  CryptoSettlementDeletionSchema,
  type CryptoSettlementUpdateParams,
  CryptoSettlementUpdateParamsSchema,
  SettlementIdSchema,
  type SettlementList,
  SettlementListSchema,
} from '../schemas/settlement-management';
import {
  type CryptoSettlement,
  CryptoSettlementListParamsSchema,
  type CryptoSettlementParams,
  CryptoSettlementSchema,
  CryptoSettlementsEnvelopeSchema,
} from '../schemas/settlements';
import type { ResourceContext } from './resource';

/** Settlement destinations of a merchant: register, list, change and delete them. */
export class Settlements {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * Registers 1 to 50 crypto settlement destinations for a merchant, one per asset. Always sends
   * an Idempotency-Key, reused by every retry.
   *
   * @example
   * ```ts
   * await gateway.settlements.createCrypto(merchant.id, [
   *   { asset: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
   *     destination: 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb' },
   * ]);
   * ```
   * @throws {ConflictError} code `settlement_asset_conflict` when the asset already has one.
   */
  createCrypto(
    merchantId: string,
    settlements: readonly CryptoSettlementParams[],
    options?: CreateRequestOptions,
  ): ApiPromise<CryptoSettlement[]> {
    return this.#context.transport.request(() => {
      const operation = 'settlements.createCrypto';
      const urlPath = path(operation, '/v1/merchants/{merchantId}/settlements/crypto', {
        merchantId,
      });
      const list = parseRequest(
        operation,
        CryptoSettlementListParamsSchema,
        settlements,
        'settlements',
      );
      return {
        operation,
        method: 'POST',
        ...urlPath,
        body: { settlements: list },
        idempotency: 'always',
        response: CryptoSettlementsEnvelopeSchema,
        select: (envelope) => envelope.settlements,
        options,
      };
    });
  }

  /**
   * Reads a merchant's settlements: `{ fiat, crypto }`, the same lists `merchants.get` shows.
   *
   * @example
   * ```ts
   * const { crypto, fiat } = await gateway.settlements.list('m_123');
   * ```
   * @throws {NotFoundError} when the merchant does not exist (or was deleted).
   */
  list(merchantId: string, options?: RequestOptions): ApiPromise<SettlementList> {
    return this.#context.transport.request(() => {
      const operation = 'settlements.list';
      return {
        operation,
        method: 'GET',
        ...path(operation, '/v1/merchants/{merchantId}/settlements', { merchantId }),
        response: SettlementListSchema,
        select: (list) => list,
        options,
      };
    });
  }

  /**
   * Points a crypto settlement at a new destination; its asset cannot change. The destination
   * must be a CAIP-10 account on the asset's chain: the SDK checks its shape, the service refuses
   * an account on another chain (`InvalidRequestError`). A PUT is safe to retry, and is.
   *
   * @example
   * ```ts
   * const settlement = await gateway.settlements.updateCrypto('m_123', 'cset_1', {
   *   destination: 'eip155:8453:0x1111111111111111111111111111111111111111',
   * });
   * ```
   * @throws {RequestValidationError} before sending, for an empty id, an id over 255
   * characters, or a destination that is not CAIP-10 (1 to 256 characters).
   * @throws {InvalidRequestError} when the destination is on another chain than the asset.
   * @throws {NotFoundError} when the merchant or the settlement does not exist.
   */
  updateCrypto(
    merchantId: string,
    settlementId: string,
    params: CryptoSettlementUpdateParams,
    options?: RequestOptions,
  ): ApiPromise<CryptoSettlement> {
    return this.#context.transport.request(() => {
      const operation = 'settlements.updateCrypto';
      const urlPath = settlementPath(operation, merchantId, settlementId);
      const body = parseRequest(operation, CryptoSettlementUpdateParamsSchema, params);
      return {
        operation,
        method: 'PUT',
        ...urlPath,
        body,
        response: CryptoSettlementSchema,
        select: (settlement) => settlement,
        options,
      };
    });
  }

  /**
   * Deletes a crypto settlement. Retried after a connection error, timeout or 5xx; when such a
   * retry finds the settlement gone (404), the earlier attempt deleted it, and the call resolves
   * `{ id, deleted: true }`. A 404 on the first attempt is a `NotFoundError`.
   *
   * @example
   * ```ts
   * await gateway.settlements.deleteCrypto('m_123', 'cset_1');
   * ```
   * @throws {RequestValidationError} before sending, for an empty id or one over 255 characters.
   * @throws {NotFoundError} when the merchant or the settlement does not exist.
   */
  deleteCrypto(
    merchantId: string,
    settlementId: string,
    options?: RequestOptions,
  ): ApiPromise<CryptoSettlementDeletion> {
    return this.#context.transport.request(() => {
      const operation = 'settlements.deleteCrypto';
      return {
        operation,
        method: 'DELETE',
        ...settlementPath(operation, merchantId, settlementId),
        response: CryptoSettlementDeletionSchema,
        select: (deletion) => deletion,
        options,
        recoverAfterUnknownOutcome: (error: ApiError) =>
          error instanceof NotFoundError ? { id: settlementId, deleted: true } : undefined,
      };
    });
  }
}

/** …/settlements/crypto/{id}, the settlement id checked (1 to 255 characters) before encoding. */
function settlementPath(operation: string, merchantId: string, settlementId: string): Route {
  const urlPath = path(operation, '/v1/merchants/{merchantId}/settlements/crypto/{settlementId}', {
    merchantId,
    settlementId,
  });
  parseRequest(operation, SettlementIdSchema, settlementId, 'settlementId');
  return urlPath;
}
