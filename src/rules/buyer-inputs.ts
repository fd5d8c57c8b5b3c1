/** The Gateway API's bounds on what a buyer sends, shared by the SDK's schemas and the mock. */
import type { Bounds } from './text';

/** CAIP-10 accounts per `options` request. */
export const BUYER_ACCOUNTS_PER_CALL: Bounds = { min: 1, max: 50 };

/** A payment option's id: the published contract allows up to 2^16 characters. */
export const OPTION_ID_LENGTH: Bounds = { min: 1, max: 65_536 };

/** The one wallet RPC method `buyer.pay` executes: an EIP-712 signature. */
export const SIGN_TYPED_DATA_METHOD = 'eth_signTypedData_v4';

/**
 * The EVM chains `buyer.pay` offers an account on when no `chainId` is given: Ethereum,
 * Optimism, BNB Smart Chain, Polygon, Base, Arbitrum One and Avalanche C-Chain, in that order.
 */
export const DEFAULT_PAY_CHAINS = [
  'eip155:1',
  'eip155:10',
  'eip155:56',
  'eip155:137',
  'eip155:8453',
  'eip155:42161',
  'eip155:43114',
] as const;
