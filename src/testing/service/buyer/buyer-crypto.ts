/** The buyer's cryptography, with viem (`eip712.ts`) loaded on first use. */
import { loadOnce } from '../../../core/load-once';
import type { TypedDataJson } from './eip712';

export type { TypedDataJson };

const eip712 = loadOnce(() => import('./eip712'));

/** Whether `signature` recovers, under EIP-712 for `typedData`, to `address` (any letter case). */
export async function signedBy(
  typedData: TypedDataJson,
  signature: `0x${string}`,
  address: string,
): Promise<boolean> {
  const { recoverSigner } = await eip712();
  try {
    return (await recoverSigner(typedData, signature)).toLowerCase() === address.toLowerCase();
  } catch {
    return false; // a signature that is no point on the curve recovers to no one
  }
}

/** A buyer account of the mock's own: a private key generated now, kept in memory only. */
export async function generateAccount() {
  return (await eip712()).newLocalAccount();
}
