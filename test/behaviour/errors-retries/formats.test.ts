import fc from 'fast-check';
import { type MerchantGateway, RequestValidationError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { BASE_URL, gateway, merchantBody, recorder, useMsw } from '../../support';
import { emptyLegacyPage } from '../../support/list-fixtures';
import {
  caip10NearMiss,
  caip19NearMiss,
  caipNoise,
  dateTimeNearMiss,
  dateTimeNoise,
  emailNearMiss,
  emailNoise,
  httpsUrlNearMiss,
  httpsUrlNoise,
  validCaip10,
  validCaip19,
  validDateTime,
  validEmail,
  validHttpsUrl,
} from './arbitraries';
import {
  isHttpsUri,
  isIsoDateTimeOracle,
  isPublishedCaip10,
  isPublishedCaip19,
  isPublishedEmail,
} from './oracles';

// Accepted values cost a request through msw; refused ones never leave the process.
const RUNS_SENT = 80;
const RUNS_REFUSED = 250;
const ASSET = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const DESTINATION = 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';

const merchants = recorder(() => HttpResponse.json(merchantBody, { status: 201 }));
const settlements = recorder(async (request) => {
  const body = (await request.json()) as { settlements: object[] };
  return HttpResponse.json(
    { settlements: body.settlements.map((s, i) => ({ id: `set_${i}`, ...s })) },
    { status: 201 },
  );
});
const lists = recorder(() =>
  HttpResponse.json({
    data: [],
    nextCursor: null,
    stats: { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 },
  }),
);
const legacyLists = recorder(() => HttpResponse.json(emptyLegacyPage));
useMsw(
  http.post(`${BASE_URL}/v1/merchants`, merchants.resolver),
  http.post(`${BASE_URL}/v1/merchants/:merchantId/settlements/crypto`, settlements.resolver),
  http.get(`${BASE_URL}/v1/merchants/payments`, lists.resolver),
  http.get(`${BASE_URL}/v1/merchants/:merchantId/payments`, legacyLists.resolver),
);

// The deprecated list warns once through the logger: keep that out of the test output.
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const client = gateway({ maxRetries: 0, merchantId: 'mer_1', logger: quiet });

const fromBody = (pick: (body: never) => unknown) => async (request: Request) =>
  pick((await request.json()) as never);
const fromQuery = (name: string) => async (request: Request) =>
  new URL(request.url).searchParams.get(name);

interface Format {
  name: string;
  /** The rule as the service publishes it, written independently in ./oracles. */
  rule: (value: string) => boolean;
  valid: fc.Arbitrary<string>;
  nearMiss: fc.Arbitrary<string>;
  noise: fc.Arbitrary<string>;
  /** Where the value goes in the call, and the field a RequestValidationError names. */
  field: string;
  send: (client: MerchantGateway, value: string) => Promise<unknown>;
  seen: Request[];
  /** Where the value sits in the request the handler received. */
  sent: (request: Request) => Promise<unknown>;
}

const CHAIN = /^([-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,32})[:/]/;
/** An account on the chain `id` starts with, else `fallback`. */
const onChainOf = (id: string, fallback: string) => {
  const chain = CHAIN.exec(id)?.[1];
  return chain === undefined ? fallback : `${chain}:${DESTINATION.split(':')[2]}`;
};
/** An asset on the chain `id` starts with, else `ASSET`. */
const assetOnChainOf = (id: string) => {
  const chain = CHAIN.exec(id)?.[1];
  return chain === undefined ? ASSET : `${chain}/${ASSET.split('/')[1]}`;
};

const FORMATS: Format[] = [
  {
    name: 'merchantEmail',
    rule: isPublishedEmail,
    valid: validEmail,
    nearMiss: emailNearMiss,
    noise: emailNoise,
    field: 'merchantEmail',
    send: (c, merchantEmail) => c.merchants.create({ merchantName: 'Acme', merchantEmail }),
    seen: merchants.seen,
    sent: fromBody((body: { merchantEmail: string }) => body.merchantEmail),
  },
  {
    name: 'iconUrl',
    rule: isHttpsUri,
    valid: validHttpsUrl,
    nearMiss: httpsUrlNearMiss,
    noise: httpsUrlNoise,
    field: 'iconUrl',
    send: (c, iconUrl) =>
      c.merchants.create({ merchantName: 'Acme', merchantEmail: 'pay@acme.io', iconUrl }),
    seen: merchants.seen,
    sent: fromBody((body: { iconUrl: string }) => body.iconUrl),
  },
  {
    name: 'CAIP-19 asset',
    rule: isPublishedCaip19,
    valid: validCaip19,
    nearMiss: caip19NearMiss,
    noise: caipNoise,
    field: 'settlements.0.asset',
    // The destination on the asset's chain, when it has one: only the asset is under test.
    send: (c, asset) =>
      c.settlements.createCrypto('mer_1', [{ asset, destination: onChainOf(asset, DESTINATION) }]),
    seen: settlements.seen,
    sent: fromBody((body: { settlements: [{ asset: string }] }) => body.settlements[0].asset),
  },
  {
    name: 'CAIP-10 destination',
    rule: isPublishedCaip10,
    valid: validCaip10,
    nearMiss: caip10NearMiss,
    noise: caipNoise,
    field: 'settlements.0.destination',
    send: (c, destination) =>
      c.settlements.createCrypto('mer_1', [{ asset: assetOnChainOf(destination), destination }]),
    seen: settlements.seen,
    sent: fromBody(
      (body: { settlements: [{ destination: string }] }) => body.settlements[0].destination,
    ),
  },
  {
    name: 'payments.list startTs',
    rule: isIsoDateTimeOracle,
    valid: validDateTime,
    nearMiss: dateTimeNearMiss,
    noise: dateTimeNoise,
    field: 'startTs',
    send: (c, startTs) => c.payments.list({ startTs }),
    seen: lists.seen,
    sent: fromQuery('startTs'),
  },
  {
    name: 'legacyPayments.list end_ts',
    rule: isIsoDateTimeOracle,
    valid: validDateTime,
    nearMiss: dateTimeNearMiss,
    noise: dateTimeNoise,
    field: 'end_ts',
    send: (c, end_ts) => c.legacyPayments.list('mer_1', { end_ts }),
    seen: legacyLists.seen,
    sent: fromQuery('end_ts'),
  },
];

/**
 * Sends `value` through the public client. Accepted: exactly one request left, carrying the
 * value unchanged. Refused: a RequestValidationError naming the field, and nothing sent.
 */
async function sdkAccepts(format: Format, value: string): Promise<boolean> {
  const before = format.seen.length;
  const outcome = await format.send(client, value).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (outcome === undefined) {
    expect(format.seen).toHaveLength(before + 1);
    expect(await format.sent(format.seen[before] as Request)).toBe(value);
    return true;
  }
  expect(outcome).toBeInstanceOf(RequestValidationError);
  expect((outcome as RequestValidationError).issues.map((i) => i.field)).toEqual([format.field]);
  expect(format.seen).toHaveLength(before);
  return false;
}

describe.each(FORMATS)('$name', (format) => {
  test('a generated valid value passes the published rule, and the SDK sends it as given', async () => {
    await fc.assert(
      fc.asyncProperty(format.valid, async (value) => {
        expect(format.rule(value)).toBe(true);
        expect(await sdkAccepts(format, value)).toBe(true);
      }),
      { numRuns: RUNS_SENT },
    );
  });

  test('a near-miss fails the published rule, and the SDK refuses it before any request', async () => {
    await fc.assert(
      fc.asyncProperty(format.nearMiss, async (value) => {
        expect(format.rule(value)).toBe(false);
        expect(await sdkAccepts(format, value)).toBe(false);
      }),
      { numRuns: RUNS_REFUSED },
    );
  });

  test('on arbitrary strings the SDK accepts exactly what the published rule accepts', async () => {
    await fc.assert(
      fc.asyncProperty(format.noise, async (value) => {
        expect(await sdkAccepts(format, value)).toBe(format.rule(value));
      }),
      { numRuns: RUNS_REFUSED },
    );
  });
});
