/** The Gateway API's bounds on what a buyer sends, shared by the SDK's schemas and the mock. */
import type { Bounds } from './text';

/** CAIP-10 accounts per `options` request. */
export const BUYER_ACCOUNTS_PER_CALL: Bounds = { min: 1, max: 50 };

/** A payment option's id: the published contract allows up to 2^16 characters. */
export const OPTION_ID_LENGTH: Bounds = { min: 1, max: 65_536 };

/** The one wallet RPC method `buyer.pay` executes: an EIP-712 signature. */
export const SIGN_TYPED_DATA_METHOD = 'eth_signTypedData_v4';
