// `await waitForFinal(...)` as the last thing a script does: the reads and the waits between
// them, failed reads included, keep the process alive until the payment is final.
import { MerchantGateway } from 'merchant-gateway';

const gateway = new MerchantGateway({ merchantId: process.env.MERCHANT_ID });
const result = await gateway.payments.waitForFinal(process.env.PAYMENT_ID ?? '', {
  timeoutMs: 20_000,
});
process.stdout.write(`${JSON.stringify({ status: result.status })}\n`);
