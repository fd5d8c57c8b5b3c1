// Every answer the mock sends, held to the service's published shape of its operation STRICTLY
// (test/support/contract-shapes.ts): each operation's success and each error code the mock
// gives, per WCP-Version where the two versions differ, and the faults failNext makes by default.
import { createMockGateway } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeEach, describe, expect, it } from 'vitest';
import { BASE_URL } from '../../../support';
import {
  contractIssues,
  GATEWAY_ERROR,
  GENERIC_ERROR,
  OPERATIONS,
  type OperationName,
} from '../../../support/contract-shapes';

const mock = createMockGateway({ pollInMs: 20 });
const mid = mock.sample.merchantId;
const KEY = { 'Api-Key': mock.credentials.apiKey };
const MERCHANT = { ...KEY, 'Merchant-Id': mid };
const APP = { 'App-Id': mock.credentials.appId, 'Client-Id': mock.credentials.clientId };
// The sample merchant is seeded with USDC on Base and USDT on Ethereum: the cases register another.
const USDC_OPTIMISM = 'eip155:10/erc20:0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85';
const ON_OPTIMISM = 'eip155:10:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
const ON_MAINNET = 'eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';

beforeEach(() => mock.reset());

interface Call {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

async function send({ method = 'GET', path, headers = {}, body }: Call) {
  const res = await mock.fetch(`${BASE_URL}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** A payment of the sample merchant in `status` now (set on the first open one). */
function paymentIn(status: Parameters<typeof mock.setPaymentStatus>[1]): string {
  const open = mock.payments(mid).find((p) => p.status === 'requires_action');
  if (!open) throw new Error('no open payment');
  if (status !== 'requires_action') mock.setPaymentStatus(open.id, status);
  return open.id;
}
const openPayment = () => paymentIn('requires_action');
const idem = () => ({ 'Idempotency-Key': crypto.randomUUID() });
const merchantBody = { merchantName: 'Shop', merchantEmail: 'shop@example.com' };
const order = { amount: { unit: 'iso4217/USD', value: '1250' }, referenceId: 'order-1' };
async function settlement(): Promise<string> {
  const res = await send({
    method: 'POST',
    path: `/v1/merchants/${mid}/settlements/crypto`,
    headers: { ...KEY, ...idem() },
    body: { settlements: [{ asset: USDC_OPTIMISM, destination: ON_OPTIMISM }] },
  });
  return (res.body as { settlements: [{ id: string }] }).settlements[0].id;
}

const buyer = privateKeyToAccount(generatePrivateKey());
const BUYER_ON_BASE = `eip155:8453:${buyer.address}`;
const BUYER_ON_MAINNET = `eip155:1:${buyer.address}`;
const BUYER_ON_ARBITRUM = `eip155:42161:${buyer.address}`;
const gateway = (id: string, route: string) => `/v1/gateway/payment/${id}/${route}`;

interface WalletRpcAction {
  type: 'walletRpc';
  data: { params: [string, string] };
}
interface BuyerOption {
  id: string;
  actions: (WalletRpcAction | { type: 'build'; data: { data: string } })[];
}

/** A fresh option for the buyer on `account`'s chain, and its action. */
async function option(id: string, account = BUYER_ON_BASE) {
  const res = await send({
    method: 'POST',
    path: gateway(id, 'options'),
    headers: APP,
    body: { accounts: [account] },
  });
  const first = (res.body as { options: BuyerOption[] }).options[0] as BuyerOption;
  return { id: first.id, action: first.actions[0] as BuyerOption['actions'][number] };
}
async function signature(action: WalletRpcAction) {
  return buyer.signTypedData(JSON.parse(action.data.params[1]));
}
/** A confirm of a fresh option: signed by the buyer unless `forged`. */
async function confirmCall(id: string, query = '', forged = false): Promise<Call> {
  const { id: optionId, action } = await option(id);
  const signed = forged ? `0x${'12'.repeat(65)}` : await signature(action as WalletRpcAction);
  return {
    method: 'POST',
    path: `${gateway(id, 'confirm')}${query}`,
    headers: APP,
    body: { optionId, results: [{ type: 'walletRpc', data: [signed] }] },
  };
}

/** `[operation, case, expected status, the call (made after any setup)]`. */
type Case = [OperationName, string, number, () => Call | Promise<Call>, string?];

const CASES: Case[] = [
  // Merchant management
  [
    'POST /v1/merchants',
    'created',
    201,
    () => ({
      method: 'POST',
      path: '/v1/merchants',
      headers: { ...KEY, ...idem() },
      body: merchantBody,
    }),
  ],
  [
    'POST /v1/merchants',
    'a bad email',
    400,
    () => ({
      method: 'POST',
      path: '/v1/merchants',
      headers: { ...KEY, ...idem() },
      body: { ...merchantBody, merchantEmail: 'x' },
    }),
  ],
  [
    'POST /v1/merchants',
    'no Idempotency-Key',
    400,
    () => ({ method: 'POST', path: '/v1/merchants', headers: KEY, body: merchantBody }),
  ],
  [
    'POST /v1/merchants',
    'no key',
    401,
    () => ({ method: 'POST', path: '/v1/merchants', headers: idem(), body: merchantBody }),
  ],
  [
    'POST /v1/merchants',
    'a wrong key',
    401,
    () => ({
      method: 'POST',
      path: '/v1/merchants',
      headers: { 'Api-Key': 'sk_wrong', ...idem() },
      body: merchantBody,
    }),
  ],
  [
    'POST /v1/merchants',
    'the app scheme',
    401,
    () => ({
      method: 'POST',
      path: '/v1/merchants',
      headers: { ...APP, ...idem() },
      body: merchantBody,
    }),
  ],
  [
    'POST /v1/merchants',
    'a key reused with another body',
    409,
    async () => {
      const headers = { ...KEY, 'Idempotency-Key': 'reused' };
      await send({ method: 'POST', path: '/v1/merchants', headers, body: merchantBody });
      return {
        method: 'POST',
        path: '/v1/merchants',
        headers,
        body: { ...merchantBody, merchantName: 'Other' },
      };
    },
  ],
  [
    'GET /v1/merchants',
    'a page',
    200,
    () => ({ path: '/v1/merchants?status=active&limit=2', headers: KEY }),
  ],
  [
    'GET /v1/merchants',
    'a bad limit',
    400,
    () => ({ path: '/v1/merchants?limit=0', headers: KEY }),
  ],
  [
    'GET /v1/merchants',
    'a bad cursor',
    400,
    () => ({ path: '/v1/merchants?cursor=nope', headers: KEY }),
  ],
  ['GET /v1/merchants', 'no key', 401, () => ({ path: '/v1/merchants' })],
  [
    'GET /v1/merchants/{merchantId}',
    'with settlements',
    200,
    async () => {
      await settlement();
      return { path: `/v1/merchants/${mid}`, headers: KEY };
    },
  ],
  [
    'GET /v1/merchants/{merchantId}',
    'ignoring an unknown WCP-Version',
    200,
    () => ({ path: `/v1/merchants/${mid}`, headers: { ...KEY, 'WCP-Version': '1999-01-01' } }),
  ],
  [
    'GET /v1/merchants/{merchantId}',
    'unknown',
    404,
    () => ({ path: '/v1/merchants/mer_unknown', headers: KEY }),
  ],
  [
    'GET /v1/merchants/{merchantId}',
    'a non-ASCII key',
    401,
    () => ({ path: `/v1/merchants/${mid}`, headers: { 'Api-Key': 'k\u00e9y' } }),
  ],
  [
    'PATCH /v1/merchants/{merchantId}',
    'updated',
    200,
    () => ({
      method: 'PATCH',
      path: `/v1/merchants/${mid}`,
      headers: KEY,
      body: { iconUrl: null },
    }),
  ],
  [
    'PATCH /v1/merchants/{merchantId}',
    'nothing to update',
    400,
    () => ({ method: 'PATCH', path: `/v1/merchants/${mid}`, headers: KEY, body: {} }),
  ],
  [
    'PATCH /v1/merchants/{merchantId}',
    'unknown',
    404,
    () => ({
      method: 'PATCH',
      path: '/v1/merchants/mer_unknown',
      headers: KEY,
      body: { iconUrl: null },
    }),
  ],
  [
    'PATCH /v1/merchants/{merchantId}',
    'no key',
    401,
    () => ({ method: 'PATCH', path: `/v1/merchants/${mid}`, body: { iconUrl: null } }),
  ],
  [
    'DELETE /v1/merchants/{merchantId}',
    'deleted twice',
    200,
    async () => {
      await send({ method: 'DELETE', path: `/v1/merchants/${mid}`, headers: KEY });
      return { method: 'DELETE', path: `/v1/merchants/${mid}`, headers: KEY };
    },
  ],
  [
    'DELETE /v1/merchants/{merchantId}',
    'unknown',
    404,
    () => ({ method: 'DELETE', path: '/v1/merchants/mer_unknown', headers: KEY }),
  ],
  [
    'DELETE /v1/merchants/{merchantId}',
    'no key',
    401,
    () => ({ method: 'DELETE', path: `/v1/merchants/${mid}` }),
  ],
  [
    'GET /v1/merchants/{merchantId}/settlements',
    'both lists',
    200,
    async () => {
      await settlement();
      return { path: `/v1/merchants/${mid}/settlements`, headers: KEY };
    },
  ],
  [
    'GET /v1/merchants/{merchantId}/settlements',
    'unknown',
    404,
    () => ({ path: '/v1/merchants/mer_unknown/settlements', headers: KEY }),
  ],
  [
    'GET /v1/merchants/{merchantId}/settlements',
    'no key',
    401,
    () => ({ path: `/v1/merchants/${mid}/settlements` }),
  ],
  [
    'POST /v1/merchants/{merchantId}/settlements/crypto',
    'created',
    201,
    () => ({
      method: 'POST',
      path: `/v1/merchants/${mid}/settlements/crypto`,
      headers: { ...KEY, ...idem() },
      body: { settlements: [{ asset: USDC_OPTIMISM, destination: ON_OPTIMISM }] },
    }),
  ],
  [
    'POST /v1/merchants/{merchantId}/settlements/crypto',
    'a destination on another chain',
    400,
    () => ({
      method: 'POST',
      path: `/v1/merchants/${mid}/settlements/crypto`,
      headers: { ...KEY, ...idem() },
      body: { settlements: [{ asset: USDC_OPTIMISM, destination: ON_MAINNET }] },
    }),
  ],
  [
    'POST /v1/merchants/{merchantId}/settlements/crypto',
    'no Idempotency-Key',
    400,
    () => ({
      method: 'POST',
      path: `/v1/merchants/${mid}/settlements/crypto`,
      headers: KEY,
      body: { settlements: [{ asset: USDC_OPTIMISM, destination: ON_OPTIMISM }] },
    }),
  ],
  [
    'POST /v1/merchants/{merchantId}/settlements/crypto',
    'an unknown merchant',
    404,
    () => ({
      method: 'POST',
      path: '/v1/merchants/mer_unknown/settlements/crypto',
      headers: { ...KEY, ...idem() },
      body: { settlements: [{ asset: USDC_OPTIMISM, destination: ON_OPTIMISM }] },
    }),
  ],
  [
    'POST /v1/merchants/{merchantId}/settlements/crypto',
    'an asset registered twice',
    409,
    async () => {
      await settlement();
      return {
        method: 'POST',
        path: `/v1/merchants/${mid}/settlements/crypto`,
        headers: { ...KEY, ...idem() },
        body: { settlements: [{ asset: USDC_OPTIMISM, destination: ON_OPTIMISM }] },
      };
    },
  ],
  [
    'POST /v1/merchants/{merchantId}/settlements/crypto',
    'no key',
    401,
    () => ({
      method: 'POST',
      path: `/v1/merchants/${mid}/settlements/crypto`,
      headers: idem(),
      body: { settlements: [] },
    }),
  ],
  [
    'PUT /v1/merchants/{merchantId}/settlements/crypto/{id}',
    'updated',
    200,
    async () => ({
      method: 'PUT',
      path: `/v1/merchants/${mid}/settlements/crypto/${await settlement()}`,
      headers: KEY,
      body: { destination: ON_OPTIMISM },
    }),
  ],
  [
    'PUT /v1/merchants/{merchantId}/settlements/crypto/{id}',
    'another chain',
    400,
    async () => ({
      method: 'PUT',
      path: `/v1/merchants/${mid}/settlements/crypto/${await settlement()}`,
      headers: KEY,
      body: { destination: ON_MAINNET },
    }),
  ],
  [
    'PUT /v1/merchants/{merchantId}/settlements/crypto/{id}',
    'unknown',
    404,
    () => ({
      method: 'PUT',
      path: `/v1/merchants/${mid}/settlements/crypto/cset_unknown`,
      headers: KEY,
      body: { destination: ON_OPTIMISM },
    }),
  ],
  [
    'PUT /v1/merchants/{merchantId}/settlements/crypto/{id}',
    'no key',
    401,
    () => ({
      method: 'PUT',
      path: `/v1/merchants/${mid}/settlements/crypto/x`,
      body: { destination: ON_OPTIMISM },
    }),
  ],
  [
    'DELETE /v1/merchants/{merchantId}/settlements/crypto/{id}',
    'deleted',
    200,
    async () => ({
      method: 'DELETE',
      path: `/v1/merchants/${mid}/settlements/crypto/${await settlement()}`,
      headers: KEY,
    }),
  ],
  [
    'DELETE /v1/merchants/{merchantId}/settlements/crypto/{id}',
    'unknown',
    404,
    () => ({
      method: 'DELETE',
      path: `/v1/merchants/${mid}/settlements/crypto/cset_unknown`,
      headers: KEY,
    }),
  ],
  [
    'DELETE /v1/merchants/{merchantId}/settlements/crypto/{id}',
    'no key',
    401,
    () => ({ method: 'DELETE', path: `/v1/merchants/${mid}/settlements/crypto/x` }),
  ],
  // The lists
  [
    'GET /v1/merchants/{merchant_id}/payments',
    'a page with a cancelled payment',
    200,
    () => {
      paymentIn('cancelled');
      return {
        path: `/v1/merchants/${mid}/payments?limit=200&status=failed`,
        headers: { 'X-Api-Key': mock.credentials.legacyApiKey },
      };
    },
  ],
  [
    'GET /v1/merchants/{merchant_id}/payments',
    'a bad limit',
    400,
    () => ({ path: `/v1/merchants/${mid}/payments?limit=0`, headers: KEY }),
  ],
  [
    'GET /v1/merchants/{merchant_id}/payments',
    'an unknown sort',
    400,
    () => ({ path: `/v1/merchants/${mid}/payments?sort_by=x`, headers: KEY }),
  ],
  [
    'GET /v1/merchants/{merchant_id}/payments',
    'no key',
    401,
    () => ({ path: `/v1/merchants/${mid}/payments` }),
  ],
  [
    'GET /v1/merchants/{merchant_id}/payments',
    'a wrong key',
    401,
    () => ({ path: `/v1/merchants/${mid}/payments`, headers: { 'X-Api-Key': 'lk_wrong' } }),
  ],
  ...(['GET /v1/merchants/payments', 'GET /v1/payments'] as const).flatMap((op): Case[] => {
    const path = op === 'GET /v1/payments' ? '/v1/payments' : '/v1/merchants/payments';
    const headers = op === 'GET /v1/payments' ? KEY : MERCHANT;
    const everyKind = () => {
      paymentIn('cancelled');
      return `${path}?limit=200&status=succeeded&status=failed&status=processing`;
    };
    return [
      [
        op,
        'settled, cancelled and open items, no WCP-Version',
        200,
        () => ({ path: everyKind(), headers }),
      ],
      [
        op,
        'the same to a 2026-02-18 client',
        200,
        () => ({ path: everyKind(), headers: { ...headers, 'WCP-Version': '2026-02-18' } }),
        '2026-02-18',
      ],
      [
        op,
        'the same to a 2026-02-19.preview client',
        200,
        () => ({ path: everyKind(), headers: { ...headers, 'WCP-Version': '2026-02-19.preview' } }),
        '2026-02-19.preview',
      ],
      [
        op,
        'status=cancelled to a 2026-02-18 client',
        400,
        () => ({
          path: `${path}?status=cancelled`,
          headers: { ...headers, 'WCP-Version': '2026-02-18' },
        }),
      ],
      [op, 'a bad limit', 400, () => ({ path: `${path}?limit=0`, headers })],
      [op, 'an unknown sort', 400, () => ({ path: `${path}?sortBy=x`, headers })],
      [
        op,
        'an unknown WCP-Version',
        400,
        () => ({ path, headers: { ...headers, 'WCP-Version': '1999-01-01' } }),
      ],
      [
        op,
        'no key',
        401,
        () => ({ path, headers: op === 'GET /v1/payments' ? {} : { 'Merchant-Id': mid } }),
      ],
      [op, 'a wrong key', 401, () => ({ path, headers: { ...headers, 'Api-Key': 'sk_wrong' } })],
      [op, 'the app scheme', 401, () => ({ path, headers: { ...APP, 'Merchant-Id': mid } })],
    ];
  }),
  [
    'GET /v1/merchants/payments',
    'no Merchant-Id',
    401,
    () => ({ path: '/v1/merchants/payments', headers: KEY }),
  ],
  // Refunds
  [
    'POST /v1/refunds',
    'refunded',
    200,
    () => ({
      method: 'POST',
      path: '/v1/refunds',
      headers: MERCHANT,
      body: { paymentId: paymentIn('succeeded') },
    }),
  ],
  [
    'POST /v1/refunds',
    'a bad paymentId',
    400,
    () => ({ method: 'POST', path: '/v1/refunds', headers: MERCHANT, body: { paymentId: 'x' } }),
  ],
  [
    'POST /v1/refunds',
    'an open payment',
    400,
    () => ({
      method: 'POST',
      path: '/v1/refunds',
      headers: MERCHANT,
      body: { paymentId: openPayment() },
    }),
  ],
  [
    'POST /v1/refunds',
    'an unknown WCP-Version',
    400,
    () => ({
      method: 'POST',
      path: '/v1/refunds',
      headers: { ...MERCHANT, 'WCP-Version': '1999-01-01' },
      body: { paymentId: openPayment() },
    }),
  ],
  [
    'POST /v1/refunds',
    'no Merchant-Id',
    401,
    () => ({
      method: 'POST',
      path: '/v1/refunds',
      headers: KEY,
      body: { paymentId: openPayment() },
    }),
  ],
  [
    'POST /v1/refunds',
    'no key',
    401,
    () => ({
      method: 'POST',
      path: '/v1/refunds',
      headers: { 'Merchant-Id': mid },
      body: { paymentId: openPayment() },
    }),
  ],
  [
    'POST /v1/refunds',
    'an unknown payment',
    404,
    () => ({
      method: 'POST',
      path: '/v1/refunds',
      headers: MERCHANT,
      body: { paymentId: 'pay_unknown' },
    }),
  ],
  [
    'POST /v1/refunds',
    'a second refund',
    409,
    async () => {
      const paymentId = paymentIn('succeeded');
      await send({ method: 'POST', path: '/v1/refunds', headers: MERCHANT, body: { paymentId } });
      return { method: 'POST', path: '/v1/refunds', headers: MERCHANT, body: { paymentId } };
    },
  ],
  // Payments
  [
    'POST /v1/payments',
    'created',
    201,
    () => ({ method: 'POST', path: '/v1/payments', headers: MERCHANT, body: order }),
  ],
  [
    'POST /v1/payments',
    'a bad amount',
    400,
    () => ({
      method: 'POST',
      path: '/v1/payments',
      headers: MERCHANT,
      body: { ...order, amount: { unit: 'usd', value: '1' } },
    }),
  ],
  [
    'POST /v1/payments',
    'no Merchant-Id',
    400,
    () => ({ method: 'POST', path: '/v1/payments', headers: KEY, body: order }),
  ],
  [
    'POST /v1/payments',
    'an unknown merchant',
    400,
    () => ({
      method: 'POST',
      path: '/v1/payments',
      headers: { ...KEY, 'Merchant-Id': 'mer_unknown' },
      body: order,
    }),
  ],
  [
    'POST /v1/payments',
    'a non-ASCII header',
    400,
    () => ({
      method: 'POST',
      path: '/v1/payments',
      headers: { ...MERCHANT, 'X-Note': 'caf\u00e9' },
      body: order,
    }),
  ],
  [
    'POST /v1/payments',
    'the app scheme',
    401,
    () => ({
      method: 'POST',
      path: '/v1/payments',
      headers: { ...APP, 'Merchant-Id': mid },
      body: order,
    }),
  ],
  [
    'GET /v1/gateway/payment/{id}',
    'open, no buyer',
    200,
    () => ({ path: `/v1/gateway/payment/${openPayment()}`, headers: KEY }),
  ],
  [
    'GET /v1/gateway/payment/{id}',
    'succeeded, to the app scheme',
    200,
    () => ({ path: `/v1/gateway/payment/${paymentIn('succeeded')}`, headers: APP }),
  ],
  [
    'GET /v1/gateway/payment/{id}',
    'both schemes',
    400,
    () => ({ path: `/v1/gateway/payment/${openPayment()}`, headers: { ...KEY, ...APP } }),
  ],
  [
    'GET /v1/gateway/payment/{id}',
    'no credentials',
    401,
    () => ({ path: `/v1/gateway/payment/${openPayment()}` }),
  ],
  [
    'GET /v1/gateway/payment/{id}',
    'a wrong Client-Id',
    401,
    () => ({
      path: `/v1/gateway/payment/${openPayment()}`,
      headers: { ...APP, 'Client-Id': 'nope' },
    }),
  ],
  [
    'GET /v1/gateway/payment/{id}',
    'unknown',
    404,
    () => ({ path: '/v1/gateway/payment/pay_unknown', headers: KEY }),
  ],
  [
    'GET /v1/gateway/payment/{id}/status',
    'open',
    200,
    () => ({ path: `/v1/gateway/payment/${openPayment()}/status`, headers: APP }),
  ],
  [
    'GET /v1/gateway/payment/{id}/status',
    'failed',
    200,
    () => ({ path: `/v1/gateway/payment/${paymentIn('failed')}/status`, headers: APP }),
  ],
  [
    'GET /v1/gateway/payment/{id}/status',
    'App-Id without Client-Id',
    401,
    () => ({
      path: `/v1/gateway/payment/${openPayment()}/status`,
      headers: { 'App-Id': mock.credentials.appId },
    }),
  ],
  [
    'GET /v1/gateway/payment/{id}/status',
    'unknown',
    404,
    () => ({ path: '/v1/gateway/payment/pay_unknown/status', headers: KEY }),
  ],
  // The buyer's half: every answer the mock gives a wallet.
  [
    'POST /v1/gateway/payment/{id}/options',
    'a USDC option with the payment’s info',
    200,
    () => ({
      method: 'POST',
      path: `${gateway(openPayment(), 'options')}?includePaymentInfo=true`,
      headers: APP,
      body: { accounts: [BUYER_ON_BASE, BUYER_ON_MAINNET] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'a USDT option with its build action (the sample merchant settles USDT on Ethereum)',
    200,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'options'),
      headers: KEY,
      body: { accounts: [BUYER_ON_MAINNET], refresh: null },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'no option on another chain',
    200,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'options'),
      headers: APP,
      body: { accounts: [BUYER_ON_ARBITRUM] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'a final payment',
    200,
    () => ({
      method: 'POST',
      path: `${gateway(paymentIn('succeeded'), 'options')}?includePaymentInfo=true`,
      headers: APP,
      body: { accounts: [BUYER_ON_BASE] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'no accounts',
    400,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'options'),
      headers: APP,
      body: { accounts: [] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'a bad includePaymentInfo',
    400,
    () => ({
      method: 'POST',
      path: `${gateway(openPayment(), 'options')}?includePaymentInfo=1`,
      headers: APP,
      body: { accounts: [BUYER_ON_BASE] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'a body that is not JSON',
    400,
    () => ({ method: 'POST', path: gateway(openPayment(), 'options'), headers: APP, body: '{' }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'a non-ASCII header',
    400,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'options'),
      headers: { ...APP, 'Sdk-Name': 'caf\u00e9' },
      body: { accounts: [BUYER_ON_BASE] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'an unknown WCP-Version',
    400,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'options'),
      headers: { ...APP, 'WCP-Version': '1999-01-01' },
      body: { accounts: [BUYER_ON_BASE] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'no credentials',
    401,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'options'),
      body: { accounts: [BUYER_ON_BASE] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'Client-Id without App-Id',
    401,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'options'),
      headers: { 'Client-Id': mock.credentials.clientId },
      body: { accounts: [BUYER_ON_BASE] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/options',
    'unknown',
    404,
    () => ({
      method: 'POST',
      path: gateway('pay_unknown', 'options'),
      headers: APP,
      body: { accounts: [BUYER_ON_BASE] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/fetch',
    'a build action resolved',
    200,
    async () => {
      const id = openPayment();
      const { id: optionId, action } = await option(id, BUYER_ON_MAINNET);
      const data = (action as { data: { data: string } }).data.data;
      return { method: 'POST', path: gateway(id, 'fetch'), headers: APP, body: { optionId, data } };
    },
  ],
  [
    'POST /v1/gateway/payment/{id}/fetch',
    'an unknown option',
    400,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'fetch'),
      headers: APP,
      body: { optionId: 'opt_unknown', data: '' },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/fetch',
    'no data',
    400,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'fetch'),
      headers: APP,
      body: { optionId: 'opt_1' },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/fetch',
    'a wrong App-Id',
    401,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'fetch'),
      headers: { ...APP, 'App-Id': 'app_wrong' },
      body: { optionId: 'opt_1', data: '' },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/fetch',
    'unknown',
    404,
    () => ({
      method: 'POST',
      path: gateway('pay_unknown', 'fetch'),
      headers: APP,
      body: { optionId: 'opt_1', data: '' },
    }),
  ],
  ['POST /v1/gateway/payment/{id}/confirm', 'processing', 200, () => confirmCall(openPayment())],
  [
    'POST /v1/gateway/payment/{id}/confirm',
    'held until succeeded',
    200,
    () => confirmCall(openPayment(), '?maxPollMs=2000'),
  ],
  [
    'POST /v1/gateway/payment/{id}/confirm',
    'a forged signature',
    400,
    () => confirmCall(openPayment(), '', true),
  ],
  [
    'POST /v1/gateway/payment/{id}/confirm',
    'an unknown option',
    400,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'confirm'),
      headers: APP,
      body: { optionId: 'opt_unknown', results: [] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/confirm',
    'no results',
    400,
    () => ({
      method: 'POST',
      path: gateway(openPayment(), 'confirm'),
      headers: APP,
      body: { optionId: 'opt_1' },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/confirm',
    'a bad maxPollMs',
    400,
    () => ({
      method: 'POST',
      path: `${gateway(openPayment(), 'confirm')}?maxPollMs=soon`,
      headers: APP,
      body: { optionId: 'opt_1', results: [] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/confirm',
    'a paid payment again',
    400,
    async () => {
      const call = await confirmCall(openPayment());
      await send(call);
      return call;
    },
  ],
  [
    'POST /v1/gateway/payment/{id}/confirm',
    'an expired payment',
    400,
    async () => {
      const id = openPayment();
      const call = await confirmCall(id);
      mock.setPaymentStatus(id, 'expired');
      return call;
    },
  ],
  [
    'POST /v1/gateway/payment/{id}/confirm',
    'a wrong key',
    401,
    async () => ({ ...(await confirmCall(openPayment())), headers: { 'Api-Key': 'sk_wrong' } }),
  ],
  [
    'POST /v1/gateway/payment/{id}/confirm',
    'unknown',
    404,
    () => ({
      method: 'POST',
      path: gateway('pay_unknown', 'confirm'),
      headers: APP,
      body: { optionId: 'opt_1', results: [] },
    }),
  ],
  [
    'POST /v1/gateway/payment/{id}/cancel',
    'cancelled',
    200,
    () => ({ method: 'POST', path: gateway(openPayment(), 'cancel'), headers: APP }),
  ],
  [
    'POST /v1/gateway/payment/{id}/cancel',
    'already final',
    400,
    () => ({ method: 'POST', path: gateway(paymentIn('failed'), 'cancel'), headers: APP }),
  ],
  [
    'POST /v1/gateway/payment/{id}/cancel',
    'expired',
    400,
    () => ({ method: 'POST', path: gateway(paymentIn('expired'), 'cancel'), headers: KEY }),
  ],
  [
    'POST /v1/gateway/payment/{id}/cancel',
    'no credentials',
    401,
    () => ({ method: 'POST', path: gateway(openPayment(), 'cancel') }),
  ],
  [
    'POST /v1/gateway/payment/{id}/cancel',
    'unknown',
    404,
    () => ({ method: 'POST', path: gateway('pay_unknown', 'cancel'), headers: APP }),
  ],
  ...(
    ['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'] as const
  ).map(
    (status): Case => [
      'GET /v1/payments/{id}',
      status,
      200,
      () => ({ path: `/v1/payments/${paymentIn(status)}`, headers: MERCHANT }),
    ],
  ),
  [
    'GET /v1/payments/{id}',
    'succeeded and paid out',
    200,
    () => {
      const paid = mock.payments(mid).find((p) => p.status === 'succeeded');
      return { path: `/v1/payments/${paid?.id}`, headers: MERCHANT };
    },
  ],
  [
    'GET /v1/payments/{id}',
    'the app scheme',
    401,
    () => ({ path: `/v1/payments/${openPayment()}`, headers: { ...APP, 'Merchant-Id': mid } }),
  ],
  [
    'GET /v1/payments/{id}',
    'no Merchant-Id',
    401,
    () => ({ path: `/v1/payments/${openPayment()}`, headers: KEY }),
  ],
  [
    'GET /v1/payments/{id}',
    'unknown',
    404,
    () => ({ path: '/v1/payments/pay_unknown', headers: MERCHANT }),
  ],
  [
    'GET /v1/payments/{id}/status',
    'open',
    200,
    () => ({ path: `/v1/payments/${openPayment()}/status`, headers: MERCHANT }),
  ],
  [
    'GET /v1/payments/{id}/status',
    'succeeded',
    200,
    () => ({ path: `/v1/payments/${paymentIn('succeeded')}/status`, headers: MERCHANT }),
  ],
  [
    'GET /v1/payments/{id}/status',
    'a bad maxPollMs',
    400,
    () => ({ path: `/v1/payments/${openPayment()}/status?maxPollMs=x`, headers: MERCHANT }),
  ],
  [
    'GET /v1/payments/{id}/status',
    'a wrong key',
    401,
    () => ({
      path: `/v1/payments/${openPayment()}/status`,
      headers: { ...MERCHANT, 'Api-Key': 'sk_wrong' },
    }),
  ],
  [
    'GET /v1/payments/{id}/status',
    'unknown',
    404,
    () => ({ path: '/v1/payments/pay_unknown/status', headers: MERCHANT }),
  ],
  [
    'POST /v1/payments/{id}/cancel',
    'cancelled',
    200,
    () => ({ method: 'POST', path: `/v1/payments/${openPayment()}/cancel`, headers: MERCHANT }),
  ],
  [
    'POST /v1/payments/{id}/cancel',
    'already final',
    400,
    () => ({
      method: 'POST',
      path: `/v1/payments/${paymentIn('succeeded')}/cancel`,
      headers: MERCHANT,
    }),
  ],
  [
    'POST /v1/payments/{id}/cancel',
    'no key',
    401,
    () => ({
      method: 'POST',
      path: `/v1/payments/${openPayment()}/cancel`,
      headers: { 'Merchant-Id': mid },
    }),
  ],
  [
    'POST /v1/payments/{id}/cancel',
    'unknown',
    404,
    () => ({ method: 'POST', path: '/v1/payments/pay_unknown/cancel', headers: MERCHANT }),
  ],
];

describe('every answer of every operation has its published shape', () => {
  it.each(CASES)('%s, %s: %i', async (operation, _case, status, call, version) => {
    const res = await send(await call());
    expect(res.status).toBe(status);
    expect(contractIssues(operation, res.status, res.body, version)).toEqual([]);
  });

  it('a 2026-02-18 client sees a cancelled payment as failed in both lists', async () => {
    const id = paymentIn('cancelled');
    for (const path of ['/v1/merchants/payments', '/v1/payments']) {
      const res = await send({
        path: `${path}?limit=200&status=failed`,
        headers: { ...MERCHANT, 'WCP-Version': '2026-02-18' },
      });
      const items = (res.body as { data: { paymentId: string; status: string }[] }).data;
      expect(items.find((item) => item.paymentId === id)?.status).toBe('failed');
      const latest = await send({ path: `${path}?limit=200&status=cancelled`, headers: MERCHANT });
      const shown = (latest.body as { data: { paymentId: string; status: string }[] }).data;
      expect(shown.find((item) => item.paymentId === id)?.status).toBe('cancelled');
    }
  });

  it('answers outside the operations keep the generic error shape: 404, 405, 413', async () => {
    const answers = [
      await send({ path: '/v1/nowhere', headers: KEY }),
      await send({ method: 'PUT', path: '/v1/payments', headers: KEY }),
      await send({
        method: 'POST',
        path: '/v1/merchants',
        headers: { ...KEY, ...idem() },
        body: 'x'.repeat(1024 * 1024 + 1),
      }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 405, 413]);
    for (const answer of answers) expect(GENERIC_ERROR.safeParse(answer.body).success).toBe(true);
  });

  it('under /v1/gateway/ every error, routed or not, takes a code of the ErrorCode enum', async () => {
    const answers = [
      await send({ path: '/v1/gateway/nowhere', headers: APP }),
      await send({ method: 'POST', path: '/v1/gateway/payment/p1/refund', headers: APP }),
      await send({ path: '/v1/gateway/payment/p1/options', headers: APP }),
      await send({ method: 'DELETE', path: '/v1/gateway/payment/p1', headers: APP }),
      await send({
        method: 'POST',
        path: gateway(openPayment(), 'options'),
        headers: APP,
        body: 'x'.repeat(1024 * 1024 + 1),
      }),
      await send({ path: '/v1/gateway/payment/%E0%A4%A', headers: APP }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 404, 405, 405, 413, 404]);
    for (const answer of answers) {
      expect(GATEWAY_ERROR.safeParse(answer.body).error?.issues ?? []).toEqual([]);
    }
    for (const status of [400, 401, 403, 404, 405, 409, 413, 418, 429, 500, 502, 503, 504]) {
      mock.failNext({ status, match: { path: '/v1/gateway/' } });
      const res = await send({
        method: 'POST',
        path: '/v1/gateway/payment/p1/confirm',
        headers: APP,
      });
      expect([status, GATEWAY_ERROR.safeParse(res.body).success]).toEqual([status, true]);
    }
  });
});

/** A call of each operation that reaches it (the fault answers first, whatever the call). */
const PROBES: Record<OperationName, Call> = {
  'POST /v1/merchants': { method: 'POST', path: '/v1/merchants' },
  'GET /v1/merchants': { path: '/v1/merchants' },
  'GET /v1/merchants/{merchantId}': { path: '/v1/merchants/m1' },
  'PATCH /v1/merchants/{merchantId}': { method: 'PATCH', path: '/v1/merchants/m1' },
  'DELETE /v1/merchants/{merchantId}': { method: 'DELETE', path: '/v1/merchants/m1' },
  'GET /v1/merchants/{merchantId}/settlements': { path: '/v1/merchants/m1/settlements' },
  'POST /v1/merchants/{merchantId}/settlements/crypto': {
    method: 'POST',
    path: '/v1/merchants/m1/settlements/crypto',
  },
  'PUT /v1/merchants/{merchantId}/settlements/crypto/{id}': {
    method: 'PUT',
    path: '/v1/merchants/m1/settlements/crypto/c1',
  },
  'DELETE /v1/merchants/{merchantId}/settlements/crypto/{id}': {
    method: 'DELETE',
    path: '/v1/merchants/m1/settlements/crypto/c1',
  },
  'GET /v1/merchants/{merchant_id}/payments': { path: '/v1/merchants/m1/payments' },
  'GET /v1/merchants/payments': { path: '/v1/merchants/payments' },
  'GET /v1/payments': { path: '/v1/payments' },
  'POST /v1/refunds': { method: 'POST', path: '/v1/refunds' },
  'POST /v1/payments': { method: 'POST', path: '/v1/payments' },
  'GET /v1/gateway/payment/{id}': { path: '/v1/gateway/payment/p1' },
  'GET /v1/gateway/payment/{id}/status': { path: '/v1/gateway/payment/p1/status' },
  'POST /v1/gateway/payment/{id}/options': {
    method: 'POST',
    path: '/v1/gateway/payment/p1/options',
  },
  'POST /v1/gateway/payment/{id}/fetch': { method: 'POST', path: '/v1/gateway/payment/p1/fetch' },
  'POST /v1/gateway/payment/{id}/confirm': {
    method: 'POST',
    path: '/v1/gateway/payment/p1/confirm',
  },
  'POST /v1/gateway/payment/{id}/cancel': { method: 'POST', path: '/v1/gateway/payment/p1/cancel' },
  'GET /v1/payments/{id}': { path: '/v1/payments/p1' },
  'GET /v1/payments/{id}/status': { path: '/v1/payments/p1/status' },
  'POST /v1/payments/{id}/cancel': { method: 'POST', path: '/v1/payments/p1/cancel' },
};

describe('a failNext fault without a code looks like the operation’s own error', () => {
  const faults = Object.entries(OPERATIONS).flatMap(([operation, spec]) =>
    Object.keys(spec.errors).map((status) => [operation as OperationName, Number(status)] as const),
  );
  it.each(faults)('%s, %i', async (operation, status) => {
    const probe = PROBES[operation];
    mock.failNext({
      status,
      match: { method: probe.method ?? 'GET', path: new RegExp(`^${probe.path}$`) },
    });
    const res = await send({ ...probe, headers: KEY });
    expect(res.status).toBe(status);
    expect(contractIssues(operation, res.status, res.body)).toEqual([]);
  });
});
