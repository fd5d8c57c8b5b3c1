/**
 * EIP-712 typed data as the service puts it in an `eth_signTypedData_v4` action, and as viem's
 * `signTypedData` takes it: shared by `buyer.pay` and the checkout's wallets (here, below
 * resources/, so both reach it).
 */

/** EIP-712 typed data as `buyer.pay` hands it to an account (`EIP712Domain` left out of `types`). */
export interface TypedDataToSign {
  /** The signing domain; `chainId` is a number even when the service wrote it in hex. */
  domain: {
    name?: string;
    version?: string;
    chainId?: number | bigint;
    verifyingContract?: `0x${string}`;
    salt?: `0x${string}`;
  };
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/**
 * What `buyer.pay` signs with: a viem `LocalAccount` (`privateKeyToAccount(key)`), or anything
 * with an `address` and viem's `signTypedData` signature (a wallet client's account, a KMS signer).
 */
export interface BuyerAccount {
  /** The account's 0x-prefixed, 20-byte EVM address (any case). */
  address: string;
  /** Signs EIP-712 typed data; resolves with the 0x-prefixed hex signature. */
  signTypedData(typedData: TypedDataToSign): Promise<string>;
}

/** Typed data as the service gave it: `EIP712Domain` in `types`, `chainId` as it was written. */
export interface ServiceTypedData {
  domain: Record<string, unknown>;
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** An action's second param (JSON text or an object) as typed data, else undefined. */
export function parseTypedData(raw: unknown): ServiceTypedData | undefined {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  if (!isObject(value)) return undefined;
  const { domain, types, primaryType, message } = value;
  if (!isObject(domain) || !isObject(types) || typeof primaryType !== 'string') return undefined;
  if (!isObject(message)) return undefined;
  return {
    domain,
    types: types as ServiceTypedData['types'],
    primaryType,
    message,
  };
}

/** The service's typed data as viem's `signTypedData` takes it. */
export function toSigningData(typed: ServiceTypedData): TypedDataToSign {
  // viem (like ethers) derives EIP712Domain from the domain itself and refuses it in `types`;
  // it includes `chainId` only when it is a number, so a hex or decimal string becomes one.
  const { EIP712Domain: _, ...rest } = typed.types;
  const signingDomain = { ...typed.domain };
  const { chainId } = signingDomain;
  if (typeof chainId === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(chainId)) {
    const n = Number(chainId);
    signingDomain.chainId = Number.isSafeInteger(n) ? n : BigInt(chainId);
  }
  return {
    domain: signingDomain as TypedDataToSign['domain'],
    types: rest,
    primaryType: typed.primaryType,
    message: typed.message,
  };
}
