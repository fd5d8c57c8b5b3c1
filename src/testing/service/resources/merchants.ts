import { isoTime as iso, type MerchantRecord } from '../../state/records';
import { checkEmail, checkIconUrl, checkName, checkSettlements } from '../http/field-checks';
import {
  idempotent,
  jsonObjectBody,
  type RequestContext,
  throwIfIssues,
} from '../http/request-context';
import { type Issue, json, ServiceError } from '../http/responses';

/** The merchant as every response shows it; `iconUrl` is left out of the create response only. */
export function merchantJson(merchant: MerchantRecord) {
  return {
    id: merchant.id,
    name: merchant.name,
    email: merchant.email,
    status: merchant.status,
    iconUrl: merchant.iconUrl,
    createdAt: iso(merchant.createdAt),
  };
}

export function settlementsJson(merchant: MerchantRecord) {
  return {
    crypto: merchant.crypto.map(({ id, asset, destination }) => ({ id, asset, destination })),
    fiat: merchant.fiat.map(({ id, status, bankType }) => ({ id, status, bankType })),
  };
}

/**
 * The merchant named in the path, or 404 `not_found`: also once it is soft-deleted, unless
 * `deleted` is set (deleting twice answers 200 again).
 */
export function findMerchant(
  ctx: RequestContext,
  id: string | undefined,
  { deleted = false } = {},
): MerchantRecord {
  const merchant = id === undefined ? undefined : ctx.store.merchants.get(id);
  if (!merchant || (merchant.deletedAt !== undefined && !deleted)) {
    throw new ServiceError(404, 'not_found', `Merchant ${id} not found`, {
      details: { merchantId: id },
    });
  }
  return merchant;
}

/** POST /v1/merchants */
export function createMerchant(ctx: RequestContext): Response {
  const body = jsonObjectBody(ctx);
  return idempotent(ctx, { required: true, request: body }, () => {
    const issues: Issue[] = [];
    checkName(issues, 'merchantName', body.merchantName);
    checkEmail(issues, 'merchantEmail', body.merchantEmail);
    if (body.iconUrl !== undefined) checkIconUrl(issues, 'iconUrl', body.iconUrl);
    throwIfIssues(issues);
    const merchant: MerchantRecord = {
      id: ctx.store.rng.id('mer'),
      name: body.merchantName as string,
      email: body.merchantEmail as string,
      status: 'active',
      iconUrl: (body.iconUrl as string | null | undefined) ?? null,
      createdAt: ctx.now,
      crypto: [],
      fiat: [],
    };
    ctx.store.merchants.set(merchant.id, merchant);
    const { iconUrl: _notInCreateResponse, ...created } = merchantJson(merchant);
    return { status: 201, body: { merchant: created } };
  });
}

/** GET /v1/merchants/{merchantId} */
export function getMerchant(ctx: RequestContext): Response {
  const merchant = findMerchant(ctx, ctx.params[0]);
  return json(200, {
    merchant: { ...merchantJson(merchant), settlements: settlementsJson(merchant) },
  });
}

/** PATCH /v1/merchants/{merchantId} */
export function updateMerchant(ctx: RequestContext): Response {
  const merchant = findMerchant(ctx, ctx.params[0]);
  const body = jsonObjectBody(ctx);
  const issues: Issue[] = [];
  const { merchantName, merchantEmail, iconUrl } = body;
  if (merchantName === undefined && merchantEmail === undefined && iconUrl === undefined) {
    issues.push({
      field: 'body',
      message: 'must set at least one of merchantName, merchantEmail, iconUrl',
    });
  }
  if (merchantName !== undefined) checkName(issues, 'merchantName', merchantName);
  if (merchantEmail !== undefined) checkEmail(issues, 'merchantEmail', merchantEmail);
  if (iconUrl !== undefined) checkIconUrl(issues, 'iconUrl', iconUrl);
  throwIfIssues(issues);
  if (typeof merchantName === 'string') merchant.name = merchantName;
  if (typeof merchantEmail === 'string') merchant.email = merchantEmail;
  if (iconUrl !== undefined) merchant.iconUrl = iconUrl as string | null;
  return json(200, { merchant: merchantJson(merchant) });
}

/** POST /v1/merchants/{merchantId}/settlements/crypto */
export function createCryptoSettlements(ctx: RequestContext): Response {
  const merchant = findMerchant(ctx, ctx.params[0]);
  const body = jsonObjectBody(ctx);
  return idempotent(ctx, { required: true, request: body }, () => {
    const issues: Issue[] = [];
    checkSettlements(issues, body.settlements);
    throwIfIssues(issues);
    const requested = body.settlements as { asset: string; destination: string }[];
    // One settlement per (merchant, asset): EVM addresses compare regardless of case.
    const taken = new Map(merchant.crypto.map((s) => [s.asset.toLowerCase(), s.id]));
    const seen = new Set<string>();
    for (const { asset } of requested) {
      const key = asset.toLowerCase();
      const existing = taken.get(key);
      if (existing !== undefined || seen.has(key)) {
        throw new ServiceError(
          409,
          'settlement_asset_conflict',
          existing !== undefined
            ? `Merchant already has a settlement for ${asset}`
            : `Asset ${asset} appears more than once in the request`,
          { details: { asset, ...(existing !== undefined ? { settlementId: existing } : {}) } },
        );
      }
      seen.add(key);
    }
    const created = requested.map(({ asset, destination }) => ({
      id: ctx.store.rng.id('cset'),
      asset,
      destination,
    }));
    merchant.crypto.push(...created);
    return { status: 201, body: { settlements: created } };
  });
}
