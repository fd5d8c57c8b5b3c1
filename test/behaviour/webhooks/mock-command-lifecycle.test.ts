// The merchant-gateway-mock command (a child process) sends the service's webhooks for payments
// that WalletConnect's own wallet SDK (@walletconnect/pay, with a viem account) pays in it: a
// receiver on 127.0.0.1 verifying with the standardwebhooks library gets every event of each
// lifecycle (paid and settled; declined; failed and expired after processing; cancelled; expired
// unpaid), each snapshot with the stages the service's event table gives, versions from 0 up.
import type { MerchantGateway } from 'merchant-gateway';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerFor, type RunningMockCommand, startMockCommand } from '../../support/mock-command';
import { type ReceivedEvent, type Receiver, startReceiver } from '../../support/webhook-receiver';
import { officialWallet, pay, prepare } from '../buyer/wallet';

const SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const APP = { appId: 'app_hooks', clientId: 'client_hooks' };
const USDC_BASE = 'caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const STAGES = ['processing', 'success', 'failed', 'cancelled', 'expired', 'settled'] as const;

let receiver: Receiver;
let sidecar: RunningMockCommand;
let partner: MerchantGateway;
const buyer = privateKeyToAccount(generatePrivateKey());

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  sidecar = await startMockCommand([
    '--webhook-url',
    receiver.url,
    '--webhook-secret',
    SECRET,
    // The wallet's confirm succeeds 3 s later: time for a control call to fail or expire it first.
    '--poll-in-ms',
    '3000',
    '--settle-after',
    '200',
    '--app-id',
    APP.appId,
    '--client-id',
    APP.clientId,
  ]);
  partner = partnerFor(sidecar);
}, 60_000);
afterAll(async () => {
  await sidecar?.stop();
  await receiver?.close();
});

const create = async (referenceId: string, expiresAt?: number) =>
  (
    await partner.payments.create({
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId,
      ...(expiresAt === undefined ? {} : { expiresAt }),
    })
  ).paymentId;

const eventsOf = (paymentId: string): ReceivedEvent[] =>
  receiver.deliveries
    .flatMap((d) => (d.event?.data.payment_id === paymentId ? [d.event] : []))
    .sort((a, b) => a.data.payment_state_version - b.data.payment_state_version);

const until = (paymentId: string, type: string) =>
  receiver.until(() => eventsOf(paymentId).some((e) => e.type === type), 50_000);

async function control(path: string, body: unknown) {
  const res = await fetch(`${sidecar.url}/__mock/${path}`, {
    method: 'POST',
    headers: { 'api-key': sidecar.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

/** Each event's type, version and the stages its snapshot has set. */
function shape(events: ReceivedEvent[]) {
  return events.map((e) => ({
    type: e.type,
    version: e.data.payment_state_version,
    status: e.data.status,
    stages: STAGES.filter((stage) => e.data[stage] !== null),
  }));
}

/** What every snapshot shares: the envelope, test mode, every stage key present. */
function expectEnvelope(events: ReceivedEvent[], paymentId: string, referenceId: string) {
  for (const e of events) {
    expect(e.id).toMatch(/^evt_/);
    expect(e.api_version).toBe('2026-05-18');
    expect(Number.isNaN(Date.parse(e.created_at))).toBe(false);
    expect(e.data).toMatchObject({
      payment_id: paymentId,
      merchant_id: sidecar.merchantId,
      live: false,
      reference_id: referenceId,
      amount: { unit: 'iso4217/USD', value: '1250' },
    });
    for (const stage of STAGES) expect(e.data).toHaveProperty(stage);
  }
  expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
}

/** The processing stage a wallet's confirm leaves: the option's amount and chain, the buyer. */
const walletProcessing = {
  processing_at: expect.any(String),
  option_amount: { unit: USDC_BASE, value: '12500000' },
  fee: null,
  settlement_amount: { unit: USDC_BASE, value: '12500000' },
  buyer_caip10: `eip155:8453:${buyer.address}`,
  chain_caip2: 'eip155:8453',
};

describe('the mock command sends every event of each lifecycle', () => {
  it('paid by the wallet and settled: created, processing, succeeded, settled (v0 to v3)', {
    timeout: 60_000,
  }, async () => {
    const id = await create('hooks-paid');
    const result = await pay(officialWallet(sidecar.url, APP), id, buyer);
    expect(result.status).toBe('succeeded');
    await until(id, 'payment.settled');
    const events = eventsOf(id);
    expect(shape(events)).toEqual([
      { type: 'payment.created', version: 0, status: 'requires_action', stages: [] },
      { type: 'payment.processing', version: 1, status: 'processing', stages: ['processing'] },
      {
        type: 'payment.succeeded',
        version: 2,
        status: 'succeeded',
        stages: ['processing', 'success'],
      },
      {
        type: 'payment.settled',
        version: 3,
        status: 'succeeded',
        stages: ['processing', 'success', 'settled'],
      },
    ]);
    expectEnvelope(events, id, 'hooks-paid');
    const [, processing, succeeded, settled] = events;
    expect(processing?.data.processing).toEqual(walletProcessing);
    expect(succeeded?.data.success).toEqual({
      succeeded_at: expect.any(String),
      tx_id: `test:${id}`,
    });
    expect(settled?.data.settled).toEqual({
      settled_at: expect.any(String),
      tx_id: `test:${id}`,
      amount: { unit: USDC_BASE, value: '12500000' },
    });
    // The REST side shows the same payment: its transaction id and the payout.
    const details = await partner.payments.details(id);
    expect(details.info?.txId).toBe(`test:${id}`);
    expect(details.settlement?.successful?.txId).toBe(`test:${id}`);
    const [item] = (await partner.payments.list({ referenceId: 'hooks-paid' })).data;
    expect(item).toMatchObject({
      settlement: { settled: true, txHash: `test:${id}` },
      settledAt: (settled?.data.settled as { settled_at?: string } | undefined)?.settled_at,
    });
  });

  it.each([
    {
      status: 'failed',
      reference: 'hooks-failed',
      stage: { failed_at: expect.any(String), failure_reason: expect.any(String) },
    },
    { status: 'expired', reference: 'hooks-late', stage: { expired_at: expect.any(String) } },
  ])(
    '$status after the wallet committed: processing kept on the $status snapshot',
    {
      timeout: 60_000,
    },
    async ({ status, reference, stage }) => {
      const id = await create(reference);
      const wallet = officialWallet(sidecar.url, APP);
      const { option, signatures } = await prepare(wallet, id, buyer, 'eip155:8453');
      const confirming = wallet.confirmPayment({ paymentId: id, optionId: option.id, signatures });
      await until(id, 'payment.processing');
      await control(`payments/${id}/status`, { status });
      expect((await confirming).status).toBe(status);
      await until(id, `payment.${status}`);
      const events = eventsOf(id);
      expect(shape(events).map((e) => [e.type, e.version, e.stages])).toEqual([
        ['payment.created', 0, []],
        ['payment.processing', 1, ['processing']],
        [`payment.${status}`, 2, ['processing', status]],
      ]);
      expectEnvelope(events, id, reference);
      expect(events[2]?.data.processing).toEqual(walletProcessing);
      expect(events[2]?.data[status]).toEqual(stage);
    },
  );

  it('declined at the checkout page, cancelled by the merchant, expired unpaid: one event after created', {
    timeout: 60_000,
  }, async () => {
    const declined = await create('hooks-declined');
    const page = await fetch(`${sidecar.url}/pay/${declined}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=decline',
      redirect: 'manual',
    });
    expect(page.status).toBe(303);
    const cancelled = await create('hooks-cancelled');
    await partner.payments.cancel(cancelled);
    // Expires two seconds from now: the mock's own clock sends payment.expired.
    const expiring = await create('hooks-expiring', Math.floor(Date.now() / 1000) + 2);
    await Promise.all([
      until(declined, 'payment.failed'),
      until(cancelled, 'payment.cancelled'),
      until(expiring, 'payment.expired'),
    ]);
    expect(shape(eventsOf(declined)).map((e) => [e.type, e.version, e.stages])).toEqual([
      ['payment.created', 0, []],
      ['payment.failed', 1, ['failed']],
    ]);
    expect(shape(eventsOf(cancelled)).map((e) => [e.type, e.version, e.stages])).toEqual([
      ['payment.created', 0, []],
      ['payment.cancelled', 1, ['cancelled']],
    ]);
    expect(eventsOf(cancelled)[1]?.data.cancelled).toEqual({
      cancelled_at: expect.any(String),
      cancellation_reason: 'cancelled_by_merchant',
    });
    const expired = eventsOf(expiring);
    expect(shape(expired).map((e) => [e.type, e.version, e.stages])).toEqual([
      ['payment.created', 0, []],
      ['payment.expired', 1, ['expired']],
    ]);
    expect(expired[1]?.data.expired).toEqual({ expired_at: expired[1]?.data.expires_at });
    expect(receiver.rejected).toBe(0);
  });
});
