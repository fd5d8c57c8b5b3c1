// Why: what one fresh process pays to import a client and make its first call; plain JS so no loader (tsx) is in the measurement. Usage: node cold-child.mjs <case> [server url] [sdk entry].
const [name, url = '', sdkEntry = ''] = process.argv.slice(2);

// The peer SDKs live in .cache/bench (bench/peers.ts): imported from a module there, so a bare
// name resolves to its node_modules. The loader, one tiny file, loads before the clock starts and
// only in a peer's process.
const peers = ['openai', 'anthropic', 'stripe'].includes(name)
  ? await import(new URL('../.cache/bench/load.mjs', import.meta.url).href)
  : undefined;

/** How each case is imported, and its first call against bench/peer-server.mjs. */
const cases = {
  bare: { load: async () => undefined },
  fetch: {
    load: async () => undefined,
    call: async () => (await fetch(`${url}/v1/gateway/payment/pay_stub_1`)).json(),
  },
  ky: {
    load: () => import('ky'),
    call: (m) => m.default.get(`${url}/v1/gateway/payment/pay_stub_1`).json(),
  },
  sdk: {
    load: () => import(sdkEntry),
    call: (m) =>
      new m.MerchantGateway({ baseUrl: url, apiKey: 'sk_test_stub' }).payments.get('pay_stub_1'),
  },
  openai: {
    load: () => peers.load('openai'),
    call: (m) =>
      new m.default({
        apiKey: 'sk-stub',
        baseURL: `${url}/openai/v1`,
        maxRetries: 0,
      }).models.retrieve('gpt-stub'),
  },
  anthropic: {
    load: () => peers.load('@anthropic-ai/sdk'),
    call: (m) =>
      new m.default({
        apiKey: 'sk-ant-stub',
        baseURL: `${url}/anthropic`,
        maxRetries: 0,
      }).models.retrieve('claude-stub'),
  },
  stripe: {
    load: () => peers.load('stripe'),
    call: (m) =>
      new m.default('sk_test_stub', {
        httpClient: m.default.createFetchHttpClient(),
        host: '127.0.0.1',
        port: Number(new URL(url).port),
        protocol: 'http',
        maxNetworkRetries: 0,
        telemetry: false,
      }).paymentIntents.retrieve('pi_stub'),
  },
  'zod/mini': { load: () => import('zod/mini') },
  'p-retry': { load: () => import('p-retry') },
};

const chosen = cases[name];
if (chosen === undefined) throw new Error(`unknown case ${name}`);
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const t = performance.now();
const mod = await chosen.load();
const importMs = performance.now() - t;
const importCpuMs = cpuMs();
let callMs;
let callCpuMs;
if (chosen.call !== undefined && url !== '') {
  await chosen.call(mod);
  callMs = performance.now() - t;
  callCpuMs = cpuMs();
}
// sinceStartMs: from the process's time origin, so node's own start-up is in it.
console.log(
  JSON.stringify({ importMs, importCpuMs, callMs, callCpuMs, sinceStartMs: performance.now() }),
);
process.exit(0);
