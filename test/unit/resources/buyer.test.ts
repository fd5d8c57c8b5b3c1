import {
  ConnectionError,
  InvalidRequestError,
  isBuildAction,
  isWalletRpcAction,
  NotFoundError,
  type PaymentOptionsParams,
  RateLimitedError,
  RequestValidationError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, gateway, recorder, useMsw } from '../../support';
import {
  cancellation,
  GATEWAY,
  option,
  optionsBody,
  PAYMENT_ID,
  processing,
  succeeded,
  viewBody,
} from '../../support/buyer-fixtures';

const server = useMsw();
const ADDRESS = '0x1111111111111111111111111111111111111111';
const ACCOUNT = `eip155:8453:${ADDRESS}`;

/** Answers `method` on `url` with `respond`; returns what it saw. */
function route(
  method: 'get' | 'post',
  url: string,
  respond: (request: Request, n: number) => Response | Promise<Response>,
) {
  const r = recorder(respond);
  server.use(http[method](url, r.resolver));
  return r.seen;
}

const json =
  (body: unknown, status = 200) =>
  () =>
    HttpResponse.json(body as never, { status });
const body = async (request: Request | undefined) => (request ? await request.json() : undefined);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

async function refused(promise: Promise<unknown>, seen: readonly Request[], field: string) {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(RequestValidationError);
  expect((error as RequestValidationError).issues.map((i) => i.field)).toContain(field);
  expect(seen).toHaveLength(0);
  return error as RequestValidationError;
}

describe('buyer.get', () => {
  it('reads the gateway view of the payment', async () => {
    const seen = route('get', GATEWAY, json(viewBody));
    const view = await gateway().buyer.get(PAYMENT_ID);
    expect(view.merchant.name).toBe('Acme');
    expect(view.amount.display.assetSymbol).toBe('USDC');
    expect(seen).toHaveLength(1);
  });

  it('payments.get, its deprecated alias, sends the same request and returns the same view', async () => {
    const seen = route('get', GATEWAY, json(viewBody));
    const client = gateway();
    const [alias, view] = await Promise.all([
      client.payments.get(PAYMENT_ID),
      client.buyer.get(PAYMENT_ID),
    ]);
    expect(alias).toStrictEqual(view);
    expect(seen.map((r) => new URL(r.url).pathname)).toStrictEqual([
      `/v1/gateway/payment/${PAYMENT_ID}`,
      `/v1/gateway/payment/${PAYMENT_ID}`,
    ]);
  });

  it('rejects an unknown payment with a NotFoundError carrying the gateway code', async () => {
    route('get', GATEWAY, json({ code: 'payment_not_found', message: 'no such payment' }, 404));
    const error = await rejection(gateway({ maxRetries: 0 }).buyer.get(PAYMENT_ID));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('payment_not_found');
    expect((error as Error).message).toContain(`GET /v1/gateway/payment/${PAYMENT_ID} → 404`);
  });
});

describe('buyer.status', () => {
  it('reads the gateway status, holding it with maxPollMs', async () => {
    const seen = route('get', `${GATEWAY}/status`, json(processing));
    const result = await gateway().buyer.status(PAYMENT_ID, { maxPollMs: 20_000 });
    expect(result.status).toBe('processing');
    expect(new URL(seen[0]?.url ?? '').searchParams.get('maxPollMs')).toBe('20000');
    expect(seen[0]?.headers.get('merchant-id')).toBeNull();
  });

  it('stretches the attempt timeout by maxPollMs, so a held answer is not cut', async () => {
    route('get', `${GATEWAY}/status`, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return HttpResponse.json(succeeded);
    });
    const client = gateway({ timeoutMs: 100, maxRetries: 0 });
    await expect(client.buyer.status(PAYMENT_ID, { maxPollMs: 1_000 })).resolves.toMatchObject({
      status: 'succeeded',
    });
    await expect(client.buyer.status(PAYMENT_ID)).rejects.toBeInstanceOf(TimeoutError);
  });

  it.each([60_001, -1, 1.5, '100'])('refuses maxPollMs %j before sending', async (maxPollMs) => {
    const seen = route('get', `${GATEWAY}/status`, json(processing));
    const error = await refused(
      gateway().buyer.status(PAYMENT_ID, { maxPollMs } as { maxPollMs: number }),
      seen,
      'maxPollMs',
    );
    expect(error.message).toContain('buyer.status');
  });
});

describe('buyer.options', () => {
  it('posts the accounts (and refresh) and asks for the payment info only when told', async () => {
    const seen = route('post', `${GATEWAY}/options`, json(optionsBody([option(ADDRESS)])));
    const result = await gateway().buyer.options(PAYMENT_ID, {
      accounts: [ACCOUNT],
      refresh: ['opt_old'],
      includePaymentInfo: true,
    });
    expect(result.options[0]?.id).toBe('opt_usdc_base');
    expect(result.options[0]?.amount.value).toBe('1250000');
    expect(await body(seen[0])).toStrictEqual({ accounts: [ACCOUNT], refresh: ['opt_old'] });
    expect(new URL(seen[0]?.url ?? '').search).toBe('?includePaymentInfo=true');
    await gateway().buyer.options(PAYMENT_ID, { accounts: [ACCOUNT] });
    expect(new URL(seen[1]?.url ?? '').search).toBe('');
    expect(await body(seen[1])).toStrictEqual({ accounts: [ACCOUNT] });
  });

  it.each([
    ['null', { options: null }],
    ['absent', {}],
  ])('reads options %s as an empty array', async (_, answer) => {
    route('post', `${GATEWAY}/options`, json(answer));
    const result = await gateway().buyer.options(PAYMENT_ID, { accounts: [ACCOUNT] });
    expect(result.options).toStrictEqual([]);
  });

  it('parses the payment info and data collection when the service sends them', async () => {
    const collect = { url: 'https://collect.example/ic', schema: { type: 'object' } };
    route(
      'post',
      `${GATEWAY}/options`,
      json(optionsBody([option(ADDRESS)], { info: viewBody, collectData: collect })),
    );
    const result = await gateway().buyer.options(PAYMENT_ID, {
      accounts: [ACCOUNT],
      includePaymentInfo: true,
    });
    expect(result.info?.merchant.name).toBe('Acme');
    expect(result.collectData?.url).toBe(collect.url);
  });

  it('keeps an action of a type it does not know, as it came', async () => {
    const unknown = { type: 'redirect', data: { url: 'https://wallet.example' } };
    route(
      'post',
      `${GATEWAY}/options`,
      json(optionsBody([option(ADDRESS, { actions: [unknown] })])),
    );
    const result = await gateway().buyer.options(PAYMENT_ID, { accounts: [ACCOUNT] });
    expect(result.options[0]?.actions).toStrictEqual([unknown]);
  });

  it('rejects a known action that breaks its shape, naming the field', async () => {
    const broken = {
      type: 'walletRpc',
      data: { chain_id: 'eip155:8453', method: 'x', params: 'no' },
    };
    route(
      'post',
      `${GATEWAY}/options`,
      json(optionsBody([option(ADDRESS, { actions: [broken] })])),
    );
    const error = await rejection(gateway().buyer.options(PAYMENT_ID, { accounts: [ACCOUNT] }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toContainEqual({
      field: 'options.0.actions.0.data.params',
      message: 'expected array',
    });
    // Reading options changes nothing: the error does not say the service acted.
    expect((error as Error).message).not.toContain('acted');
  });

  it('is retried after a 5xx, as reading options moves no money', async () => {
    const seen = route('post', `${GATEWAY}/options`, (_, n) =>
      n === 1 ? new HttpResponse(null, { status: 503 }) : HttpResponse.json(optionsBody([])),
    );
    await gateway().buyer.options(PAYMENT_ID, { accounts: [ACCOUNT] });
    expect(seen).toHaveLength(2);
  });

  it.each<[string, unknown, string]>([
    ['no account', { accounts: [] }, 'accounts'],
    ['51 accounts', { accounts: Array.from({ length: 51 }, () => ACCOUNT) }, 'accounts'],
    ['accounts not an array', { accounts: ACCOUNT }, 'accounts'],
    ['an address that is not CAIP-10', { accounts: [ADDRESS] }, 'accounts.0'],
    [
      'a CAIP-10 id past 256 characters',
      { accounts: [`eip155:1:${'a'.repeat(250)}`] },
      'accounts.0',
    ],
    [
      'an option id to refresh past 65,536 characters',
      { accounts: [ACCOUNT], refresh: ['x'.repeat(65_537)] },
      'refresh.0',
    ],
    [
      'includePaymentInfo not a boolean',
      { accounts: [ACCOUNT], includePaymentInfo: 'yes' },
      'includePaymentInfo',
    ],
    ['a misspelt field', { accounts: [ACCOUNT], refersh: [] }, 'refersh'],
  ])('refuses %s before sending', async (_, params, field) => {
    const seen = route('post', `${GATEWAY}/options`, json(optionsBody([])));
    await refused(gateway().buyer.options(PAYMENT_ID, params as PaymentOptionsParams), seen, field);
  });

  it('accepts 50 accounts', async () => {
    const seen = route('post', `${GATEWAY}/options`, json(optionsBody([])));
    const accounts = Array.from({ length: 50 }, (_, i) => `eip155:${i + 1}:${ADDRESS}`);
    await gateway().buyer.options(PAYMENT_ID, { accounts });
    expect(((await body(seen[0])) as { accounts: string[] }).accounts).toHaveLength(50);
  });
});

describe('action guards', () => {
  it('tell a wallet RPC action, a build action and an unknown one apart', () => {
    const rpc = {
      type: 'walletRpc',
      data: { chain_id: 'eip155:1', method: 'm', params: [] },
    } as const;
    const build = { type: 'build', data: { data: 'd' } } as const;
    const other = { type: 'redirect' };
    expect([rpc, build, other].map(isWalletRpcAction)).toStrictEqual([true, false, false]);
    expect([rpc, build, other].map(isBuildAction)).toStrictEqual([false, true, false]);
  });
});

describe('buyer.fetchActions', () => {
  it('posts the option id and build data and returns the actions', async () => {
    const built = option(ADDRESS).actions;
    const seen = route('post', `${GATEWAY}/fetch`, json({ actions: built }));
    const actions = await gateway().buyer.fetchActions(PAYMENT_ID, {
      optionId: 'opt_usdt',
      data: 'opaque-build-data',
    });
    expect(actions).toStrictEqual(built);
    expect(await body(seen[0])).toStrictEqual({ optionId: 'opt_usdt', data: 'opaque-build-data' });
  });

  it('accepts an option id of 65,536 characters and refuses one longer, before sending', async () => {
    const seen = route('post', `${GATEWAY}/fetch`, json({ actions: [] }));
    await gateway().buyer.fetchActions(PAYMENT_ID, { optionId: 'o'.repeat(65_536), data: 'd' });
    expect(seen).toHaveLength(1);
    seen.length = 0;
    await refused(
      gateway().buyer.fetchActions(PAYMENT_ID, { optionId: 'o'.repeat(65_537), data: 'd' }),
      seen,
      'optionId',
    );
  });

  it('refuses a missing data field before sending', async () => {
    const seen = route('post', `${GATEWAY}/fetch`, json({ actions: [] }));
    const error = await refused(
      gateway().buyer.fetchActions(PAYMENT_ID, { optionId: 'o' } as {
        optionId: string;
        data: string;
      }),
      seen,
      'data',
    );
    expect(error.issues).toContainEqual({ field: 'data', message: 'is required' });
  });
});

describe('buyer.confirm', () => {
  const params = {
    optionId: 'opt_usdc_base',
    results: [{ type: 'walletRpc' as const, data: ['0xsignature'] }],
  };

  it('posts the option and results in order, holding the answer with maxPollMs', async () => {
    const seen = route('post', `${GATEWAY}/confirm`, json(succeeded));
    const result = await gateway().buyer.confirm(
      PAYMENT_ID,
      { ...params, collectedData: { fields: [{ id: 'fullName', value: 'Ada' }] } },
      { maxPollMs: 10_000 },
    );
    expect(result).toMatchObject({ status: 'succeeded', isFinal: true });
    expect(result.info?.txId).toBe(succeeded.info.txId);
    expect(await body(seen[0])).toStrictEqual({
      ...params,
      collectedData: { fields: [{ id: 'fullName', value: 'Ada' }] },
    });
    expect(new URL(seen[0]?.url ?? '').searchParams.get('maxPollMs')).toBe('10000');
    expect(seen[0]?.headers.get('idempotency-key')).toBeNull();
  });

  it.each([
    [
      'a 500',
      () => HttpResponse.json({ code: 'internal_error', message: 'boom' }, { status: 500 }),
    ],
    ['a 503 without a body', () => new HttpResponse(null, { status: 503 })],
    ['a lost connection', () => HttpResponse.error()],
  ])('is sent once after %s, and the error says to read buyer.status', async (_, answer) => {
    const seen = route('post', `${GATEWAY}/confirm`, answer);
    const error = await rejection(gateway({ maxRetries: 3 }).buyer.confirm(PAYMENT_ID, params));
    expect(seen).toHaveLength(1);
    expect(error).toSatisfy((e) => e instanceof ServerError || e instanceof ConnectionError);
    expect((error as Error).message).toContain(`read gateway.buyer.status("${PAYMENT_ID}")`);
  });

  it('is sent once when the attempt times out', async () => {
    const seen = route('post', `${GATEWAY}/confirm`, async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      return HttpResponse.json(succeeded);
    });
    const error = await rejection(
      gateway({ maxRetries: 3, timeoutMs: 50 }).buyer.confirm(PAYMENT_ID, params),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('buyer.status');
    expect(seen).toHaveLength(1);
  });

  it('is retried after rate limiting, as the service did not act', async () => {
    const seen = route('post', `${GATEWAY}/confirm`, (_, n) =>
      n === 1
        ? HttpResponse.json(
            { code: 'rate_limited', message: 'slow down' },
            { status: 429, headers: { 'retry-after-ms': '10' } },
          )
        : HttpResponse.json(processing),
    );
    await expect(gateway().buyer.confirm(PAYMENT_ID, params)).resolves.toMatchObject({
      status: 'processing',
    });
    expect(seen).toHaveLength(2);
  });

  it('says nothing of an unknown outcome when rate limiting outlasts the retries', async () => {
    const seen = route('post', `${GATEWAY}/confirm`, () =>
      HttpResponse.json({ code: 'rate_limited', message: 'slow down' }, { status: 429 }),
    );
    const error = await rejection(gateway({ maxRetries: 0 }).buyer.confirm(PAYMENT_ID, params));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as Error).message).not.toContain('buyer.status');
    expect(seen).toHaveLength(1);
  });

  it('rejects a stale quote with the service code and no note about an unknown outcome', async () => {
    route(
      'post',
      `${GATEWAY}/confirm`,
      json({ code: 'quote_expired', message: 'quote expired' }, 400),
    );
    const error = await rejection(gateway().buyer.confirm(PAYMENT_ID, params));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).code).toBe('quote_expired');
    expect((error as Error).message).not.toContain('buyer.status');
  });

  it.each<[string, unknown, string]>([
    [
      'a result of another type',
      { optionId: 'o', results: [{ type: 'build', data: [] }] },
      'results.0.type',
    ],
    [
      'a result whose data is not an array',
      { optionId: 'o', results: [{ type: 'walletRpc', data: '0x1' }] },
      'results.0.data',
    ],
    ['results not an array', { optionId: 'o', results: {} }, 'results'],
    ['no option id', { results: [] }, 'optionId'],
    [
      'an option id past 65,536 characters',
      { optionId: 'o'.repeat(65_537), results: [] },
      'optionId',
    ],
    [
      'collected data without fields',
      { optionId: 'o', results: [], collectedData: {} },
      'collectedData.fields',
    ],
  ])('refuses %s before sending', async (_, given, field) => {
    const seen = route('post', `${GATEWAY}/confirm`, json(processing));
    await refused(gateway().buyer.confirm(PAYMENT_ID, given as typeof params), seen, field);
  });

  it('refuses a maxPollMs above 60,000 before sending', async () => {
    const seen = route('post', `${GATEWAY}/confirm`, json(processing));
    await refused(
      gateway().buyer.confirm(PAYMENT_ID, params, { maxPollMs: 60_001 }),
      seen,
      'maxPollMs',
    );
  });
});

describe('buyer.cancel', () => {
  it('cancels through the gateway and returns the cancellation', async () => {
    const seen = route('post', `${GATEWAY}/cancel`, json(cancellation));
    await expect(gateway().buyer.cancel(PAYMENT_ID)).resolves.toStrictEqual(cancellation);
    expect(seen[0]?.headers.get('merchant-id')).toBeNull();
  });

  it('rejects a payment that can no longer be cancelled with an InvalidRequestError', async () => {
    route('post', `${GATEWAY}/cancel`, json({ code: 'invalid_state', message: 'final' }, 400));
    const error = await rejection(gateway().buyer.cancel(PAYMENT_ID));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).code).toBe('invalid_state');
  });

  it('is not repeated after a 5xx, whose outcome is unknown', async () => {
    const seen = route('post', `${GATEWAY}/cancel`, () => new HttpResponse(null, { status: 502 }));
    await expect(gateway().buyer.cancel(PAYMENT_ID)).rejects.toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(1);
  });
});

describe('payment ids', () => {
  const client = () => gateway();
  const calls: [string, (id: string) => Promise<unknown>][] = [
    ['get', (id) => client().buyer.get(id)],
    ['status', (id) => client().buyer.status(id)],
    ['options', (id) => client().buyer.options(id, { accounts: [ACCOUNT] })],
    ['fetchActions', (id) => client().buyer.fetchActions(id, { optionId: 'o', data: 'd' })],
    ['confirm', (id) => client().buyer.confirm(id, { optionId: 'o', results: [] })],
    ['cancel', (id) => client().buyer.cancel(id)],
  ];
  it.each(calls)(
    'buyer.%s refuses "", "..", control characters and 256 characters, before sending',
    async (_, call) => {
      const seen: Request[] = [];
      server.use(
        http.all(`${BASE_URL}/*`, ({ request }) => {
          seen.push(request);
          return HttpResponse.json({});
        }),
      );
      for (const id of ['', '..', 'pay\n1', 'p'.repeat(256)]) {
        await refused(call(id), seen, 'paymentId');
      }
    },
  );

  it('percent-encodes an id in the path', async () => {
    const seen = route('get', `${BASE_URL}/v1/gateway/payment/:id`, json(viewBody));
    await gateway().buyer.get('pay/1?x');
    expect(new URL(seen[0]?.url ?? '').pathname).toBe('/v1/gateway/payment/pay%2F1%3Fx');
  });
});
