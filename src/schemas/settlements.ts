import * as z from 'zod/mini';
import {
  isCaip10AccountId,
  isCaip19AssetId,
  isOnAssetChain,
  offChainMessage,
  SETTLEMENTS_PER_CALL,
} from '../rules/settlements';
import { exact, responseObject, satisfying, stringField } from './common';

const cryptoSettlement = responseObject({
  id: stringField,
  /** CAIP-19 asset id. */
  asset: stringField,
  /** CAIP-10 account id. */
  destination: stringField,
});
/** A registered crypto settlement: its id, CAIP-19 asset and CAIP-10 destination. */
export interface CryptoSettlement extends z.output<typeof cryptoSettlement> {}
/** A crypto settlement destination registered for a merchant. */
export const CryptoSettlementSchema: z.ZodMiniType<CryptoSettlement> = cryptoSettlement;

/** One settlement to register: an asset and the account that receives it. */
export const CryptoSettlementParamsSchema = exact({
  /** CAIP-19 asset id, e.g. `eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913`. */
  asset: satisfying(
    isCaip19AssetId,
    'must be a CAIP-19 asset id: <chain_namespace>:<chain_reference>/<asset_namespace>:<asset_reference>',
  ),
  /** CAIP-10 account id, e.g. `eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb`. */
  destination: satisfying(
    isCaip10AccountId,
    'must be a CAIP-10 account id: <chain_namespace>:<chain_reference>:<address>',
  ),
});
/** One settlement to register with `settlements.createCrypto`: `asset` and `destination`. */
export type CryptoSettlementParams = z.input<typeof CryptoSettlementParamsSchema>;

const SETTLEMENT_COUNT = `must hold ${SETTLEMENTS_PER_CALL.min} to ${SETTLEMENTS_PER_CALL.max} settlements`;

/** 1 to 50 settlements per call, each destination on its asset's chain. */
export const CryptoSettlementListParamsSchema = z
  .array(CryptoSettlementParamsSchema, { error: 'must be an array of { asset, destination }' })
  .check(
    z.minLength(SETTLEMENTS_PER_CALL.min, SETTLEMENT_COUNT),
    z.maxLength(SETTLEMENTS_PER_CALL.max, SETTLEMENT_COUNT),
    // zod runs this even when an entry failed its shape: chains compare only two valid ids.
    z.superRefine((list, ctx) => {
      list.forEach((entry: Partial<Record<'asset' | 'destination', unknown>> | null, i) => {
        const { asset, destination } = entry ?? {};
        if (typeof asset !== 'string' || typeof destination !== 'string') return;
        if (!isCaip19AssetId(asset) || !isCaip10AccountId(destination)) return;
        if (isOnAssetChain(asset, destination)) return;
        ctx.issues.push({
          code: 'custom',
          message: offChainMessage(asset),
          path: [i, 'destination'],
          input: destination,
        });
      });
    }),
  );

export const CryptoSettlementsEnvelopeSchema = responseObject({
  settlements: z.array(CryptoSettlementSchema),
});
