// Bodies of the Gateway API in the published contract's shapes (2026-02-18), for the buyer's tests.
import { BASE_URL, viewBody } from '.';

export const PAYMENT_ID = 'pay_buyer1';
/** The buyer's routes of PAYMENT_ID on the tests' base URL (add /options, /fetch, /confirm, …). */
export const GATEWAY = `${BASE_URL}/v1/gateway/payment/${PAYMENT_ID}`;
export const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const MERCHANT_DESTINATION = '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';

export const USDC_CONTRACT = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

export const tokenAmount = {
  unit: `caip19/${USDC_BASE}`,
  value: '1250000',
  display: {
    assetSymbol: 'USDC',
    assetName: 'USD Coin',
    decimals: 6,
    iconUrl: 'https://assets.example/usdc.png',
    networkIconUrl: null,
    networkName: 'Base',
  },
};

/** The option's amount in the fixture's token on `chain` (the same contract address on each). */
export const tokenAmountOn = (chain: string) => ({
  ...tokenAmount,
  unit: `caip19/${chain}/erc20:${USDC_CONTRACT}`,
});

/** The JSON the service puts in an `eth_signTypedData_v4` action: EIP-3009 for USDC on Base. */
export function receiveWithAuthorization(from: string, chainIdHex = '0x2105'): string {
  return JSON.stringify(receiveWithAuthorizationData(from, chainIdHex));
}

/** The typed data of `receiveWithAuthorization`, as an object to alter. */
export function receiveWithAuthorizationData(from: string, chainIdHex = '0x2105') {
  return {
    domain: {
      name: 'USD Coin',
      version: '2',
      chainId: chainIdHex,
      verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    },
    types: {
      EIP712Domain: [
        { type: 'string', name: 'name' },
        { type: 'string', name: 'version' },
        { type: 'uint256', name: 'chainId' },
        { type: 'address', name: 'verifyingContract' },
      ],
      ReceiveWithAuthorization: [
        { type: 'address', name: 'from' },
        { type: 'address', name: 'to' },
        { type: 'uint256', name: 'value' },
        { type: 'uint256', name: 'validAfter' },
        { type: 'uint256', name: 'validBefore' },
        { type: 'bytes32', name: 'nonce' },
      ],
    },
    primaryType: 'ReceiveWithAuthorization',
    message: {
      from,
      to: MERCHANT_DESTINATION,
      value: '0x1312d0',
      validAfter: '0x0',
      validBefore: '0x77359400',
      nonce: `0x${'ab'.repeat(32)}`,
    },
  };
}

/**
 * A wallet RPC action asking `address` to sign `typed` on `chain` (by default, a USDC
 * authorization on that chain).
 */
export function signAction(
  address: string,
  method = 'eth_signTypedData_v4',
  chain = 'eip155:8453',
  typed?: unknown,
) {
  const chainIdHex = `0x${BigInt(chain.split(':')[1] ?? '0').toString(16)}`;
  return {
    type: 'walletRpc',
    data: {
      chain_id: chain,
      method,
      params: [address, typed ?? receiveWithAuthorization(address, chainIdHex)],
    },
  };
}

export function option(
  address: string,
  {
    id = 'opt_usdc_base',
    chain = 'eip155:8453',
    actions = [signAction(address, undefined, chain)] as unknown[],
  }: { id?: string; chain?: string; actions?: unknown[] } = {},
) {
  return {
    id,
    account: `${chain}:${address}`,
    amount: tokenAmountOn(chain),
    etaS: 5,
    expiresAt: 1_900_000_300,
    collectData: null,
    actions,
  };
}

export function optionsBody(options: unknown[], extra: Record<string, unknown> = {}) {
  return { options, info: null, collectData: null, ...extra };
}

export const processing = { status: 'processing', isFinal: false, pollInMs: 1000, info: null };

export const succeeded = {
  status: 'succeeded',
  isFinal: true,
  pollInMs: null,
  info: { txId: `0x${'cd'.repeat(32)}`, optionAmount: tokenAmount },
};

export const cancellation = {
  paymentId: PAYMENT_ID,
  status: 'cancelled',
  cancelledReason: 'cancelled_by_user',
  cancelledAt: '2026-02-18T10:30:00Z',
};

export { viewBody };
