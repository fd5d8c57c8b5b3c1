import { CAIP10_PATTERN } from '../../../rules/settlements';
import type { CryptoSettlementRecord, MerchantRecord } from '../../state/records';
import { checkSameChain } from '../http/field-checks';
import { jsonObjectBody, type RequestContext, throwIfIssues } from '../http/request-context';
import { type Issue, json, ServiceError } from '../http/responses';
import { findMerchant, settlementsJson } from './merchants';

/** The settlement named in the path, or 404 `not_found`; an id over 256 characters is a 400. */
function findSettlement(ctx: RequestContext, merchant: MerchantRecord): CryptoSettlementRecord {
  const id = ctx.params[1] ?? '';
  if ([...id].length > 256) {
    throw new ServiceError(400, 'params_validation', 'id must be 1 to 256 characters', {
      issues: [{ field: 'id', message: 'must be 1 to 256 characters' }],
    });
  }
  const settlement = merchant.crypto.find((s) => s.id === id);
  if (!settlement) {
    throw new ServiceError(404, 'not_found', `Settlement ${id} not found`, {
      details: { merchantId: merchant.id, settlementId: id },
    });
  }
  return settlement;
}

/** GET /v1/merchants/{merchantId}/settlements: `{ fiat, crypto }`. */
export function listSettlements(ctx: RequestContext): Response {
  const { crypto, fiat } = settlementsJson(findMerchant(ctx, ctx.params[0]));
  return json(200, { fiat, crypto });
}

/**
 * PUT /v1/merchants/{merchantId}/settlements/crypto/{id}: a new CAIP-10 destination. One on
 * another chain than the asset's is 400 `params_validation` with an issue on `destination`.
 */
export function updateCryptoSettlement(ctx: RequestContext): Response {
  const merchant = findMerchant(ctx, ctx.params[0]);
  const settlement = findSettlement(ctx, merchant);
  const body = jsonObjectBody(ctx);
  const issues: Issue[] = [];
  const { destination } = body;
  if (typeof destination !== 'string' || destination.length < 1 || destination.length > 256) {
    issues.push({ field: 'destination', message: 'must be a string of 1 to 256 characters' });
  } else if (!CAIP10_PATTERN.test(destination)) {
    issues.push({ field: 'destination', message: 'must be a CAIP-10 account id' });
  } else {
    checkSameChain(issues, 'destination', settlement.asset, destination);
  }
  throwIfIssues(issues);
  settlement.destination = destination as string;
  return json(200, {
    id: settlement.id,
    asset: settlement.asset,
    destination: settlement.destination,
  });
}

/**
 * DELETE /v1/merchants/{merchantId}/settlements/crypto/{id}: removes it for good, so deleting it
 * again is 404 `not_found`.
 */
export function deleteCryptoSettlement(ctx: RequestContext): Response {
  const merchant = findMerchant(ctx, ctx.params[0]);
  const settlement = findSettlement(ctx, merchant);
  merchant.crypto = merchant.crypto.filter((s) => s !== settlement);
  return json(200, { id: settlement.id, deleted: true });
}
