// One endpoint's failures and hangs never hold up another's deliveries (issue 41.8): over real
// sockets, a healthy receiver beside one that accepts and never answers and one that answers 500
// gets its events about as fast as alone. Before, every endpoint shared one budget of attempts in
// flight, the hung ones filled it, and the healthy one waited for the timeout (p50 15.6 s with
// the service's 15 s). The hang here lasts 60 s, so a bound generous enough for a loaded machine
// (15 s, ten times the p50 seen there) still tells the two apart.
import { createMockGateway, type MockGateway } from 'merchant-gateway/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Answer, type Receiver, startReceiver } from '../../support/webhook-receiver';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** More events than any shared budget of attempts: each one goes to every endpoint. */
const EVENTS = 100;
/** How long the mock waits for the hanging endpoint's answer. */
const HANG_MS = 60_000;

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

async function receiver(answer: Answer): Promise<Receiver> {
  const started = await startReceiver(SECRET, () => answer);
  open.push(started);
  return started;
}

/** Cancels `EVENTS` open payments at once: one `payment.cancelled` event each. */
function burst(mock: MockGateway): void {
  const ids = mock
    .payments()
    .filter((p) => p.status === 'requires_action')
    .slice(0, EVENTS)
    .map((p) => p.id);
  expect(ids).toHaveLength(EVENTS);
  for (const id of ids) mock.setPaymentStatus(id, 'cancelled');
}

/** The median time (ms) from each event's change to its arrival at `healthy`. */
async function medianLatency(healthy: Receiver): Promise<number> {
  await healthy.until(() => healthy.deliveries.length >= EVENTS, 2 * HANG_MS);
  expect(healthy.rejected).toBe(0);
  const latencies = healthy.deliveries
    .map((d) => d.at - Date.parse(d.event?.created_at ?? ''))
    .sort((a, b) => a - b);
  return latencies[Math.floor(latencies.length / 2)] as number;
}

describe('fair share of the mock webhook sender per endpoint', () => {
  it(
    'leaves a healthy endpoint as fast beside a hanging and a failing one as alone',
    async () => {
      const alone = await receiver('ok');
      const soloMock = createMockGateway({ webhooks: [{ url: alone.url, secret: SECRET }] });
      open.push(soloMock);
      burst(soloMock);
      const aloneP50 = await medianLatency(alone);

      const hanging = await receiver('hang');
      const failing = await receiver(500);
      const healthy = await receiver('ok');
      const mock = createMockGateway({
        // The dead ones first: their deliveries are queued ahead of the healthy one's.
        webhooks: [hanging, failing, healthy].map((r) => ({ url: r.url, secret: SECRET })),
        webhookRetryScale: 0.001,
        webhookTimeoutMs: HANG_MS,
      });
      open.push(mock);
      burst(mock);
      const besideP50 = await medianLatency(healthy);

      // A healthy p50 anywhere near the hang means it waited its turn behind the hung attempts.
      expect(besideP50, `p50 ${besideP50} ms beside, ${aloneP50} ms alone`).toBeLessThan(15_000);
      expect(hanging.deliveries.length).toBeGreaterThan(0);
      expect(failing.deliveries.length).toBeGreaterThan(0);
    },
    4 * HANG_MS,
  );
});
