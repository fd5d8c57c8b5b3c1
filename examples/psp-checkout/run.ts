// One command for a PSP's own checkout against the embedded mock: `npm run example:checkout`.
// It starts the mock, creates a payment with the secret key (server side), opens a checkout
// session for it and prints the page's URL: open it in a browser with a wallet extension (on any
// EVM chain: the page asks the wallet to switch). Ctrl-C stops it.
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { startCheckoutServer } from './server';

const mock = createMockGateway();
const served = await mock.listen();
const gateway = new MerchantGateway({
  baseUrl: served.url,
  apiKey: mock.credentials.apiKey,
  merchantId: mock.sample.merchantId,
});
const payment = await gateway.payments.create({
  amount: { unit: 'iso4217/USD', value: '1250' },
  referenceId: `psp-checkout-${Date.now()}`,
});
const shop = await startCheckoutServer({ gateway, port: Number(process.env.PORT ?? 0) });
console.log(`Mock gateway:  ${served.url}`);
console.log(`Payment:       ${payment.paymentId} (12.50 USD)`);
console.log(`Checkout page: ${shop.startCheckout(payment.paymentId)}`);
console.log('Open the checkout page in a browser with a wallet extension; Ctrl-C stops.');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([shop.close(), served.close()]).then(() => process.exit(0));
  });
}
