/**
 * The only module of the mock that loads viem (a well-kept library: no hand-written crypto). It is
 * imported with a dynamic `import()` by `buyer-crypto.ts`, so `import 'merchant-gateway/testing'`
 * pays nothing for it until a buyer confirms; the build bundles it into the testing entry's chunks.
 */
import { recoverTypedDataAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/** The EIP-712 typed data of an action, as JSON gives it (numbers may be hex strings). */
export interface TypedDataJson {
  domain: Record<string, unknown>;
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** The address `signature` recovers to under EIP-712 for `typedData` (throws on a malformed one). */
export function recoverSigner(typedData: TypedDataJson, signature: `0x${string}`): Promise<string> {
  return recoverTypedDataAddress({
    ...(typedData as Parameters<typeof recoverTypedDataAddress>[0]),
    signature,
  });
}

/** A fresh account from a random private key: the mock's own buyer. */
export function newLocalAccount() {
  return privateKeyToAccount(generatePrivateKey());
}
