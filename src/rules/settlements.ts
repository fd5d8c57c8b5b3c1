/** The service's rules for crypto settlement bodies, shared by the SDK's schemas and the mock. */
import { type Bounds, hasLengthWithin } from './text';

/** Settlements per registration call. */
export const SETTLEMENTS_PER_CALL: Bounds = { min: 1, max: 50 };

/** `asset` and `destination`: 1 to 256 characters each, before their patterns. */
export const SETTLEMENT_FIELD_LENGTH: Bounds = { min: 1, max: 256 };

/** CAIP-19 asset id: `<chain_namespace>:<chain_reference>/<asset_namespace>:<asset_reference>`. */
export const CAIP19_PATTERN =
  /^[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,32}\/[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,128}$/;

/** CAIP-10 account id: `<chain_namespace>:<chain_reference>:<address>`. */
export const CAIP10_PATTERN = /^[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,32}:[-a-zA-Z0-9]{1,128}$/;

/** A settlement `asset`: its length, then the CAIP-19 pattern. */
export function isCaip19AssetId(value: string): boolean {
  return hasLengthWithin(value, SETTLEMENT_FIELD_LENGTH) && CAIP19_PATTERN.test(value);
}

/** A settlement `destination`: its length, then the CAIP-10 pattern. */
export function isCaip10AccountId(value: string): boolean {
  return hasLengthWithin(value, SETTLEMENT_FIELD_LENGTH) && CAIP10_PATTERN.test(value);
}

/**
 * The chain of a CAIP-19 asset or CAIP-10 account: its `<namespace>:<reference>` prefix
 * (`eip155:8453` for both `eip155:8453/erc20:0x83…` and `eip155:8453:0xab…`).
 */
export function chainOf(id: string): string {
  return id.split(/[:/]/, 2).join(':');
}

/**
 * Whether a settlement's destination is an account on its asset's chain: the service pays an
 * asset out only on the chain it lives on (USDC on Base cannot go to an Ethereum mainnet account).
 */
export function isOnAssetChain(asset: string, destination: string): boolean {
  return chainOf(asset) === chainOf(destination);
}

/** The message both the SDK and the mock give for a destination on another chain. */
export function offChainMessage(asset: string): string {
  return `must be an account on the asset's chain ${chainOf(asset)}`;
}
