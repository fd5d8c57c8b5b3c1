// A partner's receiver proven against the delivery the service documents (at least once, in no
// particular order, sometimes not at all), produced on demand by the mock command's
// --webhook-chaos: with duplicates, reordering and drops on, a receiver using the SDK's guard
// (once per event id, stale versions skipped) and reconciling over REST what never came applies
// each payment's final status exactly once across 500 payments.
import type { MerchantGateway } from 'merchant-gateway';
import { isPaymentWebhookEvent, WebhookEventSchema, Webhooks } from 'merchant-gateway/webhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { partnerFor, type RunningMockCommand, startMockCommand } from '../../support/mock-command';
import { type Receiver, startReceiver } from '../../support/webhook-receiver';

const SECRET = 'whsec_9zq2bH7pQ0lJvJk3E1c4yq8xPZ0b5Rk2';
const PAYMENTS = 500;
const FINAL = new Set(['succeeded', 'failed', 'expired', 'cancelled']);

/** The receiver's exactly-once layer: the SDK's guard (memory store), as a partner would use it. */
const guard = new Webhooks({ secret: SECRET }).guard();

let receiver: Receiver;
let sidecar: RunningMockCommand;
let partner: MerchantGateway;
/** The receiver's own store: each payment's status, and how often its final status was applied. */
const status = new Map<string, string>();
const applied = new Map<string, number>();
const queue: Promise<void>[] = [];

/** Act on the snapshot's status (never the type): a payment reaching a final status is fulfilled. */
function apply(paymentId: string, next: string): void {
  const before = status.get(paymentId);
  status.set(paymentId, next);
  if (FINAL.has(next) && !FINAL.has(before ?? '')) {
    applied.set(paymentId, (applied.get(paymentId) ?? 0) + 1);
  }
}

beforeAll(async () => {
  receiver = await startReceiver(SECRET, (_attempt, event) => {
    // Parsed as the SDK parses a verified body: the guard takes the typed event.
    const typed = WebhookEventSchema.parse(event);
    queue.push(
      guard
        .handle(typed, (e) => {
          if (isPaymentWebhookEvent(e)) apply(e.data.payment_id, e.data.status);
        })
        .then(() => undefined),
    );
    return 'ok';
  });
  sidecar = await startMockCommand([
    '--webhook-url',
    receiver.url,
    '--webhook-secret',
    SECRET,
    '--webhook-chaos',
    'duplicate=0.2,reorder=300,drop=0.05',
    '--settle-after',
    '50',
    '--seed',
    '7',
  ]);
  partner = partnerFor(sidecar);
}, 30_000);
afterAll(async () => {
  await sidecar?.stop();
  await receiver?.close();
});

async function control(path: string, init: RequestInit = {}) {
  const res = await fetch(`${sidecar.url}/__mock/${path}`, {
    ...init,
    headers: { 'api-key': sidecar.apiKey, 'content-type': 'application/json' },
  });
  expect(res.ok).toBe(true);
  return res.json() as Promise<{ data: { status: string; duplicate: boolean }[] }>;
}

async function inBatches<T>(items: T[], run: (item: T, index: number) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += 25) {
    await Promise.all(items.slice(i, i + 25).map((item, j) => run(item, i + j)));
  }
}

it('applies each payment’s final status exactly once through duplicates, reordering and drops', async () => {
  const ids: string[] = [];
  await inBatches([...Array(PAYMENTS).keys()], async (_, i) => {
    const created = await partner.payments.create({
      amount: { unit: 'iso4217/USD', value: String(100 + i) },
      referenceId: `chaos-${i}`,
    });
    ids[i] = created.paymentId;
  });
  const expected = new Map<string, string>();
  await inBatches(ids, async (id, i) => {
    if (i % 4 === 0) {
      await partner.payments.cancel(id);
      expected.set(id, 'cancelled');
    } else if (i % 4 === 1) {
      await control(`payments/${id}/status`, {
        method: 'POST',
        body: JSON.stringify({ status: 'failed' }),
      });
      expected.set(id, 'failed');
    } else expected.set(id, 'succeeded');
  });
  // The rest: requires_action → processing → succeeded (→ settled 50 ms later).
  await control('payments/advance', { method: 'POST' });
  await control('payments/advance', { method: 'POST' });

  // Every delivery done: nothing pending in the mock's log, every handled event applied.
  let log: { status: string; duplicate: boolean }[] = [];
  await expect
    .poll(
      async () => {
        log = (await control('webhooks/deliveries')).data;
        return log.filter((d) => d.status === 'pending').length;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(0);
  await Promise.all(queue);

  // The chaos happened: some deliveries doubled, some dropped, some versions came out of order.
  expect(log.filter((d) => d.duplicate).length).toBeGreaterThan(50);
  expect(log.filter((d) => d.status === 'dropped').length).toBeGreaterThan(10);
  const lastVersion = new Map<string, number>();
  let overtaken = 0;
  for (const { event } of receiver.deliveries) {
    if (!event) continue;
    const before = lastVersion.get(event.data.payment_id) ?? -1;
    if (event.data.payment_state_version < before) overtaken++;
    lastVersion.set(event.data.payment_id, Math.max(before, event.data.payment_state_version));
  }
  expect(overtaken).toBeGreaterThan(10);
  expect(receiver.rejected).toBe(0);

  // What never came (a dropped final event) is reconciled from the status endpoint.
  let reconciled = 0;
  await inBatches(ids, async (id) => {
    if (FINAL.has(status.get(id) ?? '')) return;
    apply(id, (await partner.payments.status(id)).status);
    reconciled++;
  });
  expect(reconciled).toBeGreaterThan(0);

  for (const id of ids) {
    expect({ id, status: status.get(id), applied: applied.get(id) }).toEqual({
      id,
      status: expected.get(id),
      applied: 1,
    });
  }
}, 60_000);
