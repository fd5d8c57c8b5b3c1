import { describe, expect, it } from 'vitest';
import { LevelLogger } from '../../../src/core/logger';
import { Redactor } from '../../../src/core/safety/redact';
import { ChangeQueue } from '../../../src/follow/changes';
import { Deadlines, newEntry, reportFailure } from '../../../src/follow/entries';
import type { Seed } from '../../../src/follow/follower-input';

function seed(paymentId: string, deadlineAt: number): Seed {
  return {
    paymentId,
    merchantId: 'mer_1',
    known: undefined,
    createdAt: undefined,
    notBefore: undefined,
    deadlineAt,
  };
}

describe('the follower’s deadlines', () => {
  it('hand back payments in deadline order, whatever the order they were added in', () => {
    const deadlines = new Deadlines();
    const order = [50, 10, 40, 30, 20, 60, 5, 45, 35, 25, 15, 55];
    for (const at of order) deadlines.push(newEntry(seed(`pay_${at}`, at), 0));
    expect(deadlines.size).toBe(order.length);
    const popped: number[] = [];
    for (let entry = deadlines.pop(); entry; entry = deadlines.pop()) {
      popped.push(entry.seed.deadlineAt);
    }
    expect(popped).toEqual([...order].sort((a, b) => a - b));
    expect(deadlines.peek()).toBeUndefined();
  });
});

describe('the follower’s change queue', () => {
  it('keeps delivering in order past the point where it compacts what was taken', () => {
    const queue = new ChangeQueue();
    const entry = newEntry(seed('pay_1', 0), 0);
    const taken: string[] = [];
    for (let i = 0; i < 3000; i++) {
      queue.push({
        entry,
        change: {
          paymentId: `pay_${i}`,
          merchantId: 'mer_1',
          status: 'processing',
          isFinal: false,
          previousStatus: undefined,
          result: { status: 'processing', isFinal: false },
          source: 'poll',
        },
      });
      if (i % 3 === 2) {
        for (let change = queue.take(() => true); change; change = queue.take(() => true)) {
          taken.push(change.paymentId);
        }
      }
    }
    expect(taken).toHaveLength(3000);
    expect(taken[2999]).toBe('pay_2999');
    expect(new Set(taken).size).toBe(3000);
  });
});

describe('a failure the follower reports', () => {
  it('is one warn line, and what onError throws is logged and ignored', () => {
    const lines: string[] = [];
    const logger = new LevelLogger(
      { debug() {}, info() {}, warn: (data) => lines.push(data.message), error() {} },
      'warn',
      new Redactor([]),
    );
    reportFailure(
      logger,
      () => {
        throw new Error('handler broke');
      },
      'not an Error',
      'pay_1',
      true,
    );
    expect(lines).toEqual([
      '[merchant-gateway] payments.follower: payment pay_1: not an Error',
      '[merchant-gateway] payments.follower: onError threw: handler broke',
    ]);
  });
});
