// Cancel a payment the buyer has not paid, and refund one that succeeded: both are safe to retry.
// Run: npx tsx examples/refunds-and-cancellations.ts
import {
  ConflictError,
  InvalidRequestError,
  MerchantGateway,
  type PaymentCreated,
} from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';

// settleAfterMs: 0 pays a succeeded payment out at once (by default the mock settles 1 s later).
const mock = createMockGateway({ pollInMs: 100, settleAfterMs: 0 });
const server = await mock.listen();
const gateway = new MerchantGateway({
  baseUrl: server.url,
  apiKey: mock.credentials.apiKey,
  merchantId: mock.sample.merchantId, // used by create, details, status, cancel and refunds
});

const take = (referenceId: string): Promise<PaymentCreated> =>
  gateway.payments.create({ amount: { unit: 'iso4217/USD', value: '1250' }, referenceId });

try {
  // 1. Cancel an open payment. An Idempotency-Key always goes with it (pass your own to repeat
  //    the call later and get the same answer), so a retry after a timeout cannot act twice.
  const abandoned = await take('order-cancel');
  const cancellation = await gateway.payments.cancel(
    abandoned.paymentId,
    {},
    { idempotencyKey: 'cancel-order-cancel' },
  );
  console.log(
    `Cancelled: ${cancellation.paymentId} (${cancellation.cancelledReason} at ${cancellation.cancelledAt})`,
  );
  const after = await gateway.payments.status(abandoned.paymentId);
  console.log(`Status now: ${after.status}, final: ${after.isFinal}`);

  // A final payment cannot be cancelled: the service answers 400.
  try {
    await gateway.payments.cancel(abandoned.paymentId);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    console.log(`Cancel again: refused (${error.status} ${error.code})`);
  }

  // 2. Refund a payment once it succeeded, read from the status endpoint.
  const paid = await take('order-refund');
  mock.setPaymentStatus(paid.paymentId, 'succeeded'); // the mock's buyer pays
  const result = await gateway.payments.waitForFinal(paid, { timeoutMs: 5000 });
  console.log(`Paid: ${result.status} in transaction ${result.info?.txId}`);
  const refund = await gateway.refunds.create({ paymentId: paid.paymentId });
  console.log(`Refunded: ${refund.paymentId}`);

  // A second refund is a ConflictError (already_refunded). After a timeout or 5xx the SDK
  // retries on its own and treats already_refunded on that retry as the refund it made.
  try {
    await gateway.refunds.create({ paymentId: paid.paymentId });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    console.log(`Refund again: ${error.code}`);
  }

  // 3. The merchant's view of the payment: status, your reference, and how it ended.
  const details = await gateway.payments.details(paid.paymentId);
  console.log(
    `Details: ${details.referenceId} ${details.status}, settled: ${details.settlement?.successful ? 'yes' : 'no'}`,
  );
} finally {
  await server.close();
}
