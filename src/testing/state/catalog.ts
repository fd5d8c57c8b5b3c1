/** Static reference data of the mock: networks, tokens, wallets and fiat currencies. */

const ICONS = 'https://static.example.com/mock-gateway';
/** Where the catalog's icons live (example URLs: nothing is served there). */
export const ICONS_BASE = ICONS;

export interface Network {
  readonly id: string;
  readonly name: string;
  readonly iconUrl: string;
}

export interface Token {
  /** CAIP-19 asset id. */
  readonly asset: string;
  readonly network: Network;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  readonly iconUrl: string;
  /** Price of one whole token, in millionths of a US dollar. */
  readonly microUsd: bigint;
  /**
   * How a buyer authorizes a transfer of this ERC-20 with one EIP-712 signature, in the token's own
   * EIP-712 domain (`name`, `version`): `eip3009` (`ReceiveWithAuthorization`, USDC) or `eip2612`
   * (`Permit`, USDT here). Absent for native coins, which the mock takes no signature for.
   */
  readonly eip712?: Eip712Facts;
}

export interface Eip712Facts {
  readonly name: string;
  readonly version: string;
  readonly scheme: 'eip3009' | 'eip2612';
}

export interface Wallet {
  readonly name: string;
  readonly iconUrl: string;
}

const network = (id: string, name: string, icon: string): Network => ({
  id,
  name,
  iconUrl: `${ICONS}/networks/${icon}.png`,
});

export const NETWORKS = {
  ethereum: network('eip155:1', 'Ethereum', 'ethereum'),
  base: network('eip155:8453', 'Base', 'base'),
  optimism: network('eip155:10', 'OP Mainnet', 'optimism'),
  arbitrum: network('eip155:42161', 'Arbitrum One', 'arbitrum'),
} as const;

// Circle's FiatToken v2 domain on every chain listed; USDT's domain as Tether's permit tokens name it.
const USDC = {
  symbol: 'USDC',
  name: 'USD Coin',
  decimals: 6,
  microUsd: 1_000_000n,
  eip712: { name: 'USD Coin', version: '2', scheme: 'eip3009' },
} as const;
const USDT = {
  symbol: 'USDT',
  name: 'Tether USD',
  decimals: 6,
  microUsd: 1_000_000n,
  eip712: { name: 'Tether USD', version: '1', scheme: 'eip2612' },
} as const;
const ETH = { symbol: 'ETH', name: 'Ether', decimals: 18, microUsd: 3_000_000_000n };

function token(
  net: Network,
  base: Omit<Token, 'asset' | 'network' | 'iconUrl'>,
  ref: string,
): Token {
  return {
    ...base,
    asset: `${net.id}/${ref}`,
    network: net,
    iconUrl: `${ICONS}/tokens/${base.symbol.toLowerCase()}.png`,
  };
}

/** The asset a new payment is quoted in until a buyer picks another: USDC on Base. */
export const DEFAULT_TOKEN = token(
  NETWORKS.base,
  USDC,
  'erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
);

/** Every token the sample data uses, with a weight for how often it appears. */
export const TOKENS: readonly (readonly [Token, number])[] = [
  [DEFAULT_TOKEN, 30],
  [token(NETWORKS.ethereum, USDC, 'erc20:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'), 10],
  [token(NETWORKS.optimism, USDC, 'erc20:0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'), 8],
  [token(NETWORKS.arbitrum, USDC, 'erc20:0xaf88d065e77c8cC2239327C5EDb3A432268e5831'), 8],
  [token(NETWORKS.ethereum, USDT, 'erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7'), 8],
  [token(NETWORKS.optimism, USDT, 'erc20:0x94b008aA00579c1307B0EF2c499aD98a8ce58e58'), 5],
  [token(NETWORKS.arbitrum, USDT, 'erc20:0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9'), 5],
  [token(NETWORKS.ethereum, ETH, 'slip44:60'), 8],
  [token(NETWORKS.base, ETH, 'slip44:60'), 10],
  [token(NETWORKS.optimism, ETH, 'slip44:60'), 4],
  [token(NETWORKS.arbitrum, ETH, 'slip44:60'), 4],
];

/** The catalog's token for a CAIP-19 asset id (the address in any letter case), if it has one. */
export function findToken(asset: string): Token | undefined {
  const wanted = asset.toLowerCase();
  return TOKENS.find(([token]) => token.asset.toLowerCase() === wanted)?.[0];
}

export const WALLETS: readonly Wallet[] = [
  'MetaMask',
  'Coinbase Wallet',
  'Rainbow',
  'Trust Wallet',
].map((name) => ({
  name,
  iconUrl: `${ICONS}/wallets/${name.toLowerCase().replace(/ /g, '-')}.png`,
}));

/** Display data of fiat currencies; unknown ISO 4217 codes get two decimals and a 1:1 US dollar rate. */
const FIAT: Record<string, { name: string; decimals: number; microUsd: bigint }> = {
  USD: { name: 'US Dollar', decimals: 2, microUsd: 1_000_000n },
  EUR: { name: 'Euro', decimals: 2, microUsd: 1_100_000n },
  GBP: { name: 'Pound Sterling', decimals: 2, microUsd: 1_250_000n },
  JPY: { name: 'Yen', decimals: 0, microUsd: 6_700n },
};

export function fiatInfo(currency: string): { name: string; decimals: number; microUsd: bigint } {
  return FIAT[currency] ?? { name: currency, decimals: 2, microUsd: 1_000_000n };
}

/** Converts a fiat amount in minor units to the token's smallest unit at the catalog's fixed rates. */
export function fiatToToken(minor: bigint, currency: string, tok: Token): bigint {
  const fiat = fiatInfo(currency);
  return (
    (minor * fiat.microUsd * 10n ** BigInt(tok.decimals)) /
    (10n ** BigInt(fiat.decimals) * tok.microUsd)
  );
}
