// Why: some schemas stand in for zod's own constructs to keep their code out of every bundle
// (issue 36): oneOf() for z.enum and z.literal, overwrite checks for pipes into transforms. A user
// parsing an exported schema must see the same issues and the same values as zod's would give.
import {
  MerchantListParamsSchema,
  PaymentCreatedSchema,
  PaymentListParamsSchema,
  PaymentOptionsSchema,
} from 'merchant-gateway';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { oneOf } from '../../../src/schemas/common';

const issues = (schema: z.ZodMiniType, input: unknown) => {
  const result = z.safeParse(schema, input);
  return result.success
    ? { value: result.data }
    : result.error.issues.map(({ code, message, path, ...rest }) => ({
        code,
        message,
        path,
        values: (rest as { values?: unknown }).values,
      }));
};

const INPUTS: unknown[] = ['asc', 'desc', 'ASC', '', 5, null, undefined, ['asc'], {}];

describe('oneOf', () => {
  it("raises z.enum's issue (code, values, message) for every input z.enum refuses", () => {
    for (const error of [undefined, 'must be "asc" or "desc"']) {
      const ours = oneOf(['asc', 'desc'], error);
      const zods = z.enum(['asc', 'desc'], error === undefined ? undefined : { error });
      for (const input of INPUTS) expect(issues(ours, input)).toEqual(issues(zods, input));
    }
  });

  it("raises z.literal's issue for one value", () => {
    for (const input of ['walletRpc', 'build', 1, undefined]) {
      expect(issues(oneOf(['walletRpc']), input)).toEqual(issues(z.literal('walletRpc'), input));
    }
  });

  it('in a union, aborts as z.enum does, so the union reports its own message', () => {
    const message = 'must be asc or desc, or a non-empty array of them';
    const union = (item: z.ZodMiniType<string>) =>
      z.union([item, z.array(item).check(z.minLength(1, message))], { error: message });
    for (const input of ['x', ['x'], [], 'asc', ['asc', 'desc'], 3]) {
      expect(issues(union(oneOf(['asc', 'desc'])), input)).toEqual(
        issues(union(z.enum(['asc', 'desc'])), input),
      );
    }
  });

  it('refuses what is not listed in the exported list schemas, with their messages', () => {
    expect(issues(MerchantListParamsSchema, { status: 'closed' })).toEqual([
      {
        code: 'invalid_value',
        message: 'must be one of active, inactive, suspended',
        path: ['status'],
        values: ['active', 'inactive', 'suspended'],
      },
    ]);
    expect(issues(PaymentListParamsSchema, { sortDir: 'up' })).toMatchObject([
      { code: 'invalid_value', message: 'must be "asc" or "desc"', path: ['sortDir'] },
    ]);
  });
});

describe('conversions done by overwrite checks', () => {
  it('payment options: null or absent are read as []', () => {
    for (const body of [{}, { options: null }, { options: [] }]) {
      expect(z.parse(PaymentOptionsSchema, body).options).toEqual([]);
    }
  });

  it('list filters: one status or several become a list, a Date its wire string', () => {
    const parsed = z.parse(PaymentListParamsSchema, {
      status: 'succeeded',
      startTs: new Date(Date.UTC(2026, 0, 31, 12, 30, 45, 678)),
      endTs: '2026-02-01T00:00:00Z',
    });
    expect(parsed.status).toEqual(['succeeded']);
    expect(parsed.startTs).toBe('2026-01-31T12:30:45Z');
    expect(parsed.endTs).toBe('2026-02-01T00:00:00Z');
    expect(z.parse(PaymentListParamsSchema, { status: ['failed', 'expired'] }).status).toEqual([
      'failed',
      'expired',
    ]);
  });

  it("a create's merchantId is kept only when the service sent a string", () => {
    const created = {
      paymentId: 'pay_1',
      status: 'requires_action',
      gatewayUrl: 'https://pay.example/p/1',
      isFinal: false,
      pollInMs: 1000,
      expiresAt: 1_800_000_000,
    };
    expect(z.parse(PaymentCreatedSchema, { ...created, merchantId: 'mer_1' }).merchantId).toBe(
      'mer_1',
    );
    expect(
      z.parse(PaymentCreatedSchema, { ...created, merchantId: 42 }).merchantId,
    ).toBeUndefined();
  });
});
