// The deprecated path-based list next to its replacement, for the same merchant and filter.
// Run: npx tsx examples/legacy-migration.ts
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';

const mock = createMockGateway();
const server = await mock.listen();
const merchantId = mock.sample.merchantId;
const gateway = new MerchantGateway({
  baseUrl: server.url,
  apiKey: mock.credentials.apiKey, // Api-Key, for payments.list
  legacyApiKey: mock.credentials.legacyApiKey, // X-Api-Key, for the deprecated list only
  merchantId,
});

try {
  // Before: merchant id in the path, snake_case query and fields. Warns once per process.
  const legacy = await gateway.legacyPayments.list(merchantId, {
    status: 'succeeded',
    sort_by: 'date',
    sort_dir: 'desc',
    limit: 3,
  });
  // After: Merchant-Id header (from the client), camelCase query and fields, the same data.
  const current = await gateway.payments.list({
    status: 'succeeded',
    sortBy: 'date',
    sortDir: 'desc',
    limit: 3,
  });

  console.log('legacyPayments.list (deprecated)                  | payments.list');
  legacy.data.forEach((old, i) => {
    const now = current.data[i];
    console.log(
      `${old.payment_id} ${old.status.padEnd(10)} ${old.token_amount ?? '-'}`.padEnd(49),
      `| ${now?.paymentId} ${now?.status} ${now?.tokenAmount?.value ?? '-'}`,
    );
  });
  console.log(
    `Totals: legacy ${legacy.stats.total_transactions} | current ${current.stats.totalTransactions}`,
  );
  const same = legacy.data.every((p, i) => p.payment_id === current.data[i]?.paymentId);
  console.log(same ? 'Same payments in the same order: safe to switch.' : 'The lists differ!');
} finally {
  await server.close();
}
