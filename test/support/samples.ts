/** Response bodies shaped like the service's real ones, for the fake service to answer with. */

export const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const PAYOUT_ACCOUNT = 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';

/** `merchant` of the create response: no `iconUrl`. */
export const createdMerchant = {
  id: 'mer_01JQ7Z8K4M2N3P4Q5R6S7T8V9W',
  name: 'Acme Coffee',
  email: 'pay@acme.io',
  status: 'active',
  createdAt: '2026-02-18T09:30:12.345Z',
};

export const merchantWithSettlements = {
  ...createdMerchant,
  iconUrl: 'https://cdn.acme.io/logo.png',
  settlements: {
    crypto: [{ id: 'cs_01JQ7ZB3', asset: USDC_BASE, destination: PAYOUT_ACCOUNT }],
    fiat: [{ id: 'fs_01JQ7ZC9', status: 'active', bankType: 'sepa' }],
  },
};

export const paymentCreated = {
  paymentId: 'pay_01JQ80D4X7',
  status: 'requires_action',
  isFinal: false,
  pollInMs: 1000,
  expiresAt: 1_771_407_312,
  gatewayUrl: 'https://pay.gateway.test/p/pay_01JQ80D4X7',
};

export const paymentView = {
  status: 'processing',
  expiresAt: 1_771_407_312,
  amount: {
    unit: `caip19/${USDC_BASE}`,
    value: '12500000',
    display: {
      assetName: 'USD Coin',
      assetSymbol: 'USDC',
      decimals: 6,
      iconUrl: 'https://assets.gateway.test/usdc.png',
      networkIconUrl: 'https://assets.gateway.test/base.png',
      networkName: 'Base',
    },
  },
  buyer: {
    accountCaip10: PAYOUT_ACCOUNT,
    accountProviderIcon: 'https://assets.gateway.test/wallet.png',
    accountProviderName: 'Some Wallet',
  },
  merchant: { iconUrl: 'https://cdn.acme.io/logo.png', name: 'Acme Coffee' },
};
