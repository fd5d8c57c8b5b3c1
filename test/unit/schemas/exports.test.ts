import { readFileSync } from 'node:fs';
import * as sdk from 'merchant-gateway';
import { describe, expect, it } from 'vitest';
import {
  legacyItem,
  legacyPage,
  legacyStats,
  page,
  paymentItem,
  stats,
} from '../../support/list-fixtures';
import {
  createdMerchant,
  merchantWithSettlements,
  PAYOUT_ACCOUNT,
  paymentCreated,
  paymentView,
  USDC_BASE,
} from '../../support/samples';

const settlement = { asset: USDC_BASE, destination: PAYOUT_ACCOUNT };
const fees = {
  total: { unit: 'iso4217/USD', value: '30', display: paymentView.amount.display },
  fixed: { unit: 'iso4217/USD', value: '10' },
  percentage: '0.4',
};
const paymentInformation = { txId: '0xab', optionAmount: paymentView.amount };

const walletRpcRequest = {
  chain_id: 'eip155:8453',
  method: 'eth_signTypedData_v4',
  params: [PAYOUT_ACCOUNT.split(':')[2], '{"domain":{}}'],
};
const walletRpcAction = { type: 'walletRpc', data: walletRpcRequest };
const buildAction = { type: 'build', data: { data: 'opaque' } };
const collectData = {
  url: 'https://collect.example/ic/pay_1',
  schema: { type: 'object' },
  fields: [{ id: 'fullName', name: 'Full name', required: true, type: 'text' }],
};
const paymentOption = {
  id: 'opt_1',
  account: PAYOUT_ACCOUNT,
  amount: paymentView.amount,
  etaS: 5,
  actions: [walletRpcAction, buildAction],
  expiresAt: 1_900_000_300,
  collectData: null,
};
const buyerSamples: Record<string, unknown> = {
  WalletRpcRequestSchema: walletRpcRequest,
  WalletRpcActionSchema: walletRpcAction,
  BuildPayloadSchema: buildAction.data,
  BuildActionSchema: buildAction,
  BuyerActionSchema: { type: 'redirect', data: { url: 'https://wallet.example' } },
  CollectDataFieldSchema: collectData.fields[0],
  CollectDataSchema: collectData,
  PaymentOptionSchema: paymentOption,
  PaymentOptionsSchema: { options: [paymentOption], info: paymentView, collectData: null },
  FetchActionsResultSchema: { actions: [walletRpcAction] },
  GatewayCancellationSchema: {
    paymentId: 'pay_1',
    status: 'cancelled',
    cancelledReason: 'cancelled_by_user',
    cancelledAt: '2026-02-18T09:30:12Z',
  },
  PaymentOptionsParamsSchema: {
    accounts: [PAYOUT_ACCOUNT],
    refresh: null,
    includePaymentInfo: true,
  },
  FetchActionsParamsSchema: { optionId: 'opt_1', data: 'opaque' },
  ConfirmPaymentParamsSchema: {
    optionId: 'opt_1',
    results: [{ type: 'walletRpc', data: ['0xab'] }],
    collectedData: { fields: [{ id: 'fullName', value: 'Ada' }] },
  },
  BuyerPollParamsSchema: { maxPollMs: 30_000 },
};

/** A valid value for every `…Schema` the public entry exports. */
const samples: Record<string, unknown> = {
  MerchantSchema: createdMerchant,
  MerchantWithSettlementsSchema: merchantWithSettlements,
  FiatSettlementSchema: merchantWithSettlements.settlements.fiat[0],
  MerchantCreateParamsSchema: { merchantName: 'Acme', merchantEmail: 'pay@acme.io', iconUrl: null },
  MerchantUpdateParamsSchema: { iconUrl: 'https://cdn.acme.io/logo.png' },
  CryptoSettlementSchema: { id: 'cs_1', ...settlement },
  CryptoSettlementParamsSchema: settlement,
  CryptoSettlementListParamsSchema: [settlement],
  PaymentCreatedSchema: paymentCreated,
  PaymentViewSchema: paymentView,
  PaymentCreateParamsSchema: {
    merchantId: 'mer_1',
    amount: { unit: 'iso4217/EUR', value: '999' },
    referenceId: 'order-1',
    expiresAt: null,
  },
  PaymentCheckoutParamsSchema: {
    successUrl: 'https://shop.example/paid',
    errorUrl: 'http://127.0.0.1:3000/cart',
  },
  MerchantPaymentSchema: paymentItem(1),
  MerchantPaymentsPageSchema: page([paymentItem(1)], 'c_2'),
  PaymentListParamsSchema: {
    merchantId: 'mer_1',
    status: ['succeeded'],
    sortBy: 'date',
    limit: 50,
  },
  LegacyPaymentSchema: legacyItem(1),
  LegacyPaymentsPageSchema: legacyPage([legacyItem(1)], null),
  LegacyPaymentListParamsSchema: { status: ['succeeded'], sort_by: 'amount', limit: 20 },
  PaymentInformationSchema: paymentInformation,
  PaymentStatusResultSchema: {
    status: 'succeeded',
    isFinal: true,
    pollInMs: null,
    info: paymentInformation,
  },
  PaymentDetailsSettlementSchema: {
    successful: { txId: '0xab', amount: { unit: `caip19/${USDC_BASE}` } },
  },
  PaymentDetailsSchema: {
    status: 'failed',
    referenceId: 'order-1',
    failureCode: 'declined_user',
    info: null,
    settlement: null,
  },
  PaymentCancellationSchema: {
    paymentId: 'pay_1',
    status: 'cancelled',
    cancelledReason: 'cancelled_by_merchant',
    cancelledAt: '2026-02-18T09:30:12.345Z',
  },
  PaymentActionParamsSchema: { merchantId: 'mer_1' },
  PaymentStatusParamsSchema: { merchantId: 'mer_1', maxPollMs: 30_000 },
  RefundCreateParamsSchema: { paymentId: 'pay_1', merchantId: 'mer_1' },
  RefundSchema: { paymentId: 'pay_1' },
  PartnerPaymentListParamsSchema: { merchantId: ['mer_1', 'mer_2'], status: ['cancelled'] },
  MerchantListParamsSchema: { status: 'active', search: 'acme', limit: 100, cursor: 'c_2' },
  MerchantsPageSchema: { merchants: [createdMerchant], totalCount: 1, nextCursor: null },
  MerchantDeletionSchema: { id: 'mer_1', deleted: true },
  SettlementListSchema: {
    fiat: merchantWithSettlements.settlements.fiat,
    crypto: [{ id: 'cs_1', ...settlement }],
  },
  CryptoSettlementUpdateParamsSchema: { destination: PAYOUT_ACCOUNT },
  CryptoSettlementDeletionSchema: { id: 'cs_1', deleted: true },
  MerchantSettlementsSchema: merchantWithSettlements.settlements,
  AmountSchema: paymentView.amount,
  AmountDisplaySchema: paymentView.amount.display,
  PaymentBuyerSchema: paymentView.buyer,
  PaymentViewMerchantSchema: paymentView.merchant,
  ListAmountSchema: { unit: 'iso4217/USD', value: '10', display: null },
  MerchantPaymentMerchantSchema: { id: 'mer_1', name: 'Acme', iconUrl: null },
  PaymentTransactionSchema: { networkId: '8453', hash: '0xab', nonce: 4 },
  PaymentFeesSchema: fees,
  PaymentSettlementSchema: {
    settled: true,
    amount: { unit: `caip19/${USDC_BASE}`, value: '12400000' },
    txHash: '0xcd',
  },
  RevenueSchema: stats.totalRevenue[0],
  MerchantPaymentsStatsSchema: stats,
  LegacyPaymentsStatsSchema: legacyStats,
  // The buyer's side (the Gateway API).
  ...buyerSamples,
};

/** The exported schemas of responses: every one keeps fields the service adds. */
const responseSchemas = [
  'MerchantSchema',
  'MerchantWithSettlementsSchema',
  'MerchantSettlementsSchema',
  'FiatSettlementSchema',
  'CryptoSettlementSchema',
  'PaymentCreatedSchema',
  'PaymentViewSchema',
  'PaymentViewMerchantSchema',
  'AmountSchema',
  'AmountDisplaySchema',
  'PaymentBuyerSchema',
  'ListAmountSchema',
  'MerchantPaymentMerchantSchema',
  'PaymentTransactionSchema',
  'PaymentFeesSchema',
  'PaymentSettlementSchema',
  'RevenueSchema',
  'MerchantPaymentsStatsSchema',
  'MerchantPaymentSchema',
  'MerchantPaymentsPageSchema',
  'LegacyPaymentSchema',
  'LegacyPaymentsStatsSchema',
  'LegacyPaymentsPageSchema',
  'PaymentInformationSchema',
  'PaymentStatusResultSchema',
  'PaymentDetailsSettlementSchema',
  'PaymentDetailsSchema',
  'PaymentCancellationSchema',
  'RefundSchema',
  'MerchantsPageSchema',
  'MerchantDeletionSchema',
  'SettlementListSchema',
  'CryptoSettlementDeletionSchema',
  'WalletRpcRequestSchema',
  'WalletRpcActionSchema',
  'BuildPayloadSchema',
  'BuildActionSchema',
  'BuyerActionSchema',
  'CollectDataFieldSchema',
  'CollectDataSchema',
  'PaymentOptionSchema',
  'PaymentOptionsSchema',
  'FetchActionsResultSchema',
  'GatewayCancellationSchema',
];

/** Exported types that are not a wire shape of their own, each with the schema field it types. */
const fieldTypes = [
  'MerchantStatus',
  'FiatSettlementStatus',
  'PaymentStatus',
  'KnownPaymentStatus',
  'ListPaymentStatus',
  // The statuses a payment can still leave (isOpenPaymentStatus narrows to it).
  'OpenPaymentStatus',
  'PaymentFailureCode',
  'CollectDataFieldType',
  // What payments.create returns: PaymentCreatedSchema's body, plus the merchantId the SDK adds.
  'CreatedPayment',
];

const exported = sdk as unknown as Record<string, unknown>;
const schemaNames = Object.keys(exported).filter((name) => name.endsWith('Schema'));

describe('exported schemas', () => {
  it('has a sample for exactly the exported schemas', () => {
    expect(schemaNames.length).toBeGreaterThan(0);
    expect([...schemaNames].sort()).toStrictEqual(Object.keys(samples).sort());
  });

  it.each(schemaNames)('%s parses its sample to an equal value', (name) => {
    const schema = exported[name] as {
      safeParse(value: unknown): { success: boolean; data?: unknown };
    };
    const result = schema.safeParse(samples[name]);
    expect(result.success).toBe(true);
    expect(result.data).toStrictEqual(samples[name]);
  });

  it('exports a schema for every type from src/schemas, bar the status field types', () => {
    // The main entry's own list and the buyer's surface it re-exports (written once there).
    const index = ['../../../src/index.ts', '../../../src/buyer-api.ts']
      .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
      .join('\n');
    const types = [...index.matchAll(/export type \{([^}]*)\} from '\.\/schemas\/[\w-]+'/g)]
      .flatMap((match) => (match[1] ?? '').split(','))
      .map((name) => name.trim())
      .filter((name) => name !== '');
    expect(types.length).toBeGreaterThan(0);
    const withoutSchema = types.filter((name) => !schemaNames.includes(`${name}Schema`));
    expect(withoutSchema.sort()).toStrictEqual([...fieldTypes].sort());
  });

  it.each(responseSchemas)('%s keeps a field the service adds and an unknown status', (name) => {
    const schema = exported[name] as {
      safeParse(value: unknown): { success: boolean; data?: unknown };
    };
    const sample = samples[name] as Record<string, unknown>;
    const withStatus = 'status' in sample ? { status: 'on_hold' } : {};
    const added = { ...sample, ...withStatus, addedLater: { nested: [1, 2] } };
    const result = schema.safeParse(added);
    expect(result.success).toBe(true);
    expect(result.data).toStrictEqual(added);
  });

  it('lists as a response schema every exported schema not of a request', () => {
    const requests = schemaNames.filter((name) => /Params|ListParams/.test(name));
    expect([...responseSchemas, ...requests].sort()).toStrictEqual([...schemaNames].sort());
  });
});
