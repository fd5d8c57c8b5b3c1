/**
 * What `buyer.pay` signs, in one place: the cap on an option's actions and the checks each EIP-712
 * action must pass against its option before anything is signed (docs/buyer.md states these).
 */

/**
 * The most actions `buyer.pay` performs for one option: its own actions, and again the wallet RPC
 * actions its `build` actions resolve to. USDC needs one signature, USDT one `build` then one.
 */
export const MAX_PAY_ACTIONS = 8;

/**
 * The EVM chains an account is offered on when no chain is named (`buyer.pay`, the checkout's
 * wallets): Ethereum, Optimism, BNB Smart Chain, Polygon, Base, Arbitrum One and Avalanche
 * C-Chain, in that order.
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

/** What an option commits to, read from its `account` and `amount`. */
export interface OptionTerms {
  /** CAIP-2 chain of the option's account, e.g. `eip155:8453`. */
  chain: string;
  /** The EVM chain id of that chain. */
  chainId: bigint;
  /** The ERC-20 contract of the option's amount (its CAIP-19 asset), lower case. */
  token: string;
  /** The option's amount, in the token's smallest unit. */
  value: bigint;
}

/** A signing request that does not match its option: the field and both values. */
export interface SigningMismatch {
  field: string;
  expected: string;
  actual: string;
}

const CAIP10_EVM = /^(eip155:([0-9]{1,32})):0x[0-9a-fA-F]{40}$/;
const CAIP19_ERC20 = /^caip19\/(eip155:[0-9]{1,32})\/erc20:(0x[0-9a-fA-F]{40})$/;
const UINT = /^(0x[0-9a-fA-F]+|[0-9]+)$/;

/** A uint256 as JSON or viem may write it (number, bigint, hex or decimal string), else undefined. */
function uint(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value : undefined;
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  }
  return typeof value === 'string' && UINT.test(value) ? BigInt(value) : undefined;
}

const shown = (value: unknown): string =>
  value === undefined ? 'nothing' : typeof value === 'string' ? value : String(value);

/**
 * The option's terms, or the mismatch that makes it unpayable by `pay`: an EVM account, and an
 * amount in an ERC-20 (`caip19/eip155:<id>/erc20:<address>`) on that account's chain.
 */
export function optionTerms(option: {
  account: string;
  amount: { unit: string; value: string };
}): OptionTerms | SigningMismatch {
  const account = CAIP10_EVM.exec(option.account);
  const asset = CAIP19_ERC20.exec(option.amount.unit);
  if (account === null || asset === null) {
    return {
      field: 'amount.unit',
      expected: 'caip19/eip155:<chain id>/erc20:<token address>',
      actual: option.amount.unit,
    };
  }
  const [, chain = '', reference = ''] = account;
  if (asset[1] !== chain) return { field: 'amount.unit', expected: chain, actual: asset[1] ?? '' };
  if (!/^[0-9]+$/.test(option.amount.value)) {
    return { field: 'amount.value', expected: 'a whole number', actual: option.amount.value };
  }
  return {
    chain,
    chainId: BigInt(reference),
    token: (asset[2] ?? '').toLowerCase(),
    value: BigInt(option.amount.value),
  };
}

/**
 * The first way an `eth_signTypedData_v4` action differs from its option, or undefined: the
 * action's `chain_id`, then `domain.chainId` (the option's chain), `domain.verifyingContract` (the
 * option's token, any case), `message.value` (the option's amount) and `message.from` and
 * `message.owner` (the paying account; at least one of them present).
 */
export function signingMismatch(
  terms: OptionTerms,
  owner: string,
  action: { chainId: unknown; domain: Record<string, unknown>; message: Record<string, unknown> },
): SigningMismatch | undefined {
  const { chainId: actionChain, domain, message } = action;
  if (actionChain !== undefined && actionChain !== null && actionChain !== terms.chain) {
    return { field: 'chain_id', expected: terms.chain, actual: shown(actionChain) };
  }
  if (uint(domain.chainId) !== terms.chainId) {
    return {
      field: 'domain.chainId',
      expected: String(terms.chainId),
      actual: shown(domain.chainId),
    };
  }
  const contract = domain.verifyingContract;
  if (typeof contract !== 'string' || contract.toLowerCase() !== terms.token) {
    return { field: 'domain.verifyingContract', expected: terms.token, actual: shown(contract) };
  }
  if (uint(message.value) !== terms.value) {
    return { field: 'message.value', expected: String(terms.value), actual: shown(message.value) };
  }
  const holders = (['from', 'owner'] as const).filter((name) => message[name] !== undefined);
  if (holders.length === 0) {
    return { field: 'message.from', expected: owner, actual: 'nothing' };
  }
  for (const name of holders) {
    const holder = message[name];
    if (typeof holder !== 'string' || holder.toLowerCase() !== owner.toLowerCase()) {
      return { field: `message.${name}`, expected: owner, actual: shown(holder) };
    }
  }
  return undefined;
}
