// The mock never sends an event without a stage its type implies (issue 41.5): building the body
// of one refuses, naming the stage, so a path of the lifecycle that forgot a stage fails loudly in
// the mock's own tests instead of reaching a receiver that relies on the stage.
import { describe, expect, it } from 'vitest';
import { eventBody, IMPLIED_STAGES, type snapshotOf } from '../../../../src/testing/state/events';

type Snapshot = ReturnType<typeof snapshotOf>;

const bare = {
  payment_id: 'pay_1',
  processing: null,
  success: null,
  failed: null,
  cancelled: null,
  expired: null,
  settled: null,
} as unknown as Snapshot;

describe('eventBody', () => {
  it.each(Object.entries(IMPLIED_STAGES).flatMap(([type, stages]) => stages.map((s) => [type, s])))(
    'refuses %s without its %s stage',
    (type, stage) => {
      // Every other implied stage set, so the one missing is the one named.
      const filled = Object.fromEntries(
        (IMPLIED_STAGES[type as keyof typeof IMPLIED_STAGES] ?? []).map((s) => [s, {}]),
      );
      const data = { ...bare, ...filled, [stage as string]: null } as Snapshot;
      expect(() => eventBody('evt_1', type as 'payment.created', 0, data)).toThrow(
        `${type} for pay_1 lacks its ${stage} stage`,
      );
    },
  );

  it('sends a created event with no stage set', () => {
    expect(JSON.parse(eventBody('evt_1', 'payment.created', 0, bare)).data).toEqual(bare);
  });
});
