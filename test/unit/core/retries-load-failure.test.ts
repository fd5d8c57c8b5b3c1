// When p-retry cannot load at a call's first retry (a chunk the network lost), the call fails with
// its own error, not the loader's, and the next retry of the process tries the load again.
import { ServerError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { expect, test, vi } from 'vitest';
import { BASE_URL, gateway, recorder, useMsw } from '../../support';

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('p-retry', async (importOriginal) => {
  loads.count++;
  if (loads.count === 1) throw new Error('chunk lost');
  return importOriginal();
});

const server = useMsw();

test('a failed load leaves the call its own error, and the next retry loads again', async () => {
  const r = recorder(() => new HttpResponse(null, { status: 503 }));
  server.use(http.get(`${BASE_URL}/v1/merchants/mer_1`, r.resolver));
  const client = gateway({ maxRetries: 2 });
  await expect(client.merchants.get('mer_1')).rejects.toBeInstanceOf(ServerError);
  expect(r.seen).toHaveLength(1);
  await expect(client.merchants.get('mer_1')).rejects.toBeInstanceOf(ServerError);
  expect(r.seen).toHaveLength(4);
  expect(loads.count).toBe(2);
});
