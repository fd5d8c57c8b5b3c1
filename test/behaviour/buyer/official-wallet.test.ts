// WalletConnect's own wallet SDK (@walletconnect/pay 1.1.0, its WASM engine; nobody here wrote
// it) pays payments in the mock over real HTTP, through mock.listen() and through the
// merchant-gateway-mock command, with viem accounts: what a wallet developer pointing it at the
// sidecar gets, refusals included.
import type { MerchantGateway } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLikeCommand, partnerFor, startMockCommand } from '../../support/mock-command';
import { officialWallet, pay, prepare } from './wallet';

const APP = { appId: 'app_wallet_test', clientId: 'client_wallet_test' };
const USDT_MAINNET = 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7';
const POLL_MS = 100;
const QUOTE_MS = 1500;

interface Sidecar {
  url: string;
  apiKey: string;
  merchantId: string;
  stop(): Promise<unknown>;
}

function viaListen(): Promise<Sidecar> {
  return listenLikeCommand(
    createMockGateway({ pollInMs: POLL_MS, quoteWindowMs: QUOTE_MS, credentials: APP }),
  );
}

function viaCommand(): Promise<Sidecar> {
  return startMockCommand([
    '--poll-in-ms',
    String(POLL_MS),
    '--quote-window-ms',
    String(QUOTE_MS),
    '--app-id',
    APP.appId,
    '--client-id',
    APP.clientId,
  ]);
}

describe.each([
  ['mock.listen()', viaListen],
  ['the merchant-gateway-mock command', viaCommand],
])('the official wallet SDK pays in the mock through %s', (_name, start) => {
  let sidecar: Sidecar;
  let partner: MerchantGateway;
  beforeAll(async () => {
    sidecar = await start();
    partner = partnerFor(sidecar);
  }, 30_000);
  afterAll(() => sidecar?.stop());

  const buyer = privateKeyToAccount(generatePrivateKey());
  const create = async (referenceId: string, value = '1250') =>
    (await partner.payments.create({ amount: { unit: 'iso4217/USD', value }, referenceId }))
      .paymentId;
  const wallet = () => officialWallet(sidecar.url, { apiKey: sidecar.apiKey });

  it('pays a USDC option with an Api-Key: succeeded, the buyer on the merchant’s side', async () => {
    const id = await create('wallet-usdc');
    const result = await pay(wallet(), id, buyer);
    expect(result.status).toBe('succeeded');
    expect(result.info?.txId).toMatch(/^test:pay_[A-Za-z0-9]+$/);
    expect(result.info?.optionAmount).toMatchObject({ value: '12500000' });
    const details = await partner.payments.details(id);
    expect(details).toMatchObject({ status: 'succeeded', info: { txId: result.info?.txId } });
    const view = await partner.payments.get(id);
    expect(view.buyer?.accountCaip10).toBe(`eip155:8453:${buyer.address}`);
    expect(view.buyer?.accountProviderName).toBe('js-walletconnect-pay');
  });

  it('pays a USDT option, its build action resolved by fetch into a Permit', async () => {
    // The sample merchant is seeded with USDT on Ethereum (and USDC on Base).
    const id = await create('wallet-usdt', '500');
    const { options } = await wallet().getPaymentOptions({
      paymentLink: id,
      accounts: [`eip155:1:${buyer.address}`],
    });
    expect(options).toHaveLength(1);
    const result = await pay(wallet(), id, buyer, 'eip155:1');
    expect(result).toMatchObject({ status: 'succeeded', isFinal: true });
    expect(result.info?.optionAmount).toMatchObject({
      unit: `caip19/${USDT_MAINNET}`,
      value: '5000000',
    });
  });

  it('pays with the App-Id and Client-Id scheme', async () => {
    const id = await create('wallet-app');
    const result = await pay(officialWallet(sidecar.url, APP), id, buyer);
    expect(result.status).toBe('succeeded');
  });

  it('reads no option on a chain the merchant is not paid on, and a 404 for an unknown payment', async () => {
    const id = await create('wallet-elsewhere');
    const res = await wallet().getPaymentOptions({
      paymentLink: id,
      accounts: [`eip155:42161:${buyer.address}`],
      includePaymentInfo: true,
    });
    expect(res.options).toEqual([]);
    expect(res.info).toMatchObject({
      status: 'requires_action',
      merchant: { name: expect.any(String) },
    });
    await expect(
      wallet().getPaymentOptions({
        paymentLink: 'pay_unknown',
        accounts: [`eip155:8453:${buyer.address}`],
      }),
    ).rejects.toThrow(/Payment not found: 404/);
  });

  it('a forged signature is refused and the payment stays open, then the buyer pays', async () => {
    const id = await create('wallet-forged');
    const forger = privateKeyToAccount(generatePrivateKey());
    const forged = await prepare(wallet(), id, buyer, 'eip155:8453', forger);
    await expect(
      wallet().confirmPayment({
        paymentId: id,
        optionId: forged.option.id,
        signatures: forged.signatures,
      }),
    ).rejects.toThrow(/400.*not a signature/);
    expect((await partner.payments.status(id)).status).toBe('requires_action');
    expect((await pay(wallet(), id, buyer)).status).toBe('succeeded');
  });

  it('a confirm after the quote expired is refused with quote_expired, the payment left open', async () => {
    const id = await create('wallet-late');
    const late = await prepare(wallet(), id, buyer, 'eip155:8453');
    await new Promise((resolve) => setTimeout(resolve, QUOTE_MS + 200));
    await expect(
      wallet().confirmPayment({
        paymentId: id,
        optionId: late.option.id,
        signatures: late.signatures,
      }),
    ).rejects.toThrow(/expired/);
    expect((await partner.payments.status(id)).status).toBe('requires_action');
  });

  it('a paid payment is never paid twice', async () => {
    const id = await create('wallet-twice');
    const first = await prepare(wallet(), id, buyer, 'eip155:8453');
    const confirm = () =>
      wallet().confirmPayment({
        paymentId: id,
        optionId: first.option.id,
        signatures: first.signatures,
      });
    expect((await confirm()).status).toBe('succeeded');
    await expect(confirm()).rejects.toThrow(/400/);
  });
});
