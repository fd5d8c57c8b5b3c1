// The two receiver loaders: the one the tests and Node's builds use (loaded with the SDK), and
// the one the main entry's browser build swaps in (tsup.config.ts), which imports it on first use.
import { describe, expect, test } from 'vitest';
import { loadReceiver as eager } from '../../../src/webhooks/receiver-load';
import { loadReceiver as lazy } from '../../../src/webhooks/receiver-load-lazy';

describe('loading the verifier', () => {
  test('eagerly: the module itself, no promise', () => {
    const receiver = eager();
    expect(receiver).not.toBeInstanceOf(Promise);
    expect(typeof (receiver as Awaited<ReturnType<typeof eager>>).unwrapDelivery).toBe('function');
  });

  test('lazily: a promise on first use, then the same module without one', async () => {
    const first = lazy();
    expect(first).toBeInstanceOf(Promise);
    const loaded = await first;
    // The same module the eager loader holds, not a second copy.
    expect(loaded).toBe(eager());
    expect(lazy()).toBe(loaded);
  });
});
