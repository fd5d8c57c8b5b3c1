// Four ways to read a merchant's payments: the first page with stats, every item, page by page,
// and a capped array. Run: npx tsx examples/pagination.ts
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';

const mock = createMockGateway();
const server = await mock.listen();
const gateway = new MerchantGateway({
  baseUrl: server.url,
  apiKey: mock.credentials.apiKey,
  merchantId: mock.sample.merchantId, // the sample merchant: 1,000 payments
});

try {
  // 1. await: the first page, with stats of the whole filtered set.
  const first = await gateway.payments.list({ status: 'succeeded', limit: 20 });
  const revenue = first.stats.totalRevenue.map((r) => `${r.amount} ${r.currency}`).join(', ');
  console.log(`First page: ${first.data.length} items, more: ${first.nextCursor !== null}`);
  console.log(`Stats: ${first.stats.totalTransactions} succeeded payments, revenue ${revenue}`);

  // 2. for await: every item of every page, each page fetched only when needed.
  let count = 0;
  for await (const payment of gateway.payments.list({
    startTs: '2026-01-01T00:00:00Z',
    limit: 200,
  })) {
    if (payment.status === 'failed') count++;
  }
  console.log(`Failed payments since 2026-01-01: ${count}`);

  // 3. .pages(): one page at a time, e.g. to write each page to a file or a queue.
  let pages = 0;
  for await (const page of gateway.payments.list({ status: ['expired'], limit: 100 }).pages()) {
    pages++;
    if (pages === 1) console.log(`Expired, page 1: ${page.data.length} items`);
  }
  console.log(`Expired payments span ${pages} pages of 100`);

  // 4. .toArray({ limit }): at most `limit` items; no page past the one that fills it is fetched.
  const largest = await gateway.payments
    .list({ sortBy: 'amount', sortDir: 'desc', limit: 50 })
    .toArray({ limit: 3 });
  console.log(`Top 3 by amount: ${largest.map((p) => p.fiatAmount?.value).join(', ')}`);
} finally {
  await server.close();
}
