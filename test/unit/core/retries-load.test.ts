// p-retry loads at a call's first retry (issue 36): a call that succeeds at once, or fails with
// nothing to retry, never loads it; a retry loads it once for the process, and the attempts after
// the first still follow the policy (1 + maxRetries attempts, the same Idempotency-Key).
import { InvalidRequestError, ServerError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { BASE_URL, gateway, merchantBody, recorder, useMsw } from '../../support';

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('p-retry', async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

const server = useMsw();
const MERCHANTS = `${BASE_URL}/v1/merchants`;
const newMerchant = { merchantName: 'Acme', merchantEmail: 'pay@acme.io' };

describe('p-retry loads at the first retry', () => {
  test('not for a call that succeeds, nor for a failure the policy does not retry', async () => {
    const r = recorder((_, n) =>
      n === 1
        ? HttpResponse.json(merchantBody, { status: 201 })
        : HttpResponse.json({ code: 'VALIDATION_ERROR', message: 'bad' }, { status: 400 }),
    );
    server.use(http.post(MERCHANTS, r.resolver));
    const client = gateway({ maxRetries: 2 });
    await expect(client.merchants.create(newMerchant)).resolves.toMatchObject({ id: 'mer_1' });
    await expect(client.merchants.create(newMerchant)).rejects.toBeInstanceOf(InvalidRequestError);
    // A 5xx is retryable, but maxRetries: 0 leaves nothing to retry.
    server.use(http.post(MERCHANTS, () => new HttpResponse(null, { status: 503 })));
    await expect(client.merchants.create(newMerchant, { maxRetries: 0 })).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(loads.count).toBe(0);
  });

  test('once, at the first retry, and then runs every attempt maxRetries allows', async () => {
    const r = recorder(() => new HttpResponse(null, { status: 503 }));
    server.use(http.post(MERCHANTS, r.resolver));
    const client = gateway({ maxRetries: 2, maxRetryDelayMs: 1_000 });
    await expect(client.merchants.create(newMerchant)).rejects.toBeInstanceOf(ServerError);
    expect(r.seen).toHaveLength(3);
    expect(new Set(r.seen.map((req) => req.headers.get('idempotency-key'))).size).toBe(1);
    expect(loads.count).toBe(1);
    const again = recorder((_, n) =>
      n === 1
        ? new HttpResponse(null, { status: 503 })
        : HttpResponse.json(merchantBody, { status: 201 }),
    );
    server.use(http.post(MERCHANTS, again.resolver));
    await expect(client.merchants.create(newMerchant, { maxRetries: 1 })).resolves.toMatchObject({
      id: 'mer_1',
    });
    expect(again.seen).toHaveLength(2);
    expect(loads.count).toBe(1);
  });
});
