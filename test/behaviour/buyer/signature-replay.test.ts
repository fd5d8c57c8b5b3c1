// A signature pays at most one payment (issue 37.1): two payments of one amount to one merchant,
// quoted in the same second, over real HTTP; the buyer signs A's action with viem and a replay of
// that signature on B's option is refused, whatever the token's signing scheme (EIP-3009 USDC,
// EIP-2612 USDT). Before, the permit's nonce was always 0, so A's permit was B's too.
import type { BuyerAction, PaymentOption } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { useListeningPartner } from '../../support';

const DESTINATION = '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
const SCHEMES = [
  ['EIP-3009 (USDC on Base)', 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
  ['EIP-2612 (USDT on Ethereum)', 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7'],
] as const;

const mock = createMockGateway({ pollInMs: 100 });
const served = useListeningPartner(mock);

/** The `eth_signTypedData_v4` action of an option, through `fetch` for a `build` one. */
async function signingAction(paymentId: string, option: PaymentOption): Promise<BuyerAction> {
  const [action] = option.actions;
  if (action?.type !== 'build') return action as BuyerAction;
  const data = (action.data as { data: string }).data;
  const [built] = await served.gateway.buyer.fetchActions(paymentId, { optionId: option.id, data });
  return built as BuyerAction;
}

function typedDataOf(action: BuyerAction) {
  const [, json] = (action.data as { params: [string, string] }).params;
  const { types, ...rest } = JSON.parse(json) as { types: Record<string, unknown> };
  const { EIP712Domain: _, ...signed } = types;
  return { ...rest, types: signed } as never;
}

describe('a signature pays at most one payment', { timeout: 20_000 }, () => {
  test.each(SCHEMES)('%s: a replay of A’s signature on B is refused', async (_, asset) => {
    const merchant = await served.gateway.merchants.create({
      merchantName: 'Replay Bakery',
      merchantEmail: 'replay@bakery.example',
    });
    await served.gateway.settlements.createCrypto(merchant.id, [
      { asset, destination: `${asset.split('/')[0]}:${DESTINATION}` },
    ]);
    const create = (referenceId: string) =>
      served.gateway.payments.create({
        merchantId: merchant.id,
        amount: { unit: 'iso4217/USD', value: '990' },
        referenceId,
      });
    const a = await create('replay-a');
    const b = await create('replay-b');
    const buyer = privateKeyToAccount(generatePrivateKey());
    const accounts = [`${asset.split('/')[0]}:${buyer.address}`];

    // Quoted in the same second (the permit's deadline is in whole seconds): ask again until so.
    let optionA: PaymentOption | undefined;
    let optionB: PaymentOption | undefined;
    for (let i = 0; i < 5 && (!optionA || optionA.expiresAt !== optionB?.expiresAt); i++) {
      [optionA] = (await served.gateway.buyer.options(a.paymentId, { accounts })).options;
      [optionB] = (await served.gateway.buyer.options(b.paymentId, { accounts })).options;
    }
    if (!optionA || !optionB) throw new Error('the mock offered no option');
    expect(optionA.expiresAt).toBe(optionB.expiresAt);
    expect(optionA.amount).toStrictEqual(optionB.amount);

    const actionA = await signingAction(a.paymentId, optionA);
    const actionB = await signingAction(b.paymentId, optionB);
    expect(typedDataOf(actionA)).not.toStrictEqual(typedDataOf(actionB)); // a nonce per quote
    const signature: Hex = await buyer.signTypedData(typedDataOf(actionA));
    const results = [{ type: 'walletRpc' as const, data: [signature] }];

    await served.gateway.buyer.confirm(a.paymentId, { optionId: optionA.id, results });
    await expect(
      served.gateway.buyer.confirm(b.paymentId, { optionId: optionB.id, results }),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_params' });

    const final = await served.gateway.payments.waitForFinal(a.paymentId, { timeoutMs: 10_000 });
    expect(final.status).toBe('succeeded');
    expect(mock.getPayment(b.paymentId)?.status).toBe('requires_action');
    // B is still payable with a signature of its own.
    const own: Hex = await buyer.signTypedData(typedDataOf(actionB));
    const paidB = await served.gateway.buyer.confirm(b.paymentId, {
      optionId: optionB.id,
      results: [{ type: 'walletRpc', data: [own] }],
    });
    expect(['processing', 'succeeded']).toContain(paidB.status);
  });
});
