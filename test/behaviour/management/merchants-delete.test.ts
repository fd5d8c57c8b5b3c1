import { NotFoundError } from 'merchant-gateway';
import { describe, expect, test } from 'vitest';
import { rejectedBeforeSending, TRANSPORTS, useManagement } from './support';

describe.each(TRANSPORTS)('merchants.delete against the mock over %s', (transport) => {
  const t = useManagement(transport);
  const deletes = () => t.requests('DELETE', /^\/v1\/merchants\/[^/]+$/);

  test('resolves { id, deleted: true } and the merchant then reads as 404 not_found', async () => {
    const gateway = t.client();
    const { merchantId } = t.mock.sample;
    expect(await gateway.merchants.delete(merchantId)).toEqual({ id: merchantId, deleted: true });
    expect(deletes()).toHaveLength(1);
    const error = await gateway.merchants.get(merchantId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('not_found');
    await expect(gateway.settlements.list(merchantId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      gateway.merchants.update(merchantId, { merchantName: 'Back again' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(t.mock.getMerchant(merchantId)?.deletedAt).toMatch(/^\d{4}-/);
  });

  test('a deleted merchant takes no new payments: 400 merchant_not_found', async () => {
    const gateway = t.client({ merchantId: t.mock.sample.merchantId });
    await gateway.merchants.delete(t.mock.sample.merchantId);
    await expect(
      gateway.payments.create({
        amount: { unit: 'iso4217/USD', value: '100' },
        referenceId: 'r-1',
      }),
    ).rejects.toMatchObject({ status: 400, code: 'merchant_not_found' });
  });

  test('deleting again resolves deleted: true (the service is idempotent here)', async () => {
    const gateway = t.client();
    const { merchantId } = t.mock.sample;
    await gateway.merchants.delete(merchantId);
    const firstDeletedAt = t.mock.getMerchant(merchantId)?.deletedAt;
    expect(await gateway.merchants.delete(merchantId)).toEqual({ id: merchantId, deleted: true });
    expect(t.mock.getMerchant(merchantId)?.deletedAt).toBe(firstDeletedAt);
  });

  test('an unknown merchant is a NotFoundError, not retried', async () => {
    const error = await t
      .client({ maxRetries: 2 })
      .merchants.delete('mer_missing')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(deletes()).toHaveLength(1);
  });

  test('a DELETE is retried after a 5xx and after a dropped connection', async () => {
    t.mock.failNext({ status: 500, match: { method: 'DELETE' } });
    t.mock.failNext({ networkError: true, match: { method: 'DELETE' } });
    const { merchantId } = t.mock.sample;
    const result = await t.client({ maxRetries: 2 }).merchants.delete(merchantId);
    expect(result).toEqual({ id: merchantId, deleted: true });
    expect(deletes()).toHaveLength(3);
  });

  test('the id is percent-encoded into one path segment', async () => {
    await expect(t.client().merchants.delete('mer_1/../payments?x=1')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(t.mock.requests.at(-1)?.url).toContain('/v1/merchants/mer_1%2F..%2Fpayments%3Fx%3D1');
  });

  test.each([[''], ['.'], ['..'], ['mer\n1'], ['mer\u00001']])(
    'the id %j is refused before sending',
    async (id) => {
      const issues = await rejectedBeforeSending(t.mock, () => t.client().merchants.delete(id));
      expect(issues[0]?.field).toBe('merchantId');
    },
  );
});
