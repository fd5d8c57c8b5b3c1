// Why: a fixed, dependency-free loopback server for the runtime smoke and the benchmarks, where the mock's own work would blur the SDK's cost.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

export const STUB_API_KEY = 'sk_test_stub';
export const STUB_MERCHANT_ID = 'm_stub';

/** A valid `PaymentCreated` body. */
export function paymentCreated(paymentId) {
  return {
    paymentId,
    status: 'requires_action',
    isFinal: false,
    pollInMs: 1000,
    expiresAt: 1_900_000_000,
    gatewayUrl: `https://pay.example/p/${paymentId}`,
  };
}

/** A valid `PaymentView` body. */
export function paymentView() {
  return {
    status: 'requires_action',
    expiresAt: 1_900_000_000,
    amount: {
      unit: 'caip19/eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      value: '1000000',
      display: {
        assetName: 'USD Coin',
        assetSymbol: 'USDC',
        decimals: 6,
        iconUrl: null,
        networkIconUrl: null,
        networkName: 'Ethereum',
      },
    },
    buyer: null,
    merchant: { iconUrl: null, name: 'Stub Shop' },
  };
}

/** One valid item of a `payments.list` page. */
export function listItem(n) {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  return {
    paymentId: `pay_${String(n).padStart(8, '0')}`,
    merchant: { id: STUB_MERCHANT_ID, name: 'Stub Shop', iconUrl: null },
    referenceId: `order-${n}`,
    status: n % 3 === 0 ? 'succeeded' : 'requires_action',
    isTerminal: n % 3 === 0,
    createdAt: at,
    lastUpdatedAt: at,
    fiatAmount: {
      unit: 'iso4217/USD',
      value: String(100 + (n % 900)),
      display: {
        assetName: 'US Dollar',
        assetSymbol: 'USD',
        decimals: 2,
        iconUrl: null,
        networkIconUrl: null,
        networkName: null,
      },
    },
    tokenAmount: null,
    buyer: null,
    transaction: null,
    fees: null,
    settlement: null,
    settledAt: null,
  };
}

/** A valid `payments.list` page of `size` items starting at item `start`. */
export function listPage(start, size, nextCursor) {
  const data = [];
  for (let i = 0; i < size; i++) data.push(listItem(start + i));
  return {
    data,
    nextCursor,
    stats: {
      totalRevenue: [{ amount: 1234.5, currency: 'USD' }],
      totalTransactions: 100_000,
      totalCustomers: 42,
    },
  };
}

function merchant(name, email) {
  return {
    id: `m_${Math.random().toString(36).slice(2, 10)}`,
    name,
    email,
    status: 'active',
    createdAt: '2026-01-01T00:00:00Z',
  };
}

/**
 * Starts the stub on 127.0.0.1 (a free port unless given). Answers the few endpoints the smoke
 * tests and benchmarks drive, with bodies the SDK's schemas accept, and 401 without `Api-Key`.
 * `pages`: how many list pages of `pageSize` items GET /v1/merchants/payments serves.
 */
export async function startStubGateway({ port = 0, pages = 500, pageSize = 200 } = {}) {
  const created = JSON.stringify(paymentCreated('pay_stub_1'));
  const view = JSON.stringify(paymentView());
  const json = { 'content-type': 'application/json', 'x-request-id': 'req_stub' };
  let count = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      count++;
      const url = new URL(req.url ?? '/', 'http://stub');
      const send = (status, body) => {
        res.writeHead(status, json);
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (req.headers['api-key'] !== STUB_API_KEY) {
        send(401, { code: 'invalid_api_key', message: 'Api-Key is missing or wrong' });
      } else if (req.method === 'POST' && url.pathname === '/v1/payments') {
        send(201, created);
      } else if (req.method === 'GET' && url.pathname.startsWith('/v1/gateway/payment/')) {
        send(200, view);
      } else if (req.method === 'POST' && url.pathname === '/v1/merchants') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        send(201, { merchant: merchant(body.merchantName, body.merchantEmail) });
      } else if (req.method === 'GET' && url.pathname === '/v1/merchants/payments') {
        const page = Number(url.searchParams.get('cursor') ?? '0');
        const next = page + 1 < pages ? String(page + 1) : null;
        send(200, listPage(page * pageSize, pageSize, next));
      } else {
        send(404, { code: 'not_found', message: `${req.method} ${url.pathname} is not stubbed` });
      }
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}`,
    /** Requests answered so far. */
    get count() {
      return count;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

// Run directly, it serves until stdin closes, printing its URL first: the benchmarks keep the
// server in another process so its CPU time is not counted as the client's.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const stub = await startStubGateway({
    pages: Number(process.env.STUB_PAGES ?? 500),
    pageSize: Number(process.env.STUB_PAGE_SIZE ?? 200),
  });
  process.stdout.write(`${stub.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => stub.close().then(() => process.exit(0)));
}
