// OPEN_PAYMENT_STATUSES and isOpenPaymentStatus, as a program following the partner's open payments
// uses them (the command line's relay does): the list filter, and the test of a status read back.
import {
  FINAL_PAYMENT_STATUSES,
  isOpenPaymentStatus,
  MerchantGateway,
  OPEN_PAYMENT_STATUSES,
  PAYMENT_STATUSES,
} from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { describe, expect, it } from 'vitest';

describe('the open payment statuses', () => {
  it('are the documented statuses that are not final, and only those pass isOpenPaymentStatus', () => {
    expect([...OPEN_PAYMENT_STATUSES, ...FINAL_PAYMENT_STATUSES].sort()).toEqual(
      [...PAYMENT_STATUSES].sort(),
    );
    for (const status of PAYMENT_STATUSES) {
      expect({ status, open: isOpenPaymentStatus(status) }).toEqual({
        status,
        open: !FINAL_PAYMENT_STATUSES.includes(status),
      });
    }
    // A status the service adds later is not known to be open: a follower must not wait on it.
    expect(isOpenPaymentStatus('on_hold')).toBe(false);
    expect(isOpenPaymentStatus('')).toBe(false);
  });

  it('filter partnerPayments.list to exactly the payments isOpenPaymentStatus calls open', async () => {
    const mock = createMockGateway();
    const gateway = new MerchantGateway({
      baseUrl: 'https://gateway.test/api',
      apiKey: mock.credentials.apiKey,
      fetch: mock.fetch,
    });
    const open = await gateway.partnerPayments
      .list({ status: [...OPEN_PAYMENT_STATUSES], limit: 200 })
      .toArray({ limit: 5000 });
    const all = await gateway.partnerPayments.list({ limit: 200 }).toArray({ limit: 5000 });
    const expected = all.filter((p) => isOpenPaymentStatus(p.status)).map((p) => p.paymentId);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    expect(open.map((p) => p.paymentId).sort()).toEqual(expected.sort());
  });
});
