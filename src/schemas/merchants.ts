import * as z from 'zod/mini';
import { EMAIL_PATTERN, isIconUrl, MERCHANT_NAME_LENGTH } from '../rules/merchants';
import {
  exact,
  matching,
  maybeString,
  openEnum,
  responseObject,
  satisfying,
  stringField,
  text,
} from './common';
import { CryptoSettlementSchema } from './settlements';

/** Merchant statuses the service documents; others may come. */
export type MerchantStatus = 'active' | 'inactive' | 'suspended' | (string & {});

// Each response shape is built unnamed, given a named interface (so hovers say `Merchant`),
// and exported as a schema typed by that interface.

const merchantShape = {
  id: stringField,
  name: stringField,
  email: z.nullable(stringField),
  status: openEnum<MerchantStatus>(),
  iconUrl: maybeString,
  /** ISO 8601. */
  createdAt: stringField,
};
const merchant = responseObject(merchantShape);
/** A merchant as `merchants.create` and `merchants.update` return it. */
export interface Merchant extends z.output<typeof merchant> {}
/** A merchant as the service returns it. `iconUrl` is absent from the create response. */
export const MerchantSchema: z.ZodMiniType<Merchant> = merchant;

/** Fiat statuses seen: `active`; others may come. */
export type FiatSettlementStatus = 'active' | (string & {});

const fiatSettlement = responseObject({
  id: stringField,
  status: openEnum<FiatSettlementStatus>(),
  bankType: stringField,
});
/** A fiat settlement of a merchant, as `merchants.get` shows it. */
export interface FiatSettlement extends z.output<typeof fiatSettlement> {}
/** A fiat settlement, as listed in a merchant record. */
export const FiatSettlementSchema: z.ZodMiniType<FiatSettlement> = fiatSettlement;

const merchantSettlements = responseObject({
  crypto: z.array(CryptoSettlementSchema),
  fiat: z.array(FiatSettlementSchema),
});
/** A merchant's registered settlements, crypto and fiat. */
export interface MerchantSettlements extends z.output<typeof merchantSettlements> {}
/** A merchant's registered settlements, crypto and fiat. */
export const MerchantSettlementsSchema: z.ZodMiniType<MerchantSettlements> = merchantSettlements;

const merchantWithSettlements = responseObject({
  ...merchantShape,
  settlements: MerchantSettlementsSchema,
});
/** A merchant with its crypto and fiat settlements: what `merchants.get` returns. */
export interface MerchantWithSettlements extends z.output<typeof merchantWithSettlements> {}
/** A merchant with its settlements: what `merchants.get` returns. */
export const MerchantWithSettlementsSchema: z.ZodMiniType<MerchantWithSettlements> =
  merchantWithSettlements;

/** The `{ merchant }` envelope every merchant call answers with. */
export const MerchantEnvelopeSchema = responseObject({ merchant: MerchantSchema });
export const MerchantWithSettlementsEnvelopeSchema = responseObject({
  merchant: MerchantWithSettlementsSchema,
});

const merchantName = text(MERCHANT_NAME_LENGTH.min, MERCHANT_NAME_LENGTH.max);
const merchantEmail = matching(
  EMAIL_PATTERN,
  'must be an email address (no leading dot, no "..", a top-level domain of 2+ letters)',
);
const iconUrl = z.nullable(satisfying(isIconUrl, 'must be an https:// URL, or null'));

/** Body of `merchants.create`. `iconUrl` null or absent leaves the logo unset. */
export const MerchantCreateParamsSchema = exact({
  merchantName,
  merchantEmail,
  iconUrl: z.optional(iconUrl),
});
/** Body of `merchants.create`: `merchantName`, `merchantEmail`, optional `iconUrl`. */
export type MerchantCreateParams = z.input<typeof MerchantCreateParamsSchema>;

/** Body of `merchants.update`: at least one field. `iconUrl: null` removes the logo. */
export const MerchantUpdateParamsSchema = exact({
  merchantName: z.optional(merchantName),
  merchantEmail: z.optional(merchantEmail),
  iconUrl: z.optional(iconUrl),
}).check(
  z.refine(
    (p) => p.merchantName !== undefined || p.merchantEmail !== undefined || p.iconUrl !== undefined,
    'give at least one of merchantName, merchantEmail, iconUrl',
  ),
);
/** Body of `merchants.update`: at least one of `merchantName`, `merchantEmail`, `iconUrl`. */
export type MerchantUpdateParams = z.input<typeof MerchantUpdateParamsSchema>;
