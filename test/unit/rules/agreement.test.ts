// The SDK refuses bad input before sending; the mock (like the service) answers it with a 400.
// Both read their rules from src/rules/: these cases hold them to the same answer on each side
// of every bound.
import { MerchantGateway, RequestValidationError } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { BASE_URL as BASE, issuesOf } from '../../support';
import { noRetryGateway } from '../../support/fake-service';

const mock = createMockGateway();
const merchantId = mock.sample.merchantId;
const gateway = noRetryGateway({
  apiKey: mock.credentials.apiKey,
  merchantId,
  fetch: mock.fetch,
});

beforeEach(() => mock.reset());

type Verdict = 'accepted' | 'refused';

/** `[label, input, verdict]` rows reordered for a `'%s: both say %s'` title. */
function titled<T>(rows: readonly (readonly [string, T, Verdict])[]): [string, Verdict, T][] {
  return rows.map(([label, input, verdict]) => [label, verdict, input]);
}

/** Refused by the SDK means a RequestValidationError with nothing sent. */
async function sdkVerdict(call: () => Promise<unknown>): Promise<Verdict> {
  mock.reset();
  try {
    await call();
  } catch (error) {
    if (error instanceof RequestValidationError) {
      expect(mock.requests).toHaveLength(0);
      return 'refused';
    }
  }
  return 'accepted';
}

/** Refused by the mock means a 400, the request sent raw as a non-SDK client would. */
async function mockVerdict(path: string, init: RequestInit = {}): Promise<Verdict> {
  mock.reset();
  const headers = new Headers(init.headers);
  headers.set('Api-Key', mock.credentials.apiKey);
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  const response = await mock.fetch(`${BASE}${path}`, { ...init, headers });
  return response.status === 400 ? 'refused' : 'accepted';
}

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Idempotency-Key': crypto.randomUUID(), ...headers },
  body: JSON.stringify(body),
});

const EMOJI = '😀'; // one code point, two UTF-16 units

describe('merchantName: 1 to 256 characters, counted in code points', () => {
  it.each(
    titled<string>([
      ['empty', '', 'refused'],
      ['1 character', 'a', 'accepted'],
      ['256 characters', 'a'.repeat(256), 'accepted'],
      ['257 characters', 'a'.repeat(257), 'refused'],
      ['200 emoji (400 UTF-16 units)', EMOJI.repeat(200), 'accepted'],
      ['256 emoji (512 UTF-16 units)', EMOJI.repeat(256), 'accepted'],
      ['257 emoji', EMOJI.repeat(257), 'refused'],
      ['255 letters and an emoji', `${'a'.repeat(255)}${EMOJI}`, 'accepted'],
    ]),
  )('%s: both say %s', async (_, verdict, merchantName) => {
    const body = { merchantName, merchantEmail: 'shop@example.com' };
    expect(await sdkVerdict(() => gateway.merchants.create(body))).toBe(verdict);
    expect(await mockVerdict('/v1/merchants', post(body))).toBe(verdict);
    expect(await sdkVerdict(() => gateway.merchants.update(merchantId, { merchantName }))).toBe(
      verdict,
    );
    const patch = { method: 'PATCH', body: JSON.stringify({ merchantName }) };
    expect(await mockVerdict(`/v1/merchants/${merchantId}`, patch)).toBe(verdict);
  });
});

describe('merchantEmail and iconUrl', () => {
  it.each<[string, Verdict]>([
    ['shop@example.com', 'accepted'],
    ["o'brien+tag@mail.example.co", 'accepted'],
    ['.shop@example.com', 'refused'],
    ['sh..op@example.com', 'refused'],
    ['shop@example.c', 'refused'],
    ['shop.@example.com', 'refused'],
    ['shop@', 'refused'],
  ])('email %j: both say %s', async (merchantEmail, verdict) => {
    expect(await sdkVerdict(() => gateway.merchants.update(merchantId, { merchantEmail }))).toBe(
      verdict,
    );
    const patch = { method: 'PATCH', body: JSON.stringify({ merchantEmail }) };
    expect(await mockVerdict(`/v1/merchants/${merchantId}`, patch)).toBe(verdict);
  });

  it.each<[string | null, Verdict]>([
    ['https://cdn.example.com/logo.png', 'accepted'],
    ['https://cdn.example.com:8443/a%20b.png?v=1#x', 'accepted'],
    [null, 'accepted'],
    ['http://cdn.example.com/logo.png', 'refused'],
    ['https:cdn.example.com/logo.png', 'refused'],
    ['https:\\\\evil.example.com', 'refused'],
    ['https://cdn.example.com\\logo.png', 'refused'],
    ['https://cdn.example.com/a b.png', 'refused'],
    ['https://cdn.example.com:99999/', 'refused'],
  ])('iconUrl %j: both say %s', async (iconUrl, verdict) => {
    expect(await sdkVerdict(() => gateway.merchants.update(merchantId, { iconUrl }))).toBe(verdict);
    const patch = { method: 'PATCH', body: JSON.stringify({ iconUrl }) };
    expect(await mockVerdict(`/v1/merchants/${merchantId}`, patch)).toBe(verdict);
  });
});

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

describe('crypto settlements: 1 to 50 per call, CAIP-19 assets, CAIP-10 destinations on their chain', () => {
  const destination = 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      asset: `eip155:8453/erc20:0xabc${i}`,
      destination,
    }));

  it.each(
    titled<{ asset: string; destination: string }[]>([
      ['none', [], 'refused'],
      ['one', many(1), 'accepted'],
      ['50', many(50), 'accepted'],
      ['51', many(51), 'refused'],
      ['a bad asset', [{ asset: 'eip155:8453', destination }], 'refused'],
      ['an asset namespace of 2', [{ asset: 'eip155:8453/er:0x1', destination }], 'refused'],
      [
        'an asset reference of 128',
        [{ asset: `eip155:8453/erc20:${'a'.repeat(128)}`, destination }],
        'accepted',
      ],
      [
        'an asset reference of 129',
        [{ asset: `eip155:8453/erc20:${'a'.repeat(129)}`, destination }],
        'refused',
      ],
      ['a bad destination', [{ asset: 'eip155:8453/erc20:0x1', destination: '0xab16' }], 'refused'],
      [
        'a destination with a non-ASCII letter',
        [{ asset: 'eip155:8453/erc20:0x1', destination: 'eip155:8453:0xé' }],
        'refused',
      ],
      // The chain (`<namespace>:<reference>`) of the destination must be the asset's.
      ['USDC on Base paid to a Base account', [{ asset: USDC_BASE, destination }], 'accepted'],
      [
        'USDC on Base paid to an Ethereum mainnet account',
        [{ asset: USDC_BASE, destination: 'eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb' }],
        'refused',
      ],
      [
        "a chain reference that only starts like the asset's (eip155:84530)",
        [{ asset: USDC_BASE, destination: 'eip155:84530:0xab16' }],
        'refused',
      ],
      [
        'the same reference in another namespace',
        [{ asset: 'eip155:1/slip44:60', destination: 'cosmos:1:0xab16' }],
        'refused',
      ],
      [
        'a Solana asset paid to a Solana account',
        [
          {
            asset:
              'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp/token:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
            destination:
              'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv',
          },
        ],
        'accepted',
      ],
      [
        'the second of two entries off its chain',
        [...many(1), { asset: USDC_BASE, destination: 'eip155:10:0xab16' }],
        'refused',
      ],
    ]),
  )('%s: both say %s', async (_, verdict, settlements) => {
    expect(await sdkVerdict(() => gateway.settlements.createCrypto(merchantId, settlements))).toBe(
      verdict,
    );
    expect(
      await mockVerdict(`/v1/merchants/${merchantId}/settlements/crypto`, post({ settlements })),
    ).toBe(verdict);
  });
});

describe('a destination on another chain than its asset: one rule, one answer', () => {
  const offChain = {
    asset: USDC_BASE,
    destination: 'eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
  };

  it('the SDK names settlements.<i>.destination and the chain, and sends nothing', async () => {
    const ok = {
      asset: USDC_BASE,
      destination: 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
    };
    expect(await issuesOf(gateway.settlements.createCrypto(merchantId, [ok, offChain]))).toEqual([
      {
        field: 'settlements.1.destination',
        message: "must be an account on the asset's chain eip155:8453",
      },
    ]);
    expect(mock.requests).toHaveLength(0);
  });

  it('the mock answers 400 params_validation on create as on update, with the same message', async () => {
    const created = await mock.fetch(`${BASE}/v1/merchants/${merchantId}/settlements/crypto`, {
      ...post({ settlements: [offChain] }),
      headers: { 'Api-Key': mock.credentials.apiKey, 'Idempotency-Key': 'k1' },
    });
    expect(created.status).toBe(400);
    const createBody = (await created.json()) as { code: string; issues: unknown[] };
    expect(createBody.code).toBe('params_validation');
    expect(createBody.issues).toEqual([
      {
        field: 'settlements[0].destination',
        message: "must be an account on the asset's chain eip155:8453",
      },
    ]);
    expect(mock.getMerchant(merchantId)?.settlements.crypto).toEqual(mock.sample.cryptoSettlements);

    // The sample merchant's seeded USDC on Base settlement.
    const settlement = mock.sample.cryptoSettlements.find((s) => s.asset === USDC_BASE);
    const updated = await mock.fetch(
      `${BASE}/v1/merchants/${merchantId}/settlements/crypto/${settlement?.id}`,
      {
        method: 'PUT',
        headers: { 'Api-Key': mock.credentials.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ destination: offChain.destination }),
      },
    );
    expect(updated.status).toBe(400);
    const updateBody = (await updated.json()) as { code: string; issues: unknown[] };
    expect(updateBody.code).toBe('params_validation');
    expect(updateBody.issues).toEqual([
      { field: 'destination', message: "must be an account on the asset's chain eip155:8453" },
    ]);
  });
});

describe('payments.create body', () => {
  const future = Math.floor(Date.now() / 1000) + 3600;
  it.each(
    titled<Record<string, unknown>>([
      ['a valid body', {}, 'accepted'],
      ['a lower-case currency', { amount: { unit: 'iso4217/usd', value: '100' } }, 'refused'],
      ['a 4-letter currency', { amount: { unit: 'iso4217/USDT', value: '100' } }, 'refused'],
      ['a decimal amount', { amount: { unit: 'iso4217/USD', value: '1.5' } }, 'refused'],
      ['a negative amount', { amount: { unit: 'iso4217/USD', value: '-1' } }, 'refused'],
      ['zero', { amount: { unit: 'iso4217/USD', value: '0' } }, 'accepted'],
      ['an empty referenceId', { referenceId: '' }, 'refused'],
      ['expiresAt in an hour', { expiresAt: future }, 'accepted'],
      ['expiresAt null', { expiresAt: null }, 'accepted'],
      ['a fractional expiresAt', { expiresAt: future + 0.5 }, 'refused'],
      ['a negative expiresAt', { expiresAt: -1 }, 'refused'],
    ]),
  )('%s: both say %s', async (_, verdict, change) => {
    const body = {
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'order-1',
      ...change,
    };
    expect(
      await sdkVerdict(() =>
        gateway.payments.create(body as Parameters<typeof gateway.payments.create>[0]),
      ),
    ).toBe(verdict);
    expect(await mockVerdict('/v1/payments', post(body, { 'Merchant-Id': merchantId }))).toBe(
      verdict,
    );
  });
});

describe('payments.create checkout (2026-02-19.preview): https URLs, http only on loopback', () => {
  const preview = noRetryGateway({
    apiKey: mock.credentials.apiKey,
    merchantId,
    fetch: mock.fetch,
    apiVersion: '2026-02-19.preview',
  });
  const ok = 'https://shop.example/paid';
  it.each(
    titled<unknown>([
      ['https URLs', { successUrl: ok, errorUrl: 'https://shop.example/cart?o=1#x' }, 'accepted'],
      [
        'loopback http URLs',
        { successUrl: 'http://localhost:3000/a', errorUrl: 'http://127.0.0.1/b' },
        'accepted',
      ],
      [
        'an http URL off loopback',
        { successUrl: ok, errorUrl: 'http://shop.example/cart' },
        'refused',
      ],
      ['a relative URL', { successUrl: '/paid', errorUrl: ok }, 'refused'],
      ['a URL with a space', { successUrl: 'https://shop.example/a b', errorUrl: ok }, 'refused'],
      ['a missing errorUrl', { successUrl: ok }, 'refused'],
      ['a string instead of an object', ok, 'refused'],
    ]),
  )('%s: both say %s', async (_, verdict, checkout) => {
    const body = {
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'order-1',
      checkout,
    };
    expect(
      await sdkVerdict(() =>
        preview.payments.create(body as Parameters<typeof preview.payments.create>[0]),
      ),
    ).toBe(verdict);
    const headers = { 'Merchant-Id': merchantId, 'WCP-Version': '2026-02-19.preview' };
    expect(await mockVerdict('/v1/payments', post(body, headers))).toBe(verdict);
  });
});

describe('Idempotency-Key: 1 to 255 visible ASCII characters', () => {
  it.each(
    titled<string>([
      ['255 characters', 'k'.repeat(255), 'accepted'],
      ['256 characters', 'k'.repeat(256), 'refused'],
      ['a space inside', 'order 1', 'refused'],
    ]),
  )('%s: both say %s', async (_, verdict, idempotencyKey) => {
    const body = { merchantName: 'Shop', merchantEmail: 'shop@example.com' };
    expect(await sdkVerdict(() => gateway.merchants.create(body, { idempotencyKey }))).toBe(
      verdict,
    );
    const raw = { ...post(body), headers: { 'Idempotency-Key': idempotencyKey } };
    expect(await mockVerdict('/v1/merchants', raw)).toBe(verdict);
  });
});

describe('list queries (both lists)', () => {
  type Query = Record<string, string | number | string[]>;
  const toSearch = (query: Query) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
    }
    return search;
  };
  const cases: [string, Query, Verdict][] = [
    ['limit 1', { limit: 1 }, 'accepted'],
    ['limit 200', { limit: 200 }, 'accepted'],
    ['limit 0', { limit: 0 }, 'refused'],
    ['limit 201', { limit: 201 }, 'refused'],
    ['limit 1.5', { limit: 1.5 }, 'refused'],
    [
      'each list status',
      { status: ['requires_action', 'processing', 'succeeded', 'failed', 'expired'] },
      'accepted',
    ],
    ['status refunded (not a list status)', { status: 'refunded' }, 'refused'],
    ['status in capitals', { status: 'SUCCEEDED' }, 'refused'],
    ['a date-time in UTC', { startTs: '2026-01-31T00:00:00Z' }, 'accepted'],
    ['a date-time with an offset', { startTs: '2026-01-31T00:00:00+01:00' }, 'accepted'],
    [
      'minutes only, fractional seconds',
      { startTs: '2026-01-31T00:00Z', endTs: '2026-02-01T00:00:00.123Z' },
      'accepted',
    ],
    ['29 February of a leap year', { startTs: '2024-02-29T00:00:00Z' }, 'accepted'],
    ['29 February of another year', { startTs: '2025-02-29T00:00:00Z' }, 'refused'],
    ['31 April', { endTs: '2025-04-31T00:00:00Z' }, 'refused'],
    ['no Z or offset', { startTs: '2026-01-31T00:00:00' }, 'refused'],
    ['hour 24', { startTs: '2026-01-31T24:00:00Z' }, 'refused'],
    ['a date alone', { startTs: '2026-01-31' }, 'refused'],
    ['sortBy amount, sortDir asc', { sortBy: 'amount', sortDir: 'asc' }, 'accepted'],
    ['sortBy price', { sortBy: 'price' }, 'refused'],
    ['sortDir up', { sortDir: 'up' }, 'refused'],
  ];
  const replacementOnly: [string, Query, Verdict][] = [
    ['status cancelled (a list status since 2026-02-19)', { status: 'cancelled' }, 'accepted'],
    ['two CAIP-2 networks', { network: 'eip155:8453,eip155:1' }, 'accepted'],
    ['a network without reference', { network: 'eip155' }, 'refused'],
    ['a network list with an empty id', { network: 'eip155:1,' }, 'refused'],
    ['referenceId of 3', { referenceId: 'abc' }, 'accepted'],
    ['referenceId of 35', { referenceId: 'a'.repeat(35) }, 'accepted'],
    ['referenceId of 2', { referenceId: 'ab' }, 'refused'],
    ['referenceId of 36', { referenceId: 'a'.repeat(36) }, 'refused'],
    ['referenceId with an underscore', { referenceId: 'ord_1' }, 'refused'],
    ['referenceId of the whole alphabet', { referenceId: 'Ab 9/:.,+-' }, 'accepted'],
  ];

  it.each(titled([...cases, ...replacementOnly]))(
    'payments.list, %s: both say %s',
    async (_, verdict, query) => {
      const params = query as Parameters<typeof gateway.payments.list>[0];
      expect(await sdkVerdict(() => gateway.payments.list(params))).toBe(verdict);
      const raw = { headers: { 'Merchant-Id': merchantId } };
      expect(await mockVerdict(`/v1/merchants/payments?${toSearch(query)}`, raw)).toBe(verdict);
    },
  );

  const snake: Record<string, string> = {
    startTs: 'start_ts',
    endTs: 'end_ts',
    sortBy: 'sort_by',
    sortDir: 'sort_dir',
  };
  const legacyOnly: [string, Query, Verdict][] = [
    ['status cancelled (never a legacy list status)', { status: 'cancelled' }, 'refused'],
  ];
  it.each(titled([...cases, ...legacyOnly]))(
    'legacyPayments.list, %s: both say %s',
    async (_, verdict, query) => {
      const legacy = Object.fromEntries(
        Object.entries(query).map(([name, value]) => [snake[name] ?? name, value]),
      );
      const legacyGateway = new MerchantGateway({
        baseUrl: BASE,
        apiKey: mock.credentials.apiKey,
        legacyApiKey: mock.credentials.legacyApiKey,
        maxRetries: 0,
        fetch: mock.fetch,
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      });
      const params = legacy as Parameters<typeof legacyGateway.legacyPayments.list>[1];
      expect(await sdkVerdict(() => legacyGateway.legacyPayments.list(merchantId, params))).toBe(
        verdict,
      );
      mock.reset();
      const response = await mock.fetch(
        `${BASE}/v1/merchants/${merchantId}/payments?${toSearch(legacy)}`,
        { headers: { 'X-Api-Key': mock.credentials.legacyApiKey } },
      );
      expect(response.status === 400 ? 'refused' : 'accepted').toBe(verdict);
    },
  );
});

// Where the two are meant to differ, said here so a change to either is a decision.
describe('where the SDK and the service differ on purpose', () => {
  /** What the SDK and the mock each make of a payment with this `expiresAt`. */
  async function expiresAtVerdicts(expiresAt: number): Promise<[string, string]> {
    const body = {
      amount: { unit: 'iso4217/USD', value: '1250' },
      referenceId: 'order-1',
      expiresAt,
    };
    return [
      await sdkVerdict(() => gateway.payments.create(body)),
      await mockVerdict('/v1/payments', post(body, { 'Merchant-Id': merchantId })),
    ];
  }

  it('the SDK refuses an expiresAt of 1e11 or more as milliseconds; the service takes any integer', async () => {
    expect(await expiresAtVerdicts(100_000_000_000)).toEqual(['refused', 'accepted']);
  });

  it('only the service refuses an expiresAt in the past: the SDK does not judge by its own clock', async () => {
    expect(await expiresAtVerdicts(1)).toEqual(['accepted', 'refused']);
  });

  it('the SDK refuses an empty filter value as a likely mistake; the service publishes no rule, and the mock takes it', async () => {
    expect(await sdkVerdict(() => gateway.payments.list({ tokenSymbol: '' }))).toBe('refused');
    const raw = { headers: { 'Merchant-Id': merchantId } };
    expect(await mockVerdict('/v1/merchants/payments?token_symbol=', raw)).toBe('accepted');
  });

  it('only the mock refuses an endTs before startTs: the SDK sends the range as given', async () => {
    const query = { startTs: '2026-02-01T00:00:00Z', endTs: '2026-01-01T00:00:00Z' };
    expect(await sdkVerdict(() => gateway.payments.list(query))).toBe('accepted');
    const raw = { headers: { 'Merchant-Id': merchantId } };
    expect(await mockVerdict(`/v1/merchants/payments?${new URLSearchParams(query)}`, raw)).toBe(
      'refused',
    );
  });
});
