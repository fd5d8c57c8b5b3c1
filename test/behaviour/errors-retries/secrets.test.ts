import { inspect } from 'node:util';
import fc from 'fast-check';
import {
  ApiError,
  AuthenticationError,
  type ClientOptions,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  type Logger,
  MerchantGateway,
  MerchantGatewayError,
  NotFoundError,
  PaginationError,
  PollTimeoutError,
  RateLimitedError,
  RequestValidationError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { API_KEY, BASE_URL, LEGACY_KEY, renderings, useMsw } from '../../support';
import { paymentItem } from '../../support/list-fixtures';

const APP_ID = 'app_TOPSECRET_app_id';
const CLIENT_ID = 'cli_TOPSECRET_client_id';
const SECRETS = [API_KEY, LEGACY_KEY, APP_ID, CLIENT_ID];

/** Both auth schemes, each with a legacy key too. */
const SCHEMES: [string, ClientOptions][] = [
  ['partner key', { apiKey: API_KEY, legacyApiKey: LEGACY_KEY }],
  ['app id and client id', { appId: APP_ID, clientId: CLIENT_ID, legacyApiKey: LEGACY_KEY }],
];

/** The keys a client holds: the only ones it can know to hide. */
const secretsOf = (options: ClientOptions) =>
  [options.apiKey, options.appId, options.clientId, options.legacyApiKey].filter(
    (s): s is string => s !== undefined,
  );

/** Every URL that reached the network, whatever its host. */
const urls: string[] = [];
let respond: (request: Request) => Response | Promise<Response> = () =>
  new HttpResponse(null, { status: 500 });
useMsw(
  http.all('*', ({ request }) => {
    urls.push(request.url);
    return respond(request);
  }),
);

function capture(): { logger: Logger; text: () => string } {
  const lines: unknown[][] = [];
  const push = (...args: unknown[]) => {
    lines.push(args);
  };
  return {
    logger: { debug: push, info: push, warn: push, error: push },
    text: () =>
      lines.map((args) => args.map((a) => inspect(a, { depth: null })).join(' ')).join('\n'),
  };
}

function expectNoSecret(texts: string[]): void {
  for (const text of texts) {
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  }
}

/** What a hostile or buggy service could do: echo every request header everywhere it can. */
function echo(request: Request): { text: string; deep: unknown; headers: Record<string, string> } {
  const all = Object.fromEntries(request.headers);
  const text = JSON.stringify(all);
  let deep: unknown = all;
  for (let i = 0; i < 40; i++) deep = [deep];
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(all)) headers[`x-echo-${name}`] = value;
  return { text, deep, headers };
}

function echoingError(status: number, code?: string, extra: Record<string, string> = {}) {
  return (request: Request) => {
    const { text, deep, headers } = echo(request);
    return HttpResponse.json(
      {
        code: code ?? text,
        message: `you sent ${text}`,
        details: { [text]: deep, sent: text },
        issues: [{ field: text, message: text }],
      },
      { status, headers: { ...headers, 'x-request-id': text, ...extra } },
    );
  };
}

const ERRORS: [string, new (...args: never[]) => Error, (request: Request) => Response][] = [
  ['AuthenticationError', AuthenticationError, echoingError(401, 'invalid_api_key')],
  ['InvalidRequestError', InvalidRequestError, echoingError(400, 'params_validation')],
  ['NotFoundError', NotFoundError, echoingError(404)],
  ['ConflictError', ConflictError, echoingError(409)],
  [
    'RateLimitedError',
    RateLimitedError,
    echoingError(429, 'rate_limited', { 'retry-after': '3600' }),
  ],
  ['ServerError', ServerError, echoingError(502)],
  ['ApiError', ApiError, echoingError(418)],
  [
    'ResponseValidationError (JSON)',
    ResponseValidationError,
    (request) => {
      const { deep, headers, text } = echo(request);
      return HttpResponse.json({ merchant: { id: text, note: deep } }, { headers });
    },
  ],
  [
    'ResponseValidationError (text)',
    ResponseValidationError,
    (request) => new HttpResponse(`<html>${echo(request).text}</html>`, { status: 200 }),
  ],
];

describe.each(SCHEMES)('with the %s scheme', (_, auth) => {
  const client = (options: ClientOptions = {}) =>
    new MerchantGateway({ baseUrl: BASE_URL, maxRetries: 0, ...auth, ...options });

  test.each(ERRORS)(
    'a %s never shows a key, even when the service echoes every header back',
    async (_, ErrorClass, reply) => {
      respond = reply;
      const log = capture();
      urls.length = 0;
      const error = await client({ logger: log.logger, logLevel: 'debug' })
        .merchants.get('mer_1')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(urls).toHaveLength(1);
      expectNoSecret([...renderings(error), log.text(), ...urls]);
      // The scrubbed error still says what went wrong.
      expect((error as Error).message).toMatch(/^GET \/v1\/merchants\/mer_1 →/);
    },
  );

  test('a ConnectionError never shows a key, even when the fetch error quotes the headers', async () => {
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      const sent = JSON.stringify(Object.fromEntries(request.headers));
      const cause = Object.assign(new Error(`proxy refused ${sent}`), {
        code: 'ECONNRESET',
        request: sent,
      });
      throw new TypeError(`fetch failed for ${sent}`, { cause });
    };
    const log = capture();
    const error = await client({ fetch, logger: log.logger, logLevel: 'debug' })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expectNoSecret([...renderings(error), log.text()]);
    // What the cause said survives, keys aside: the reason a connection failed matters.
    const text = inspect(error, { depth: null });
    expect(text).toContain('ECONNRESET');
    expect(text).toContain('proxy refused');
  });

  test('a TimeoutError never shows a key', async () => {
    respond = () => new Promise<Response>(() => {});
    const log = capture();
    const error = await client({ timeoutMs: 20, logger: log.logger, logLevel: 'debug' })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expectNoSecret([...renderings(error), log.text()]);
  });

  test('retries are logged without a key', async () => {
    let n = 0;
    respond = (request) =>
      ++n === 1
        ? echoingError(429, 'rate_limited', { 'retry-after-ms': '1' })(request)
        : echoingError(503)(request);
    const log = capture();
    await client({ maxRetries: 1, logger: log.logger, logLevel: 'debug' })
      .merchants.get('mer_1', { timeoutMs: 1_000 })
      .catch((e: unknown) => e);
    expect(log.text()).toContain('retry 1 of 1');
    expectNoSecret([log.text()]);
  });
});

describe('a ConnectionError whatever its fetch throws', () => {
  const client = (fetch: () => Promise<Response>) =>
    new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY, maxRetries: 0, fetch });

  test.each<[string, () => unknown]>([
    ['a string', () => `refused ${API_KEY}`],
    [
      'a plain object that refers to itself',
      () => {
        const thrown: Record<string, unknown> = { reason: `refused ${API_KEY}` };
        thrown.self = thrown;
        return thrown;
      },
    ],
    [
      'an error whose cause chain loops',
      () => {
        const error = new Error(`refused ${API_KEY}`);
        error.cause = error;
        return error;
      },
    ],
  ])('shows no key when fetch throws %s', async (_, thrown) => {
    const error = await client(async () => {
      throw thrown();
    })
      .merchants.get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expectNoSecret(renderings(error));
    expect(inspect(error, { depth: null })).toContain('refused ***');
  });
});

describe('a PaginationError', () => {
  test.each(SCHEMES)(
    'never shows a key, even when the service hands one back as a repeating cursor (%s)',
    async (_, auth) => {
      const secret = secretsOf(auth)[0] as string;
      respond = () =>
        HttpResponse.json({
          data: [paymentItem(1)],
          nextCursor: `cursor-${secret}`,
          stats: { totalRevenue: [], totalTransactions: 1, totalCustomers: 1 },
        });
      const log = capture();
      const client = new MerchantGateway({
        baseUrl: BASE_URL,
        merchantId: 'mer_1',
        logger: log.logger,
        logLevel: 'debug',
        ...auth,
      });
      const error = await (async () => {
        for await (const _ of client.payments.list()) {
          // walk every page
        }
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaginationError);
      expectNoSecret([...renderings(error), log.text()]);
      expect((error as PaginationError).cursor).toBe('cursor-***');
    },
  );
});

describe('a PollTimeoutError', () => {
  test.each(SCHEMES)(
    'never shows a key, even when the last status read echoes one (%s)',
    async (_, auth) => {
      const secret = secretsOf(auth)[0] as string;
      respond = () =>
        HttpResponse.json({
          status: `pending-${secret}`,
          isFinal: false,
          failureCode: `code-${secret}`,
          info: {
            txId: `tx ${secret}`,
            optionAmount: {
              unit: 'caip19/eip155:1/erc20:0xabc',
              value: '1',
              display: { assetName: secret, assetSymbol: 'X', decimals: 6 },
            },
          },
        });
      const log = capture();
      const client = new MerchantGateway({
        baseUrl: BASE_URL,
        logger: log.logger,
        logLevel: 'debug',
        ...auth,
      });
      const error = await client.payments
        .waitForFinal('pay_1', { timeoutMs: 150, intervalMs: 100 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PollTimeoutError);
      expectNoSecret([...renderings(error), log.text()]);
      expect((error as PollTimeoutError).lastStatus?.info?.txId).toBe('tx ***');
    },
  );
});

describe('a RequestValidationError never shows a key', () => {
  test.each([
    ['apiKey', { apiKey: `${API_KEY}\r\nX-Injected: 1` }],
    ['appId', { appId: `${APP_ID}\n`, clientId: CLIENT_ID }],
    ['clientId', { appId: APP_ID, clientId: `${CLIENT_ID}é` }],
  ])('when the %s itself is malformed', async (_, options) => {
    urls.length = 0;
    const log = capture();
    const error = await new MerchantGateway({
      baseUrl: BASE_URL,
      logger: log.logger,
      logLevel: 'debug',
      ...options,
    }).merchants
      .get('mer_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(urls).toHaveLength(0);
    expectNoSecret([...renderings(error), log.text()]);
  });
});

describe('a ConfigurationError never shows a key', () => {
  test.each<[string, ClientOptions]>([
    ['an http base URL off loopback', { baseUrl: 'http://gateway.test', apiKey: API_KEY }],
    ['two schemes at once', { apiKey: API_KEY, appId: APP_ID, clientId: CLIENT_ID }],
    ['an app id without a client id', { appId: APP_ID }],
    ['a bad timeout', { apiKey: API_KEY, legacyApiKey: LEGACY_KEY, timeoutMs: -1 }],
    ['a bad log level', { apiKey: API_KEY, logLevel: API_KEY as never }],
  ])('for %s', (_, options) => {
    let error: unknown;
    try {
      new MerchantGateway({ baseUrl: BASE_URL, ...options });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expectNoSecret(renderings(error));
  });

  test('for a secret key in a browser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY })).toThrow(
      ConfigurationError,
    );
    try {
      new MerchantGateway({ baseUrl: BASE_URL, apiKey: API_KEY });
    } catch (error) {
      expectNoSecret(renderings(error));
    }
  });
});

describe('the client shows no key', () => {
  test.each(SCHEMES)(
    'with the %s scheme, in JSON, inspect, its resources or withOptions',
    (_, auth) => {
      const client = new MerchantGateway({ baseUrl: BASE_URL, ...auth });
      const derived = client.withOptions({ timeoutMs: 5 });
      expectNoSecret([
        JSON.stringify(client),
        inspect(client, { depth: null, showHidden: true }),
        inspect(derived, { depth: null, showHidden: true }),
        String(client),
        ...Object.values(client).map((v) => inspect(v, { depth: null, showHidden: true })),
        JSON.stringify(Object.values(client)),
      ]);
    },
  );
});

describe('wherever a response hides a key', () => {
  /** A client, and a JSON value with one of its keys planted at a random depth, as a value, a property name or inside text. */
  const planted = fc
    .tuple(
      fc.constantFrom(...SCHEMES.map(([, options]) => options)),
      fc.jsonValue({ maxDepth: 3 }),
      fc.nat(),
      fc.constantFrom('value', 'name', 'text'),
      fc.integer({ min: 0, max: 60 }),
    )
    .map(([options, noise, pick, how, depth]) => {
      const secrets = secretsOf(options);
      const secret = secrets[pick % secrets.length] as string;
      let value: unknown =
        how === 'value' ? secret : how === 'name' ? { [secret]: noise } : `…${secret}…`;
      for (let i = 0; i < depth; i++) value = i % 2 ? [value, noise] : { k: value, noise };
      return { options, value };
    });

  test('no error rendering or log line shows it, whatever the status', async () => {
    await fc.assert(
      fc.asyncProperty(
        planted,
        fc.integer({ min: 200, max: 599 }).filter((s) => ![204, 205, 304].includes(s)),
        fc.boolean(),
        async ({ options, value }, status, asError) => {
          const body = JSON.stringify(
            asError ? { code: 'x', message: 'y', details: { value } } : value,
          );
          respond = () =>
            new HttpResponse(body, { status, headers: { 'content-type': 'application/json' } });
          const log = capture();
          const outcome = await new MerchantGateway({
            baseUrl: BASE_URL,
            maxRetries: 0,
            logger: log.logger,
            logLevel: 'debug',
            ...options,
          }).payments
            .get('pay_1')
            .catch((e: unknown) => e);
          expect(outcome).toBeInstanceOf(MerchantGatewayError);
          expectNoSecret([...renderings(outcome), log.text()]);
        },
      ),
      { numRuns: 120 },
    );
    // 120 exchanges over the mock's sockets, under a loaded suite.
  }, 20_000);
});
