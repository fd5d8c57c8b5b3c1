// Twenty buyers pay at once with the official wallet SDK while one partner follower follows every
// payment: each payment is reported final exactly once, succeeded, paid by its own buyer.
import { createMockGateway } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { listenLikeCommand, partnerFor, startMockCommand } from '../../support/mock-command';
import { officialWallet, pay } from './wallet';

const BUYERS = 20;

const viaListen = () => listenLikeCommand(createMockGateway({ pollInMs: 100 }));
const viaCommand = () => startMockCommand(['--poll-in-ms', '100']);

describe.each([
  ['mock.listen()', viaListen],
  ['the merchant-gateway-mock command', viaCommand],
])('many buyers at once through %s', (_name, start) => {
  it(`${BUYERS} wallets pay while one follower reports each payment final exactly once`, async () => {
    const sidecar = await start();
    const partner = partnerFor(sidecar);
    const follower = partner.payments.follower({ sweepIntervalMs: 250 });
    try {
      const ids = await Promise.all(
        Array.from({ length: BUYERS }, async (_, i) => {
          const created = await partner.payments.create({
            amount: { unit: 'iso4217/USD', value: String(100 + i) },
            referenceId: `crowd-${i}`,
          });
          follower.add(created);
          return created.paymentId;
        }),
      );
      const finals = new Map<string, string[]>();
      const followed = (async () => {
        for await (const change of follower) {
          if (!change.isFinal) continue;
          finals.set(change.paymentId, [...(finals.get(change.paymentId) ?? []), change.status]);
          if (finals.size === BUYERS) follower.close();
        }
      })();
      const buyers = ids.map(() => privateKeyToAccount(generatePrivateKey()));
      const results = await Promise.all(
        buyers.map((buyer, i) =>
          pay(officialWallet(sidecar.url, { apiKey: sidecar.apiKey }), ids[i] as string, buyer),
        ),
      );
      expect(results.every((r) => r.status === 'succeeded')).toBe(true);
      await followed;
      expect([...finals.keys()].sort()).toEqual([...ids].sort());
      for (const statuses of finals.values()) expect(statuses).toEqual(['succeeded']);
      // Each payment names its own buyer: no signature paid another's payment.
      const views = await Promise.all(ids.map((id) => partner.payments.get(id)));
      expect(views.map((v) => v.buyer?.accountCaip10)).toEqual(
        buyers.map((b) => `eip155:8453:${b.address}`),
      );
    } finally {
      follower.close();
      await sidecar.stop();
    }
  }, 60_000);
});
