// Follow a payment to its final status: waitForFinal with a timeout and an AbortController, and
// watch for every status change. Run: npx tsx examples/polling.ts
import { MerchantGateway, PollTimeoutError } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';

const mock = createMockGateway({ pollInMs: 100 });
const server = await mock.listen();
const gateway = new MerchantGateway({
  baseUrl: server.url,
  apiKey: mock.credentials.apiKey,
  merchantId: mock.sample.merchantId,
});
const amount = { unit: 'iso4217/USD', value: '2500' };

try {
  // 1. waitForFinal: resolves with the final status result; onUpdate sees each change on the way.
  const first = await gateway.payments.create({ amount, referenceId: 'order-1' });
  const buyer = setInterval(() => mock.advancePayments(), 150); // the mock's buyer pays
  const final = await gateway.payments.waitForFinal(first, {
    timeoutMs: 10_000,
    onUpdate: (update) => console.log(`waitForFinal: ${update.status}`),
  });
  clearInterval(buyer);
  console.log(`Final: ${final.status}`);

  // 2. A timeout: nobody pays, so PollTimeoutError carries the last status read.
  const unpaid = await gateway.payments.create({ amount, referenceId: 'order-2' });
  try {
    await gateway.payments.waitForFinal(unpaid, { timeoutMs: 500 });
  } catch (error) {
    if (!(error instanceof PollTimeoutError)) throw error;
    console.log(
      `Timed out, still ${error.lastStatus?.status}: show "awaiting payment" and poll later`,
    );
  }

  // 3. Cancel: abort when the user leaves; the promise rejects with the signal's reason.
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('checkout closed')), 300);
  try {
    await gateway.payments.waitForFinal(unpaid, { signal: controller.signal });
  } catch (error) {
    console.log(`Aborted: ${(error as Error).message}`);
  }

  // 4. watch: an async iterable of status results, one per change, ending at the final one.
  const watched = await gateway.payments.create({ amount, referenceId: 'order-3' });
  const payer = setInterval(
    () => mock.advancePayments(['requires_action', 'processing', 'failed']),
    150,
  );
  for await (const update of gateway.payments.watch(watched.paymentId, { intervalMs: 100 })) {
    console.log(`watch: ${update.status}${update.failureCode ? ` (${update.failureCode})` : ''}`);
  }
  clearInterval(payer);
} finally {
  await server.close();
}
