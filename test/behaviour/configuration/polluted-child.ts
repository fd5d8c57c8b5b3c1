// Why: run by prototype-pollution-ky.test.ts in a child process, so Object.prototype is polluted
// before the SDK (and ky) are first imported, as in an app whose dependency was polluted early.
// argv[2]: the pollution set before the import, argv[3] the one set after it (keys Node's own
// module loader reads, such as `signal`, would stop the import itself), both as JSON. Prints what
// each call resolved or rejected with, as JSON.
function pollute(json: string | undefined): void {
  for (const [key, value] of Object.entries(JSON.parse(json ?? '{}') as Record<string, unknown>)) {
    // Not enumerable: zod's schemas enumerate prototypes with for-in when they are built, so any
    // enumerable key stops zod's import (bare zod too); every read ky makes still finds it.
    Object.defineProperty(Object.prototype, key, {
      value,
      enumerable: false,
      writable: true,
      configurable: true,
    });
  }
}

pollute(process.argv[2]);
const { MerchantGateway } = await import('../../../src/index');
pollute(process.argv[3]);
const env = process.env;
const gateway = new MerchantGateway({
  baseUrl: env.MOCK_URL,
  apiKey: env.MOCK_API_KEY,
  merchantId: env.MOCK_MERCHANT_ID,
  maxRetries: 0,
  // argv[4] '1': hooks of the client's own, which ky merges with whatever it inherits.
  ...(process.argv[4] === '1'
    ? { hooks: { beforeRequest: [() => undefined], afterResponse: [() => undefined] } }
    : {}),
});

const outcome = (error: unknown) =>
  error instanceof Error
    ? { rejected: error.name, message: error.message }
    : { rejected: String(error) };
const results: Record<string, unknown> = {};
const created = await gateway.payments
  .create(
    { amount: { unit: 'iso4217/USD', value: '1250' }, referenceId: 'order-1' },
    { idempotencyKey: 'pollution-1' },
  )
  .then(
    (payment) => ({ paymentId: payment.paymentId }),
    (error: unknown) => outcome(error),
  );
results.create = created;
results.get =
  'paymentId' in created
    ? await gateway.payments.get(created.paymentId).then(
        (view) => ({ status: view.status }),
        (error: unknown) => outcome(error),
      )
    : 'not run';
results.list = await gateway.payments.list({ limit: 2 }).then(
  (page) => ({ items: page.data.length }),
  (error: unknown) => outcome(error),
);
process.stdout.write(JSON.stringify(results));

export {};
