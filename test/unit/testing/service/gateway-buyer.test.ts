// The buyer's half of the mock (options, fetch, confirm, cancel) over msw and real HTTP, paid with
// viem accounts: what a wallet sends, what it gets back, and what each refusal leaves unchanged.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it, vi } from 'vitest';
import {
  addSettlements,
  type ErrorBody,
  TRANSPORTS,
  USDC_POLYGON,
  useMockGateway,
} from '../../../support/mock-harness';

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const USDT_ETHEREUM = 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7';
const SHOP_POLYGON = '0x1111111111111111111111111111111111111111';

interface WalletRpc {
  type: 'walletRpc';
  data: { chain_id: string; method: string; params: [string, string] };
}
interface Option {
  id: string;
  account: string;
  amount: { unit: string; value: string; display: Record<string, unknown> };
  etaS: number;
  expiresAt: number;
  actions: (WalletRpc | { type: 'build'; data: { data: string } })[];
}
interface Options {
  options: Option[];
  info?: Record<string, unknown>;
}
interface Confirmation {
  status: string;
  isFinal: boolean;
  pollInMs?: number;
  info?: { txId: string; optionAmount: { unit: string; value: string } };
}

const typedData = (action: WalletRpc) => JSON.parse(action.data.params[1]);

// Most tests take 0.1 to 0.7 s, the first viem signature up to 1.7 s, on a loaded 2-core machine:
// 20 s holds at ten times that (vitest's 5 s did not); the 64 quotes have their own.
vi.setConfig({ testTimeout: 20_000 });

describe.each(TRANSPORTS)('the buyer side of the mock over %s', (transport) => {
  const h = useMockGateway(transport, { pollInMs: 40 });
  const buyer = privateKeyToAccount(generatePrivateKey());
  const onBase = `eip155:8453:${buyer.address}`;
  const onEthereum = `eip155:1:${buyer.address}`;
  const merchant = (id = h.mock.sample.merchantId) => ({ ...h.auth, 'Merchant-Id': id });
  /** The address the sample merchant's seeded settlement in `asset` pays to. */
  const seededDestination = (asset: string) =>
    h.mock.sample.cryptoSettlements.find((s) => s.asset === asset)?.destination.split(':')[2];

  async function createPayment(
    value = '1250',
    currency = 'USD',
    merchantId = h.mock.sample.merchantId,
  ): Promise<string> {
    const res = await h.call<{ paymentId: string }>('/v1/payments', {
      method: 'POST',
      headers: merchant(merchantId),
      body: { amount: { unit: `iso4217/${currency}`, value }, referenceId: 'buyer-1' },
    });
    return res.body.paymentId;
  }
  const options = (id: string, accounts: unknown, query = '') =>
    h.call<Options & ErrorBody>(`/v1/gateway/payment/${id}/options${query}`, {
      method: 'POST',
      headers: h.auth,
      body: { accounts },
    });
  const confirm = (id: string, body: unknown, query = '') =>
    h.call<Confirmation & ErrorBody>(`/v1/gateway/payment/${id}/confirm${query}`, {
      method: 'POST',
      headers: h.auth,
      body,
    });
  const signed = async (action: WalletRpc, signer = buyer) => ({
    type: 'walletRpc',
    data: [await signer.signTypedData(typedData(action))],
  });
  /** The first option for the buyer on Base, with its one walletRpc action. */
  async function usdcOption(id: string): Promise<[Option, WalletRpc]> {
    const { body } = await options(id, [onBase]);
    const option = body.options[0] as Option;
    return [option, option.actions[0] as WalletRpc];
  }
  const statusOf = (id: string) => h.mock.getPayment(id)?.status;

  it('quotes USDC on Base to the sample merchant’s seeded settlement: one EIP-3009 action to sign', async () => {
    const id = await createPayment();
    const before = Math.floor(Date.now() / 1000);
    const res = await options(id, [onBase]);
    expect(res.status).toBe(200);
    expect(res.body.info).toBeUndefined();
    const [option] = res.body.options;
    expect(option).toMatchObject({
      account: onBase,
      amount: {
        unit: `caip19/${USDC_BASE}`,
        value: '12500000',
        display: { assetSymbol: 'USDC', decimals: 6, networkName: 'Base' },
      },
      etaS: 1,
    });
    expect(option?.expiresAt).toBeGreaterThanOrEqual(before + 299);
    expect(option?.expiresAt).toBeLessThanOrEqual(before + 300);
    expect(option?.actions).toHaveLength(1);
    const action = option?.actions[0] as WalletRpc;
    expect(action.type).toBe('walletRpc');
    expect(action.data.chain_id).toBe('eip155:8453');
    expect(action.data.method).toBe('eth_signTypedData_v4');
    expect(action.data.params[0]).toBe(buyer.address);
    const typed = typedData(action);
    expect(typed.primaryType).toBe('ReceiveWithAuthorization');
    expect(typed.domain).toEqual({
      name: 'USD Coin',
      version: '2',
      chainId: '0x2105',
      verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    });
    expect(typed.message).toMatchObject({
      from: buyer.address,
      to: seededDestination(USDC_BASE),
      value: `0x${(12_500_000).toString(16)}`,
      validAfter: '0x0',
      validBefore: `0x${option?.expiresAt.toString(16)}`,
    });
    expect(typed.message.nonce).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('quotes each settlement on the account’s chain at the catalog’s rates, none elsewhere', async () => {
    const id = await createPayment('1000', 'EUR'); // 10.00 EUR at 1.10 USD
    const res = await options(id, [
      onBase,
      onEthereum,
      `eip155:10:${buyer.address}`,
      'eip155:8453:0xabc',
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv',
    ]);
    expect(res.body.options.map((o) => [o.account, o.amount.unit, o.amount.value])).toEqual([
      [onBase, `caip19/${USDC_BASE}`, '11000000'],
      [onEthereum, `caip19/${USDT_ETHEREUM}`, '11000000'],
    ]);
    const [usdc, usdt] = res.body.options as [Option, Option];
    expect(typedData(usdc.actions[0] as WalletRpc).message.to).toBe(seededDestination(USDC_BASE));
    expect(usdt.actions).toEqual([{ type: 'build', data: { data: expect.any(String) } }]);
  });

  it('never quotes past the payment’s own expiry', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 30;
    const created = await h.call<{ paymentId: string }>('/v1/payments', {
      method: 'POST',
      headers: merchant(),
      body: { amount: { unit: 'iso4217/USD', value: '500' }, referenceId: 'soon', expiresAt },
    });
    const { body } = await options(created.body.paymentId, [onBase]);
    expect(body.options[0]?.expiresAt).toBe(expiresAt);
  });

  it('answers options: [] on every chain to a merchant with no crypto settlement', async () => {
    const bare = h.mock.sample.otherMerchantIds[0] as string;
    expect(h.mock.getMerchant(bare)?.settlements.crypto).toEqual([]);
    const id = await createPayment('1250', 'USD', bare);
    const res = await options(id, [onBase, onEthereum, `eip155:10:${buyer.address}`]);
    expect([res.status, res.body]).toEqual([200, { options: [] }]);
    expect(statusOf(id)).toBe('requires_action');
  });

  it('quotes nothing for settlements outside the catalog or to a destination that is no address', async () => {
    const bare = h.mock.sample.otherMerchantIds[0] as string;
    const res = await addSettlements(h, bare, [
      { asset: USDC_POLYGON, destination: `eip155:137:${SHOP_POLYGON}` },
      { asset: USDC_BASE, destination: 'eip155:8453:treasury' },
    ]);
    expect(res.status).toBe(201);
    const id = await createPayment('1250', 'USD', bare);
    const quoted = await options(id, [onBase, `eip155:137:${buyer.address}`]);
    expect(quoted.body.options).toEqual([]);
  });

  it('keeps a payment’s last 64 quotes: an older option is unknown to confirm', async () => {
    const id = await createPayment();
    const [first, action] = await usdcOption(id);
    for (let i = 0; i < 64; i++) await options(id, [onBase]);
    const res = await confirm(id, { optionId: first.id, results: [await signed(action)] });
    expect([res.status, res.body.code]).toEqual([400, 'invalid_params']);
  }, 60_000); // 65 quote requests: 1 to 3.4 s on a loaded machine

  it('refuses a malformed refresh or collectedData with 400 params_validation', async () => {
    const id = await createPayment();
    const refresh = await h.call<ErrorBody>(
      `/v1/gateway/payment/${id}/options?includePaymentInfo=false`,
      {
        method: 'POST',
        headers: h.auth,
        body: { accounts: [onBase], refresh: 'opt_1' },
      },
    );
    expect([refresh.status, refresh.body.issues?.[0]?.field]).toEqual([400, 'refresh']);
    const collected = await confirm(id, { optionId: 'opt_1', results: [], collectedData: 'x' });
    expect([collected.status, collected.body.issues?.[0]?.field]).toEqual([400, 'collectedData']);
  });

  it('records the confirm’s Sdk-Name as the wallet, else Wallet', async () => {
    const id = await createPayment();
    const [option, action] = await usdcOption(id);
    await h.call(`/v1/gateway/payment/${id}/confirm`, {
      method: 'POST',
      headers: { ...h.auth, 'Sdk-Name': 'acme-wallet' },
      body: { optionId: option.id, results: [await signed(action)] },
    });
    const view = await h.call<{ buyer: { accountProviderName: string } }>(
      `/v1/gateway/payment/${id}`,
      { headers: h.auth },
    );
    expect(view.body.buyer.accountProviderName).toBe('acme-wallet');
    const other = await createPayment();
    const [next, nextAction] = await usdcOption(other);
    await confirm(other, { optionId: next.id, results: [await signed(nextAction)] });
    expect(h.mock.getPayment(other)?.buyer?.walletName).toBe('Wallet');
  });

  it('answers options: [] for accounts on other chains, and for a payment no longer open', async () => {
    const id = await createPayment();
    const elsewhere = await options(id, [`eip155:10:${buyer.address}`]);
    expect([elsewhere.status, elsewhere.body]).toEqual([200, { options: [] }]);
    h.mock.setPaymentStatus(id, 'succeeded');
    const final = await options(id, [onBase], '?includePaymentInfo=true');
    expect(final.body.options).toEqual([]);
    expect(final.body.info).toMatchObject({ status: 'succeeded' });
  });

  it('adds the gateway view as info with includePaymentInfo=true, and refuses other values', async () => {
    const id = await createPayment();
    const res = await options(id, [onBase], '?includePaymentInfo=true');
    const view = await h.call(`/v1/gateway/payment/${id}`, { headers: h.auth });
    expect(res.body.info).toEqual(view.body);
    const bad = await options(id, [onBase], '?includePaymentInfo=yes');
    expect([bad.status, bad.body.code]).toEqual([400, 'params_validation']);
  });

  it.each([
    ['no account', []],
    ['51 accounts', Array.from({ length: 51 }, () => `eip155:8453:${buyer.address}`)],
    ['an account that is not CAIP-10', ['0xabc']],
    ['not an array', 'eip155:8453:0xabc'],
  ])('refuses %s with 400 params_validation naming accounts', async (_case, accounts) => {
    const res = await options(await createPayment(), accounts);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('params_validation');
    expect(res.body.issues?.[0]?.field).toBe('accounts');
  });

  it('answers 404 payment_not_found for an unknown payment on every buyer route', async () => {
    for (const route of ['options', 'fetch', 'confirm', 'cancel']) {
      const res = await h.call<ErrorBody>(`/v1/gateway/payment/pay_unknown/${route}`, {
        method: 'POST',
        headers: h.auth,
        body: { accounts: [onBase], optionId: 'opt_1', data: '', results: [] },
      });
      expect([route, res.status, res.body.code]).toEqual([route, 404, 'payment_not_found']);
    }
  });

  it('a valid confirm: processing, succeeded one pollInMs later, the buyer recorded everywhere', async () => {
    const id = await createPayment();
    const [option, action] = await usdcOption(id);
    const res = await confirm(id, { optionId: option.id, results: [await signed(action)] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'processing', isFinal: false, pollInMs: 40 });
    const held = await h.call<Confirmation>(`/v1/gateway/payment/${id}/status?maxPollMs=2000`, {
      headers: h.auth,
    });
    expect(held.body).toMatchObject({ status: 'succeeded', isFinal: true });
    expect(held.body.info?.txId).toMatch(/^test:pay_[A-Za-z0-9]+$/);
    expect(held.body.info?.optionAmount).toMatchObject({
      unit: `caip19/${USDC_BASE}`,
      value: '12500000',
    });

    const view = await h.call<{ buyer: { accountCaip10: string } }>(`/v1/gateway/payment/${id}`, {
      headers: h.auth,
    });
    expect(view.body.buyer.accountCaip10).toBe(onBase);
    const details = await h.call<Confirmation>(`/v1/payments/${id}`, { headers: merchant() });
    expect(details.body.info?.txId).toBe(held.body.info?.txId);
    const list = await h.call<{ data: { paymentId: string; buyer?: { accountCaip10: string } }[] }>(
      '/v1/merchants/payments?limit=5',
      { headers: merchant() },
    );
    expect(list.body.data.find((p) => p.paymentId === id)?.buyer?.accountCaip10).toBe(onBase);
    const partner = await h.call<{
      data: { paymentId: string; buyer?: { accountCaip10: string } }[];
    }>('/v1/payments?limit=5', { headers: h.auth });
    expect(partner.body.data.find((p) => p.paymentId === id)?.buyer?.accountCaip10).toBe(onBase);
    const legacy = await h.call<{ data: { payment_id: string; buyer_caip10: string | null }[] }>(
      `/v1/merchants/${h.mock.sample.merchantId}/payments?limit=5`,
      { headers: h.auth },
    );
    expect(legacy.body.data.find((p) => p.payment_id === id)?.buyer_caip10).toBe(onBase);
    expect(h.mock.getPayment(id)?.buyer?.accountCaip10).toBe(onBase);
  });

  it('holds a confirm with maxPollMs until the payment is final', async () => {
    const id = await createPayment();
    const [option, action] = await usdcOption(id);
    const res = await confirm(
      id,
      { optionId: option.id, results: [await signed(action)] },
      '?maxPollMs=2000',
    );
    expect(res.body).toMatchObject({ status: 'succeeded', isFinal: true });
    expect(res.body.pollInMs).toBeUndefined();
    expect(res.body.info?.txId).toMatch(/^test:pay_[A-Za-z0-9]+$/);
  });

  it('pays USDT through fetch: the build action resolves into an EIP-2612 Permit', async () => {
    const id = await createPayment();
    const { body } = await options(id, [onEthereum]);
    const option = body.options[0] as Option;
    const build = option.actions[0] as { type: 'build'; data: { data: string } };
    const fetched = await h.call<{ actions: WalletRpc[] }>(`/v1/gateway/payment/${id}/fetch`, {
      method: 'POST',
      headers: h.auth,
      body: { optionId: option.id, data: build.data.data },
    });
    expect(fetched.status).toBe(200);
    const [action] = fetched.body.actions as [WalletRpc];
    expect(action.data).toMatchObject({ chain_id: 'eip155:1', method: 'eth_signTypedData_v4' });
    const typed = typedData(action);
    expect(typed.primaryType).toBe('Permit');
    expect(typed.domain).toMatchObject({ name: 'Tether USD', chainId: '0x1' });
    expect(typed.message).toMatchObject({
      owner: buyer.address,
      spender: seededDestination(USDT_ETHEREUM),
    });
    const wrong = await h.call<ErrorBody>(`/v1/gateway/payment/${id}/fetch`, {
      method: 'POST',
      headers: h.auth,
      body: { optionId: option.id, data: 'something else' },
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'invalid_params']);
    const res = await confirm(
      id,
      { optionId: option.id, results: [await signed(action)] },
      '?maxPollMs=2000',
    );
    expect(res.body).toMatchObject({ status: 'succeeded' });
    expect(h.mock.getPayment(id)?.token).toMatchObject({ symbol: 'USDT', network: 'eip155:1' });
  });

  it('refuses a forged, garbled or missing signature and an unknown option, leaving the payment open', async () => {
    const id = await createPayment();
    const [option, action] = await usdcOption(id);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const refusals = [
      { optionId: option.id, results: [await signed(action, stranger)] },
      { optionId: option.id, results: [{ type: 'walletRpc', data: [`0x${'ab'.repeat(65)}`] }] },
      { optionId: option.id, results: [{ type: 'walletRpc', data: ['0x1234'] }] },
      { optionId: option.id, results: [] },
      { optionId: 'opt_unknown', results: [await signed(action)] },
    ];
    for (const body of refusals) {
      const res = await confirm(id, body);
      expect([res.status, res.body.code]).toEqual([400, 'invalid_params']);
      expect(statusOf(id)).toBe('requires_action');
    }
    const malformed = await confirm(id, { optionId: option.id });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'params_validation']);
    const good = await confirm(id, { optionId: option.id, results: [await signed(action)] });
    expect(good.body.status).toBe('processing');
  });

  it('refuses a confirm on a payment no longer open: invalid_state, payment_expired once expired', async () => {
    const id = await createPayment();
    const [option, action] = await usdcOption(id);
    const result = await signed(action);
    expect((await confirm(id, { optionId: option.id, results: [result] })).status).toBe(200);
    const again = await confirm(id, { optionId: option.id, results: [result] });
    expect([again.status, again.body.code]).toEqual([400, 'invalid_state']);

    const late = await createPayment();
    const [lateOption, lateAction] = await usdcOption(late);
    h.mock.setPaymentStatus(late, 'expired');
    const expired = await confirm(late, {
      optionId: lateOption.id,
      results: [await signed(lateAction)],
    });
    expect([expired.status, expired.body.code]).toEqual([400, 'payment_expired']);
  });

  it('of two confirms at once, one pays and the other is invalid_state', async () => {
    const id = await createPayment();
    const [first, firstAction] = await usdcOption(id);
    const [second, secondAction] = await usdcOption(id);
    const answers = await Promise.all([
      confirm(id, { optionId: first.id, results: [await signed(firstAction)] }),
      confirm(id, { optionId: second.id, results: [await signed(secondAction)] }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)?.body.code).toBe('invalid_state');
  });

  it('cancels an open payment as the buyer, and refuses one no longer open', async () => {
    const id = await createPayment();
    const res = await h.call(`/v1/gateway/payment/${id}/cancel`, {
      method: 'POST',
      headers: h.auth,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      paymentId: id,
      status: 'cancelled',
      cancelledReason: 'cancelled_by_user',
    });
    expect(Date.parse(res.body.cancelledAt as string)).toBeGreaterThan(0);
    expect(statusOf(id)).toBe('cancelled');
    const again = await h.call<ErrorBody>(`/v1/gateway/payment/${id}/cancel`, {
      method: 'POST',
      headers: h.auth,
    });
    expect([again.status, again.body.code]).toEqual([400, 'invalid_state']);
  });
});

describe('quotes that expire', () => {
  const h = useMockGateway('fetch', { pollInMs: 40, quoteWindowMs: 1000 });
  const buyer = privateKeyToAccount(generatePrivateKey());

  it('a confirm after the option’s expiresAt is 400 quote_expired, the payment left open', async () => {
    const created = await h.call<{ paymentId: string }>('/v1/payments', {
      method: 'POST',
      headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId },
      body: { amount: { unit: 'iso4217/USD', value: '500' }, referenceId: 'late' },
    });
    const id = created.body.paymentId;
    const { body } = await h.call<Options>(`/v1/gateway/payment/${id}/options`, {
      method: 'POST',
      headers: h.auth,
      body: { accounts: [`eip155:8453:${buyer.address}`] },
    });
    // Read after the answer: a quote made late on a loaded machine still expires 1 s after it.
    const now = Math.floor(Date.now() / 1000);
    const option = body.options[0] as Option;
    expect(option.expiresAt).toBeLessThanOrEqual(now + 1);
    const signature = await buyer.signTypedData(typedData(option.actions[0] as WalletRpc));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await h.call<ErrorBody>(`/v1/gateway/payment/${id}/confirm`, {
      method: 'POST',
      headers: h.auth,
      body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
    });
    expect([res.status, res.body.code]).toEqual([400, 'quote_expired']);
    expect(h.mock.getPayment(id)?.status).toBe('requires_action');
  });
});
