import * as z from 'zod/mini';
import { ID_LENGTH } from '../rules/ids';
import { booleanField, exact, responseObject, stringField, text } from './common';
import { FiatSettlementSchema } from './merchants';
import { CAIP10_PATTERN } from './primitives';
import { CryptoSettlementSchema } from './settlements';

/** What `settlements.list` returns: a merchant's fiat and crypto settlements. */
export const SettlementListSchema = responseObject({
  fiat: z.array(FiatSettlementSchema),
  crypto: z.array(CryptoSettlementSchema),
});
/** A merchant's settlements: `fiat` and `crypto`, each an array (maybe empty). */
export interface SettlementList extends z.output<typeof SettlementListSchema> {}

/**
 * A settlement id in a path: 1 to 255 characters, the bound of every id in a path (the published
 * contract says 256 for this one; one rule for all ids, and no real id comes near either).
 */
export const SettlementIdSchema = text(ID_LENGTH.min, ID_LENGTH.max);

/** Body of `settlements.updateCrypto`: the new destination; the asset cannot change. */
export const CryptoSettlementUpdateParamsSchema = exact({
  /**
   * CAIP-10 account id on the asset's chain, 1 to 256 characters, e.g.
   * `eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb`.
   */
  destination: text(1, 256).check(
    z.regex(
      CAIP10_PATTERN,
      'must be a CAIP-10 account id: <chain_namespace>:<chain_reference>:<address>',
    ),
  ),
});
/** Body of `settlements.updateCrypto`: `{ destination }`, a CAIP-10 account on the asset's chain. */
export type CryptoSettlementUpdateParams = z.input<typeof CryptoSettlementUpdateParamsSchema>;

/** What `settlements.deleteCrypto` returns. */
export const CryptoSettlementDeletionSchema = responseObject({
  id: stringField,
  /** True once the settlement is deleted. */
  deleted: booleanField,
});
/** What `settlements.deleteCrypto` returns: the settlement's `id` and `deleted`. */
export interface CryptoSettlementDeletion extends z.output<typeof CryptoSettlementDeletionSchema> {}
