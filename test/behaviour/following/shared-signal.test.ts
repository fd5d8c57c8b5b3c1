// One AbortSignal shared by a whole app's calls (a request-scoped or shutdown signal): once the
// calls and follows settle, none of them may leave a listener on it.

import { createMockGateway } from 'merchant-gateway/testing';
import { describe, expect, it } from 'vitest';
import { partnerOverFetch } from '../../support';

/** A signal that counts the abort listeners on it. */
function countedSignal() {
  const controller = new AbortController();
  const { signal } = controller;
  const listeners = new Set<unknown>();
  type Add = typeof signal.addEventListener;
  type Remove = typeof signal.removeEventListener;
  const add: Add = signal.addEventListener.bind(signal);
  const remove: Remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<Add>) => {
    if (args[0] === 'abort') listeners.add(args[1]);
    add(...args);
  }) as Add;
  signal.removeEventListener = ((...args: Parameters<Remove>) => {
    if (args[0] === 'abort') listeners.delete(args[1]);
    remove(...args);
  }) as Remove;
  return { controller, signal, listeners };
}

describe('a signal shared by many calls and follows', () => {
  it('carries no abort listener once 1,000 calls and 200 waitForFinal have settled', async () => {
    const mock = createMockGateway({ pollInMs: 100 });
    const gateway = partnerOverFetch(mock);
    const { signal, listeners } = countedSignal();
    const payment = await gateway.payments.create({
      amount: { unit: 'iso4217/USD', value: '100' },
      referenceId: 'order-signal',
    });

    const calls = [];
    for (let i = 0; i < 1000; i++)
      calls.push(gateway.payments.status(payment.paymentId, {}, { signal }));
    await Promise.all(calls);
    expect(listeners.size).toBe(0);

    const follows = [];
    for (let i = 0; i < 200; i++) {
      const created = await gateway.payments.create({
        amount: { unit: 'iso4217/USD', value: String(100 + i) },
        referenceId: `order-signal-${i}`,
      });
      mock.setPaymentStatus(created.paymentId, 'succeeded');
      follows.push(gateway.payments.waitForFinal(created, { signal }));
    }
    await Promise.all(follows);
    expect(listeners.size).toBe(0);
  }, 30_000);
});
