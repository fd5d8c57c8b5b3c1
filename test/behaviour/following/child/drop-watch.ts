// Starts watch(), reads once, then drops the iterator at its yield: no return(), no next().
// The process must then exit by itself, though the follow's deadline is ten minutes away.
import { MerchantGateway } from 'merchant-gateway';

const gateway = new MerchantGateway({ merchantId: process.env.MERCHANT_ID });
const updates = gateway.payments.watch(process.env.PAYMENT_ID ?? '', { timeoutMs: 600_000 });
const first = await updates[Symbol.asyncIterator]().next();
process.stdout.write(`${JSON.stringify({ status: first.value?.status, readAt: Date.now() })}\n`);
