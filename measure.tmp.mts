// Bounded measurement of issue 19's scenarios over loopback (src via tsx). Not committed.
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { idleCuttingProxy, serveMock, sleep } from './test/behaviour/polling/real-http.ts';

const t = () => performance.now();
async function outage() {
  const served = await serveMock({ pollInMs: 1000 });
  const g = new MerchantGateway({ baseUrl: served.url, apiKey: served.mock.credentials.apiKey, merchantId: served.mock.sample.merchantId });
  const p = await g.payments.create({ amount: { unit: 'iso4217/USD', value: '1' }, referenceId: 'm-1' });
  const errors: string[] = [];
  const start = t();
  const done = g.payments.waitForFinal(p, { timeoutMs: 60_000, onError: (e) => errors.push(e.name) });
  await sleep(1500); await served.stop(); await sleep(3000); await served.start();
  await sleep(1000); served.mock.setPaymentStatus(p.paymentId, 'succeeded');
  const r = await done.catch((e) => e);
  console.log(`3 s outage in a 60 s waitForFinal: ${r.status ?? r.name} after ${Math.round(t() - start)} ms; onError: ${errors.join(', ')}`);
  await served.close();
}
async function proxy25() {
  const served = await serveMock({ pollInMs: 1000 });
  const proxy = await idleCuttingProxy(served.url, 25_000);
  const g = new MerchantGateway({ baseUrl: proxy.url, apiKey: served.mock.credentials.apiKey, merchantId: served.mock.sample.merchantId });
  const p = await g.payments.create({ amount: { unit: 'iso4217/USD', value: '1' }, referenceId: 'm-2' });
  const errors: string[] = [];
  const start = t();
  const done = g.payments.waitForFinal(p, { timeoutMs: 120_000, onError: (e) => errors.push(`${e.name} ${(e as { status?: number }).status ?? ''} at ${Math.round(t() - start)} ms`) });
  await sleep(55_000); served.mock.setPaymentStatus(p.paymentId, 'succeeded');
  const r = await done.catch((e) => e);
  const held = served.mock.requests.filter((q) => q.query.maxPollMs).map((q) => q.query.maxPollMs);
  console.log(`proxy cutting idle requests at 25 s: ${r.status ?? r.name} after ${Math.round(t() - start)} ms; onError: ${errors.join('; ')}; maxPollMs asked: ${held.join(', ')}; proxy cuts: ${proxy.cuts}`);
  await proxy.close(); await served.close();
}
async function neverAnswers() {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    if (req.url?.includes('maxPollMs')) return; // never answers a held read
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'requires_action', isFinal: false, pollInMs: 1000 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const g = new MerchantGateway({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'sk_test_x', merchantId: 'mer_1', timeoutMs: 5_000 });
  const start = t();
  const errors: string[] = [];
  const r = await g.payments.waitForFinal('pay_1', { timeoutMs: 45_000, onError: (e) => errors.push(`${e.name} at ${Math.round(t() - start)} ms`) }).catch((e) => e);
  console.log(`service never answering held reads, 45 s follow, 5 s attempt timeout: ${r.name} after ${Math.round(t() - start)} ms, cause ${r.cause?.name}; onError: ${errors.join('; ')}`);
  server.closeAllConnections(); server.close();
}
await outage();
await neverAnswers();
await proxy25();
