import type { ApiPromise } from '../core/api-promise';
import { path } from '../core/path';
import type { CreateRequestOptions } from '../core/transport';
import { parseRequest } from '../core/validate';
import {
  type CryptoSettlement,
  CryptoSettlementListParamsSchema,
  type CryptoSettlementParams,
  CryptoSettlementsEnvelopeSchema,
} from '../schemas/settlements';
import type { ResourceContext } from './resource';

/** Settlement destinations of a merchant. */
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
        path: urlPath,
        body: { settlements: list },
        idempotency: 'always',
        response: CryptoSettlementsEnvelopeSchema,
        select: (envelope) => envelope.settlements,
        options,
      };
    });
  }
}
