import { LEGACY_LIST_PAYMENT_STATUSES, type LegacyListPaymentStatus } from '../../rules/payments';
import type { MockSample } from '../types';
import { fiatToToken, TOKENS, type Token, WALLETS, type Wallet } from './catalog';
import { isoTime, type MerchantRecord, moveTo, type PaymentRecord } from './records';
import type { Rng } from './rng';

const ICONS = 'https://static.example.com/mock-gateway/merchants';
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 6, 1);
/** Seeded payments still awaiting a buyer stay open for years, so the sample does not depend on the clock. */
const OPEN_FOR_S = 5 * 365 * 24 * 3600;
/**
 * The sample merchant's crypto settlements, as a demo merchant would have registered them, so its
 * payments can be paid out of the box: USDC on Base and USDT on Ethereum, to addresses of its own.
 */
const SAMPLE_CRYPTO: readonly (readonly [string, string])[] = [
  [
    'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    'eip155:8453:0x5a3c0fFee0000000000000000000000000005A3c',
  ],
  [
    'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7',
    'eip155:1:0x5A3c0FfEe0000000000000000000000000015A3c',
  ],
];
/** The service's default expiry: five minutes. */
export const DEFAULT_EXPIRY_S = 300;

const STATUS_WEIGHTS: readonly (readonly [LegacyListPaymentStatus, number])[] = [
  ['requires_action', 10],
  ['processing', 8],
  ['succeeded', 57],
  ['failed', 10],
  ['expired', 15],
];

export interface SampleData {
  merchants: MerchantRecord[];
  payments: PaymentRecord[];
  sample: MockSample;
}

interface MerchantPlan {
  name: string;
  email: string;
  icon: string | null;
  createdAt: number;
  paymentCount: number;
  currencies: readonly (readonly [string, number])[];
  buyers: number;
}

/** Builds the seeded merchants and payments, drawing every random choice from `rng`. */
export function generateSampleData(seed: number, rng: Rng): SampleData {
  const plans: MerchantPlan[] = [
    {
      name: 'Sample Coffee Roasters',
      email: 'payments@sample-coffee.example',
      icon: `${ICONS}/sample-coffee.png`,
      createdAt: Date.UTC(2024, 11, 2, 9, 30),
      paymentCount: 1000,
      currencies: [
        ['USD', 9],
        ['EUR', 1],
      ],
      buyers: 240,
    },
    {
      name: 'Northwind Books',
      email: 'finance@northwind-books.example',
      icon: null,
      createdAt: Date.UTC(2024, 10, 18, 14, 5),
      paymentCount: rng.int(24, 48),
      currencies: [['EUR', 1]],
      buyers: 15,
    },
    {
      name: 'Contoso Games',
      email: 'billing@contoso-games.example',
      icon: `${ICONS}/contoso-games.png`,
      createdAt: Date.UTC(2025, 1, 7, 11, 45),
      paymentCount: rng.int(24, 48),
      currencies: [
        ['USD', 3],
        ['GBP', 1],
      ],
      buyers: 20,
    },
  ];
  const merchants: MerchantRecord[] = [];
  const payments: PaymentRecord[] = [];
  for (const plan of plans) {
    const merchant: MerchantRecord = {
      id: rng.id('mer'),
      name: plan.name,
      email: plan.email,
      status: 'active',
      iconUrl: plan.icon,
      createdAt: plan.createdAt,
      crypto: [],
      fiat: [],
    };
    merchants.push(merchant);
    const buyers = Array.from({ length: plan.buyers }, () => ({
      address: rng.hex(40),
      wallet: rng.pick(WALLETS),
    }));
    for (let i = 0; i < plan.paymentCount; i++) {
      payments.push(samplePayment(rng, merchant.id, i, plan, buyers));
    }
  }
  const main = merchants[0] as MerchantRecord;
  const fiatSettlement = { id: rng.id('fset'), status: 'active', bankType: 'sepa' };
  main.fiat.push(fiatSettlement);
  // Drawn after everything else, so the payments and the fiat settlement keep their ids.
  main.crypto.push(
    ...SAMPLE_CRYPTO.map(([asset, destination]) => ({ id: rng.id('cset'), asset, destination })),
  );
  return {
    merchants,
    payments,
    sample: describe(seed, main, fiatSettlement.id, merchants.slice(1), payments),
  };
}

function samplePayment(
  rng: Rng,
  merchantId: string,
  index: number,
  plan: MerchantPlan,
  buyers: readonly { address: string; wallet: Wallet }[],
): PaymentRecord {
  const createdAt = FROM + Math.floor(rng.next() * (TO - FROM));
  const status = rng.weighted(STATUS_WEIGHTS);
  const currency = rng.weighted(plan.currencies);
  const token: Token = rng.weighted(TOKENS);
  const fiatMinor = BigInt(Math.round(10 ** (2 + rng.next() * 3.5)));
  const created = Math.floor(createdAt / 1000);
  const payment: PaymentRecord = {
    id: rng.id('pay'),
    merchantId,
    referenceId: referenceId(rng, index, createdAt),
    status: 'requires_action',
    createdAt,
    updatedAt: createdAt,
    expiresAt: created + (status === 'requires_action' ? OPEN_FOR_S : DEFAULT_EXPIRY_S),
    currency,
    fiatMinor,
    token,
    tokenValue: 0n,
    buyer: null,
    tx: null,
    settlement: null,
  };
  payment.tokenValue = fiatToToken(fiatMinor, currency, payment.token);
  if (status === 'expired') {
    moveTo(payment, 'expired', payment.expiresAt * 1000, rng);
  } else if (status !== 'requires_action') {
    payment.buyer = rng.pick(buyers);
    const started = createdAt + rng.int(20, 280) * 1000;
    moveTo(payment, 'processing', started, rng);
    if (status !== 'processing') moveTo(payment, status, started + rng.int(15, 900) * 1000, rng);
    // Some recent successes have not been paid out yet.
    if (payment.settlement && rng.next() < 0.1) {
      payment.settlement = { settled: false, txHash: null, at: null };
    }
  }
  return payment;
}

function referenceId(rng: Rng, index: number, createdAt: number): string {
  const year = new Date(createdAt).getUTCFullYear();
  const roll = rng.next();
  if (roll < 0.7) return `ORD-${year}-${String(index + 1).padStart(5, '0')}`;
  if (roll < 0.9) return `inv/${year}/${String(index + 1).padStart(4, '0')}`;
  return `cart:${rng.hex(8).slice(2)}`;
}

function describe(
  seed: number,
  main: MerchantRecord,
  fiatSettlementId: string,
  others: readonly MerchantRecord[],
  payments: readonly PaymentRecord[],
): MockSample {
  const own = payments.filter((p) => p.merchantId === main.id);
  const statusCounts = Object.fromEntries(
    LEGACY_LIST_PAYMENT_STATUSES.map((s) => [s, 0]),
  ) as Record<LegacyListPaymentStatus, number>;
  for (const p of own) if (p.status !== 'cancelled') statusCounts[p.status]++;
  const times = own.map((p) => p.createdAt);
  const distinct = (values: string[]) => [...new Set(values)].sort();
  return {
    seed,
    merchantId: main.id,
    merchantName: main.name,
    merchantEmail: main.email,
    fiatSettlementId,
    cryptoSettlements: main.crypto.map(({ id, asset, destination }) => ({
      id,
      asset,
      destination,
    })),
    otherMerchantIds: others.map((m) => m.id),
    paymentCount: own.length,
    statusCounts,
    tokenSymbols: distinct(own.map((p) => p.token.symbol)),
    networks: distinct(own.map((p) => p.token.network.id)),
    currencies: distinct(own.map((p) => p.currency)),
    firstCreatedAt: isoTime(Math.min(...times)),
    lastCreatedAt: isoTime(Math.max(...times)),
  };
}
