// The first run of merchant-gateway: create a merchant, register where it is paid, take a payment,
// follow it to its final status on the status read, then list the merchant's payments.
//
// With MERCHANT_GATEWAY_BASE_URL and MERCHANT_GATEWAY_API_KEY set it talks to that service (or to
// the mock's sidecar, `npx merchant-gateway-mock`) and waits for a buyer to pay at the URL it
// prints: open it in a browser. Otherwise it starts the embedded mock on 127.0.0.1 and plays the
// buyer itself, as a wallet does: it asks for the payment's options, signs the EIP-712 data with
// a fresh viem account and confirms (gateway.buyer.pay).
//
//   npm start            (same as: npx tsx examples/quickstart.ts)
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway, type MockGateway } from 'merchant-gateway/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const USDC_ON_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PAYOUT_WALLET = 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';

/** Digits after the decimal point of an ISO 4217 currency (2 for USD, 0 for JPY). */
function decimalsOf(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits as number;
}

/** Minor units (a string of digits, as the service sends them) in major units: '1250' → '12.50'. */
function major(minor: string, currency: string): string {
  const decimals = decimalsOf(currency);
  if (decimals === 0) return minor;
  const digits = minor.padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

async function main(): Promise<void> {
  const real =
    process.env.MERCHANT_GATEWAY_BASE_URL !== undefined &&
    process.env.MERCHANT_GATEWAY_API_KEY !== undefined;
  let mock: MockGateway | undefined;
  let server: { url: string; close(): Promise<void> } | undefined;
  try {
    let gateway: MerchantGateway;
    if (real) {
      gateway = new MerchantGateway(); // baseUrl and apiKey from the environment
      console.log(`Service:    ${gateway.baseUrl}`);
    } else {
      mock = createMockGateway({ pollInMs: 200 });
      server = await mock.listen();
      gateway = new MerchantGateway({ baseUrl: server.url, apiKey: mock.credentials.apiKey });
      console.log(`Service:    embedded mock at ${server.url}`);
    }

    const merchant = await gateway.merchants.create({
      merchantName: 'Acme Coffee',
      merchantEmail: 'payments@acme.example',
    });
    console.log(`Merchant:   created ${merchant.id}`);

    const [settlement] = await gateway.settlements.createCrypto(merchant.id, [
      { asset: USDC_ON_BASE, destination: PAYOUT_WALLET },
    ]);
    console.log(`Settlement: USDC on Base to ${settlement?.destination}`);

    const orderId = `order-${Date.now()}`;
    const payment = await gateway.payments.create(
      {
        merchantId: merchant.id,
        amount: { unit: 'iso4217/USD', value: '1250' },
        referenceId: orderId,
      },
      { idempotencyKey: orderId }, // safe to retry: the service never creates it twice
    );
    console.log(
      `Payment:    ${payment.paymentId} (12.50 USD), buyer pays at ${payment.gatewayUrl}`,
    );

    let paid: Promise<void> | undefined;
    if (mock) {
      // The buyer's half of the service, run as a wallet runs it: options for the buyer's
      // account, the EIP-712 signature, the confirm; the follow below sees the payment move.
      const account = privateKeyToAccount(generatePrivateKey());
      paid = gateway.buyer
        .pay(payment.paymentId, { account, chainId: 'eip155:8453' })
        .then((confirmed) =>
          console.log(`Buyer:      ${account.address} signed and confirmed (${confirmed.status})`),
        );
    } else {
      console.log(`Waiting:    open ${payment.gatewayUrl} in a browser and pay (up to 10 minutes)`);
    }
    // Follows the merchant-side status read (GET /v1/payments/{id}/status), long-polling: a
    // change reaches us as soon as the service sees it.
    const final = await gateway.payments.waitForFinal(payment, {
      merchantId: merchant.id,
      timeoutMs: real ? 10 * 60_000 : 30_000,
      onUpdate: (update) => console.log(`            status ${update.status}`),
    });
    await paid;
    console.log(`Final:      ${final.status}`);
    if (final.info) console.log(`Paid in:    transaction ${final.info.txId}`);
    if (final.failureCode) console.log(`Failed:     ${final.failureCode}`);

    // The merchant just made has one payment; the mock's seeded sample merchant has 1,000, so
    // its list shows pages and stats worth looking at.
    const listed = mock ? mock.sample.merchantId : merchant.id;
    if (mock) {
      console.log(`List:       the mock's sample merchant ${listed}, not ${merchant.id}: it has`);
      console.log('            1,000 seeded payments, where ours has one');
    }
    const page = await gateway.payments.list({ merchantId: listed, limit: 5 });
    // Every amount below in major units, currency named: list items come in minor units
    // ('1250'), revenue stats in major units (12.5); both print as 12.50 USD.
    console.log(`Payments:   ${page.stats.totalTransactions} in all (amounts in major units)`);
    for (const p of page.data) {
      const currency = p.fiatAmount?.unit.replace(/^iso4217\//, '');
      const amount =
        p.fiatAmount && currency ? `${major(p.fiatAmount.value, currency)} ${currency}` : '-';
      console.log(
        `  ${p.paymentId}  ${p.status.padEnd(16)} ${amount.padStart(12)}  ${p.createdAt}`,
      );
    }
    const revenue = page.stats.totalRevenue
      .map((r) => `${r.amount.toFixed(decimalsOf(r.currency))} ${r.currency}`)
      .join(', ');
    console.log(`Revenue:    ${revenue || 'none yet'} (succeeded payments, major units)`);
    console.log(
      `More:       ${page.nextCursor ? 'yes, for await the list to walk every page' : 'no'}`,
    );
  } finally {
    await server?.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const e = error instanceof Error ? error : new Error(String(error));
    console.error(`quickstart failed: ${e.name}: ${e.message}`);
    process.exit(1);
  },
);
