// Issue 41, item 10: the memory store at its bound forgets the oldest ids early, and says so:
// `store.stats()` counts them, and one warn line per process names the bound and the way out.
import type { Logger } from 'merchant-gateway';
import { createWebhookGuard, memoryStore } from 'merchant-gateway/webhooks';
import { describe, expect, it, vi } from 'vitest';
import { paymentEvent } from '../../support/payment-events';

/** A logger that keeps its warn lines. */
function warnings() {
  const lines: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (_data, message) => lines.push(message),
    error: () => {},
  };
  return { lines, logger };
}

/** An event of a type without a payment: deduplicated by id alone, as payout events are. */
const payout = (n: number) => ({ id: `evt_po_${n}`, type: 'payout.paid', data: { n } });

describe('memoryStore at its bound', () => {
  it('counts the ids it forgets early, warns once per process, and a forgotten id runs again', async () => {
    const first = warnings();
    const store = memoryStore({ maxEntries: 10, logger: first.logger });
    const guard = createWebhookGuard({ store });
    expect(store.stats()).toEqual({ ids: 0, payments: 0, evictedEarly: 0 });
    for (let n = 0; n < 10; n++) expect(await guard.handle(payout(n), () => {})).toBe('handled');
    expect(store.stats()).toEqual({ ids: 10, payments: 0, evictedEarly: 0 });
    expect(first.lines).toEqual([]);

    expect(await guard.handle(payout(10), () => {})).toBe('handled');
    expect(store.stats()).toEqual({ ids: 10, payments: 0, evictedEarly: 1 });
    expect(first.lines).toHaveLength(1);
    expect(first.lines[0]).toMatch(/webhooks\.memoryStore: at its bound of 10 event ids/);
    expect(first.lines[0]).toMatch(/maxEntries.*postgresStore\(\)/);
    // What the count warns of: the forgotten id's redelivery runs its handler again.
    const again = vi.fn();
    expect(await guard.handle(payout(0), again)).toBe('handled');
    expect(again).toHaveBeenCalledOnce();
    expect(store.stats().evictedEarly).toBe(2);

    // Once per process: another store past its bound counts, and says nothing more.
    const second = warnings();
    const other = memoryStore({ maxEntries: 1, logger: second.logger });
    const otherGuard = createWebhookGuard({ store: other });
    await otherGuard.handle(paymentEvent('pay_a', 'payment.created', 0), () => {});
    await otherGuard.handle(paymentEvent('pay_b', 'payment.created', 0), () => {});
    expect(other.stats()).toEqual({ ids: 1, payments: 1, evictedEarly: 1 });
    expect([...first.lines, ...second.lines]).toHaveLength(1);
  });

  it('ids that expired are not early: forgetting them is not counted', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = memoryStore({ maxEntries: 2, ttlMs: 1_000 });
      const guard = createWebhookGuard({ store });
      await guard.handle(payout(1), () => {});
      await guard.handle(payout(2), () => {});
      vi.setSystemTime(Date.now() + 5_000);
      await guard.handle(payout(3), () => {});
      expect(store.stats()).toEqual({ ids: 1, payments: 0, evictedEarly: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('at the real default of 100,000: the 100,001st id forgets the first, counted', async () => {
    const { lines, logger } = warnings();
    const store = memoryStore({ logger });
    const guard = createWebhookGuard({ store });
    const started = performance.now();
    for (let n = 0; n <= 100_000; n++) await guard.handle(payout(n), () => {});
    const ms = performance.now() - started;
    expect(store.stats()).toEqual({ ids: 100_000, payments: 0, evictedEarly: 1 });
    // This file's first warning, if the test above did not run first (-t).
    expect(lines.length).toBeLessThanOrEqual(1);
    console.log(`100,001 events through the memory guard: ${Math.round(ms)} ms`);
  }, 120_000);
});
