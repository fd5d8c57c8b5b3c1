import type { HttpHandler } from 'msw';
import type { KnownPaymentStatus, LegacyListPaymentStatus } from '../rules/payments';

export type { KnownPaymentStatus, LegacyListPaymentStatus };
/**
 * A status the mock can give a payment (the documented ones).
 * @deprecated Use `KnownPaymentStatus`: the same type, under the name the main entry gives it
 * (the main entry's `PaymentStatus` is open: it also admits statuses added later).
 */
export type PaymentStatus = KnownPaymentStatus;
/**
 * A status the deprecated list shows and filters on.
 * @deprecated Use `LegacyListPaymentStatus`: the same type under a name no other entry gives to a
 * different thing.
 */
export type ListStatus = LegacyListPaymentStatus;

/** The credentials the mock accepts. */
export interface MockCredentials {
  /** Partner key, sent as `Api-Key`. @default 'wcp_test_mock_partner' */
  apiKey: string;
  /** Legacy service key for the deprecated list, sent as `X-Api-Key`. @default 'lk_test_mock_legacy' */
  legacyApiKey: string;
  /** Public application id, sent as `App-Id` together with `Client-Id`. @default 'app_test_mock' */
  appId: string;
  /** Client id of the app scheme, sent as `Client-Id`. @default 'client_test_mock' */
  clientId: string;
}

/** Options of `createMockGateway`. */
export interface MockGatewayOptions {
  /** Credentials to accept; each one left out keeps its default (see {@link MockCredentials}). */
  credentials?: Partial<MockCredentials>;
  /**
   * Seed of the sample data and of every id the mock hands out: the same seed gives the same
   * merchants, payments and ids.
   * @default 1
   */
  seed?: number;
  /**
   * `pollInMs` the mock tells clients to wait between reads of an open payment, in milliseconds.
   * @default 1000
   */
  pollInMs?: number;
  /**
   * Adds `isFinal` and `pollInMs` to the gateway view, as a newer service would. Off, the view
   * has exactly the interface's fields.
   * @default false
   */
  viewPollHints?: boolean;
  /**
   * Status reads (`GET /v1/payments/{id}/status`, `GET /v1/gateway/payment/{id}/status`) with a
   * `maxPollMs` are held open until the payment's status changes, `maxPollMs` passes (at most
   * 60 s, a cap the contract leaves open), or the payment expires. `false` answers every read at
   * once, like a service that ignores `maxPollMs`.
   * @default true
   */
  holdStatusReads?: boolean;
  /**
   * Moves every open payment one step along the default path (`requires_action` → `processing` →
   * `succeeded`) every this many milliseconds, as `advancePayments()` does, so a pipeline sees
   * payments finish with no control calls. Off when left out. The timer never keeps a process
   * alive; `reset()` restarts its period, and closing the last server of `listen()` stops it
   * (`listen()` again starts it).
   * @example
   * const mock = createMockGateway({ autoAdvanceMs: 500 }); // created → succeeded in about 1 s
   */
  autoAdvanceMs?: number;
  /**
   * How many recorded requests `mock.requests` keeps: the newest, the oldest dropped first, so a
   * long-running mock (a sidecar) does not grow with its traffic. `0` records none.
   * @default 1000
   */
  requestLogSize?: number;
  /**
   * How long a buyer's quote (a payment option) can be confirmed, in milliseconds: its
   * `expiresAt`, never after the payment's own expiry. A confirm later than that is 400
   * `quote_expired`. At most five minutes, as the service quotes.
   * @default 300000
   */
  quoteWindowMs?: number;
  /**
   * Webhook endpoints the mock delivers the service's payment events to from the start (more with
   * `mock.webhooks.add`). Each gets every payment event unless `types` narrows it, signed with its
   * `secret` (one is generated when absent: read it from `mock.webhooks.list()`).
   */
  webhooks?: MockWebhookEndpointInput[];
  /**
   * Scales the service's retry schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the
   * previous attempt): `0.001` runs the 8 attempts in about 100 s, `0.0001` in about 10 s.
   * @default 1
   */
  webhookRetryScale?: number;
  /** How long a receiver has to answer one delivery attempt, in milliseconds. @default 15000 */
  webhookTimeoutMs?: number;
  /**
   * The at-least-once, unordered delivery the service documents, on demand: some events sent
   * twice, some held back so later ones overtake, some never sent. Off by default; deterministic
   * under `seed` (which deliveries are doubled, held or dropped, and for how long).
   */
  webhookChaos?: MockWebhookChaos;
  /**
   * The deliveries the log keeps (`mock.webhooks.deliveries()`): past it the oldest finished one
   * is forgotten, or, when every one is still pending, the oldest pending one is given up. Also
   * the bound of what can wait for delivery, so a receiver that is down never grows the mock
   * without end.
   * @default 10000
   */
  webhookLogSize?: number;
  /**
   * The `fetch` deliveries go through. Deliveries are real HTTP POSTs to each endpoint's URL; give
   * a fetch here to send them elsewhere (an msw-intercepted fetch, a test double).
   * @default globalThis.fetch
   */
  webhookFetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * How long after succeeding a payment settles (`payment.settled`, and the settlement on
   * `payments.details` and the lists), in milliseconds; `0` settles at once.
   * @default 1000
   */
  settleAfterMs?: number;
  /**
   * The fee the service takes of each paid option, shown in the webhook snapshots'
   * `processing.fee` (and taken off `settlement_amount` and `settled.amount`); null by default.
   * @example
   * createMockGateway({ fee: { percent: { numerator: 29, denominator: 1000 } } }) // 2.9 %
   */
  fee?: MockFee | null;
}

/** A fee of the kind `base_plus_percent`: `base` plus `percent` of the option's amount. */
export interface MockFee {
  /** A fixed part, in the paying token's smallest unit. @default 0 */
  base?: string | number | bigint;
  /** A share of the option's amount, e.g. `{ numerator: 29, denominator: 1000 }` for 2.9 %. */
  percent?: { numerator: string | number | bigint; denominator: string | number | bigint };
}

/** A webhook endpoint to register. */
export interface MockWebhookEndpointInput {
  /** Where deliveries are POSTed (`http:` or `https:`). */
  url: string;
  /** The endpoint's `whsec_…` secret. @default one generated for it */
  secret?: string;
  /** The event types it gets, e.g. `['payment.succeeded', 'payment.settled']`. @default every type */
  types?: readonly string[];
}

/** A registered webhook endpoint. */
export interface MockWebhookEndpoint {
  /** `we_…` */
  id: string;
  url: string;
  /** The `whsec_…` secret its deliveries are signed with. */
  secret: string;
  /** The event types it gets; null: every type. */
  types: string[] | null;
}

/** Delivery chaos for testing receivers; every field off when left out. */
export interface MockWebhookChaos {
  /** Share of deliveries sent twice (the second with the same `webhook-id`), 0 to 1. */
  duplicateRate?: number;
  /** Deliveries are held back a random time up to this many milliseconds, so later ones overtake. */
  reorderWindowMs?: number;
  /** Share of deliveries never sent (logged with status `dropped`), 0 to 1. */
  dropRate?: number;
}

/** One attempt of a delivery. */
export interface MockWebhookAttempt {
  /** When it was sent (ISO 8601). */
  at: string;
  /** The receiver's HTTP status, or null when none came (timeout, closed connection). */
  status: number | null;
  /** Why it failed, or null when acknowledged (a 2xx). */
  error: string | null;
  durationMs: number;
}

/** One event's delivery to one endpoint, as the delivery log shows it. */
export interface MockWebhookDelivery {
  /** `dlv_…`: what `mock.webhooks.resend` takes. */
  id: string;
  endpointId: string;
  /** The event's `id` (`evt_…`), the same in every attempt and every duplicate. */
  eventId: string;
  /** The `webhook-id` header: `msg_…`, the same in every attempt of the event. */
  messageId: string;
  type: string;
  paymentId: string;
  paymentStateVersion: number;
  /**
   * `pending` (waiting for its next attempt), `delivered` (a 2xx), `failed` (all 8 attempts
   * failed; resend it), `dropped` (chaos: never sent).
   */
  status: 'pending' | 'delivered' | 'failed' | 'dropped';
  /** A second delivery of the same event sent by chaos. */
  duplicate: boolean;
  /** When the event happened (ISO 8601). */
  createdAt: string;
  /** When the next attempt is due (ISO 8601), or null. */
  nextAttemptAt: string | null;
  attempts: MockWebhookAttempt[];
}

/** The mock's webhook sender: endpoints and the delivery log. */
export interface MockWebhooks {
  /** Registers an endpoint; resolves nothing asynchronously: the returned endpoint holds its secret. */
  add(endpoint: MockWebhookEndpointInput): MockWebhookEndpoint;
  /** Removes an endpoint (its pending deliveries stop); false when unknown. */
  remove(endpointId: string): boolean;
  list(): MockWebhookEndpoint[];
  /** The delivery log, oldest first (copies). */
  deliveries(): MockWebhookDelivery[];
  /**
   * Sends a delivery again from its first attempt (same event id and body; a new schedule), for
   * one that failed, was dropped, or was delivered. Returns it, or undefined for an unknown id.
   */
  resend(deliveryId: string): MockWebhookDelivery | undefined;
  /** Resolves once nothing is pending or in flight (at most `timeoutMs`, default 10 s; false then). */
  idle(timeoutMs?: number): Promise<boolean>;
}

/** EIP-712 typed data as a wallet signs it (`eth_signTypedData_v4`); numbers may be hex strings. */
export interface MockTypedData {
  domain: Record<string, unknown>;
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** A buyer's account that signs EIP-712 typed data: a viem `LocalAccount`, or anything shaped like it. */
export interface MockBuyerAccount {
  /** The account's `0x` address. */
  address: `0x${string}`;
  /** Signs typed data with the account's key; resolves to the 65-byte signature in hex. */
  signTypedData(typedData: MockTypedData): Promise<`0x${string}`>;
}

/** Options of `mock.pay`. */
export interface MockPayOptions {
  /** Who pays. @default the mock's own buyer account (a key generated for this mock) */
  account?: MockBuyerAccount;
  /** Pays on this chain (CAIP-2, e.g. `eip155:8453`). @default the first chain the payment can be paid on */
  chainId?: string;
}

/** What a confirm answers (`ConfirmPaymentResponse`): the payment's status after it. */
export interface MockPayResult {
  status: KnownPaymentStatus;
  isFinal: boolean;
  /** Milliseconds until the payment is worth reading again; absent once final. */
  pollInMs?: number;
  /** Once succeeded: the transaction and the amount paid in token units. */
  info?: {
    txId: string;
    optionAmount: {
      unit: string;
      value: string;
      display: {
        assetSymbol: string;
        assetName: string;
        decimals: number;
        iconUrl?: string | null;
        networkIconUrl?: string | null;
        networkName?: string | null;
      };
    };
  };
}

/** One request the mock received, with credentials masked. */
export interface RecordedRequest {
  method: string;
  /** The full URL, query included. */
  url: string;
  /** The path from `/v1/` on (a base URL prefix such as `/api` is left out); the full path if it has no `/v1/`. */
  path: string;
  /** Query parameters; a repeated one is an array. */
  query: Record<string, string | string[]>;
  /** Lower-cased header names; `api-key`, `x-api-key`, `app-id`, `client-id` and `authorization` read `***`. */
  headers: Record<string, string>;
  /** The JSON body parsed, the raw text if it is not JSON, or `undefined` when empty. */
  body: unknown;
}

/** Which requests a fault applies to; every field left out matches anything. */
export interface FaultMatch {
  /** HTTP method, any case. */
  method?: string;
  /** A substring of, or a pattern tested against, the path from `/v1/` on (query excluded). */
  path?: string | RegExp;
}

/**
 * A fault for the next matching requests, applied before any normal handling (even before auth).
 * Give `status` for an error response, `networkError: true` for a dropped connection, or only
 * `delayMs` for a slow but otherwise normal answer.
 *
 * @example
 * mock.failNext({ status: 429, retryAfter: 2 });                      // rate limited, Retry-After: 2
 * mock.failNext({ status: 502, body: '<html>Bad gateway</html>' });   // a proxy's HTML page
 * mock.failNext({ networkError: true, times: 2, match: { method: 'POST', path: '/v1/payments' } });
 */
export interface FailNextOptions {
  /** HTTP status of the error response. */
  status?: number;
  /**
   * `code` of the JSON error body. @default a code the matched operation's contract names for the
   * status, so the fault looks like the service's own: 400 → 'params_validation', 401 →
   * 'invalid_api_key', 404 → 'not_found', 409 → 'idempotency_conflict' ('already_refunded' on
   * refunds), 429 → 'rate_limited', 500 → 'internal_error', 502 → 'bad_gateway', …; on the payment
   * operations and under `/v1/gateway/`, always a code of the gateway's `ErrorCode` enum (404 →
   * 'payment_not_found', any other 5xx → 'internal_error', another 4xx → 'invalid_params').
   */
  code?: string;
  /** `message` of the JSON error body. @default a sentence naming the status */
  message?: string;
  /** How many matching requests this fault answers. @default 1 */
  times?: number;
  /** Sets `Retry-After`: seconds as a number, or any string (an HTTP date) sent as it is. */
  retryAfter?: number | string;
  /** Body instead of `{ code, message }`: a string is sent as it is (HTML, empty), an object as JSON. */
  body?: string | Record<string, unknown> | unknown[];
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Drop the connection instead of answering. */
  networkError?: boolean;
  /** Wait this long (ms) before failing, or before answering normally when nothing else is set. */
  delayMs?: number;
  match?: FaultMatch;
}

/** A merchant as the mock holds it (a copy; changing it changes nothing). */
export interface MockMerchant {
  id: string;
  name: string;
  email: string;
  status: string;
  iconUrl: string | null;
  createdAt: string;
  /** When it was deleted (ISO 8601); absent while it is live. A deleted merchant reads as 404. */
  deletedAt?: string;
  settlements: {
    crypto: { id: string; asset: string; destination: string }[];
    fiat: { id: string; status: string; bankType: string }[];
  };
}

/** A payment as the mock holds it (a copy), with the status a reader sees now. */
export interface MockPayment {
  id: string;
  merchantId: string;
  referenceId: string;
  status: KnownPaymentStatus;
  createdAt: string;
  lastUpdatedAt: string;
  /** Epoch seconds. */
  expiresAt: number;
  /** Fiat amount: `{ unit: 'iso4217/USD', value: '1250' }` (minor units). */
  amount: { unit: string; value: string };
  /** Token quote: CAIP-19 asset, symbol, CAIP-2 network and value in the smallest unit. */
  token: { asset: string; symbol: string; network: string; value: string };
  buyer: { accountCaip10: string; walletName: string } | null;
  /** When the payment was refunded (ISO 8601), or null: a payment is refunded at most once. */
  refundedAt: string | null;
  /** The preview checkout redirects it was created with, or null (the page then returns to itself). */
  checkout: { successUrl: string; errorUrl: string } | null;
}

/** What `mock.advancePayments` (and `POST /__mock/payments/advance`) moves, and along what. */
export interface MockAdvanceOptions {
  /** The statuses to step along. @default ['requires_action', 'processing', 'succeeded'] */
  path?: readonly KnownPaymentStatus[] | undefined;
  /** Only this merchant's payments. */
  merchantId?: string | undefined;
  /** Only these payments. */
  paymentIds?: readonly string[] | undefined;
}

/** The seeded sample data. */
export interface MockSample {
  seed: number;
  /**
   * The sample merchant: 1,000 payments across the five list statuses, created between 2025-01
   * and 2026-06. Its payments awaiting a buyer expire five years after creation, so the seeded
   * statuses do not change with the clock.
   */
  merchantId: string;
  merchantName: string;
  merchantEmail: string;
  /** Id of the sample merchant's fiat settlement (`status: 'active'`, `bankType: 'sepa'`). */
  fiatSettlementId: string;
  /**
   * The sample merchant's crypto settlements, so its payments can be paid (`mock.pay`, the checkout
   * page's Pay, a wallet): USDC on Base and USDT on Ethereum, each to an address of its own.
   */
  cryptoSettlements: { id: string; asset: string; destination: string }[];
  /** Two more merchants with a few dozen payments each. */
  otherMerchantIds: string[];
  /** Payments of the sample merchant: 1000. */
  paymentCount: number;
  statusCounts: Record<LegacyListPaymentStatus, number>;
  /** Token symbols found in the sample merchant's payments, e.g. USDC, USDT, ETH. */
  tokenSymbols: string[];
  /** CAIP-2 networks found in the sample merchant's payments, e.g. eip155:8453. */
  networks: string[];
  /** ISO 4217 codes of the sample merchant's payments. */
  currencies: string[];
  /** Creation time of the oldest and newest sample payment (ISO 8601). */
  firstCreatedAt: string;
  lastCreatedAt: string;
}

/** Options of `MockGateway.listen`. */
export interface ListenOptions {
  /** TCP port. @default 0 (any free port) */
  port?: number;
  /**
   * Address to bind: `'0.0.0.0'` or `'::'` serve other containers too (the returned `url` then names
   * `127.0.0.1` or `[::1]`). @default '127.0.0.1'
   */
  host?: string;
}

/** The mock served over HTTP by `listen()`. */
export interface MockServer {
  /** Base URL such as `http://127.0.0.1:53120`; pass it as the SDK's `baseUrl`. */
  url: string;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** An in-memory, stateful mock of the whole gateway service. */
export interface MockGateway {
  /** The credentials the mock accepts. */
  readonly credentials: Readonly<MockCredentials>;
  /** The seeded sample merchant and what its data holds (frozen). */
  readonly sample: Readonly<MockSample>;
  /**
   * msw request handlers for any URL with `/v1/` in its path, on any origin: `setupServer(...mock.handlers)`.
   * msw (an optional peer dependency) is loaded on the first read, synchronously: in Node, Bun and
   * Deno. Throws when msw is not installed; where it cannot load synchronously (a browser bundle),
   * use `await mock.loadHandlers()`.
   */
  readonly handlers: HttpHandler[];
  /**
   * The same handlers as `mock.handlers`, with msw loaded by a dynamic `import()`: works in any
   * runtime and bundler. After it resolves, `mock.handlers` reads them synchronously everywhere.
   * @example
   * const worker = setupWorker(...(await mock.loadHandlers()));
   */
  loadHandlers(): Promise<HttpHandler[]>;
  /**
   * The requests received since creation or the last `reset()`, oldest first: the last
   * `requestLogSize` (default 1,000). A body over 64 KiB is recorded as its first 64 KiB of text.
   */
  readonly requests: readonly RecordedRequest[];
  /** A `fetch` answered by the mock itself (no msw, no socket); a network fault rejects with a TypeError. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Serves the mock over real HTTP, on 127.0.0.1 unless `options.host` says otherwise. */
  listen(options?: ListenOptions): Promise<MockServer>;
  /** Back to the seeded state: data, ids, recorded requests and pending faults. */
  reset(): void;
  /**
   * Sets a payment's status, filling buyer and transaction as that status implies (a succeeded
   * payment settles `settleAfterMs` later), and sends its webhook event. Setting the status it
   * already has changes nothing. Throws for an unknown id. A payment set back to `requires_action` after its `expiresAt` still
   * reads as `expired`.
   */
  setPaymentStatus(paymentId: string, status: KnownPaymentStatus): void;
  /**
   * Moves every open payment one step along `path` (a payment whose status is not on it stays),
   * or only those of `merchantId` and/or `paymentIds`. Takes the path alone, or the options
   * (what `POST /__mock/payments/advance` takes). Returns how many moved. Throws for a merchant
   * or a payment id the mock does not know.
   * @default path ['requires_action', 'processing', 'succeeded']
   * @example
   * ```ts
   * mock.advancePayments({ merchantId }); // this merchant's open payments, one step each
   * ```
   */
  advancePayments(pathOrOptions?: readonly KnownPaymentStatus[] | MockAdvanceOptions): number;
  /** Queues a fault for the next matching request(s); faults are consumed first in, first out. */
  failNext(options: FailNextOptions): void;
  /**
   * Pays an open payment in-process as a wallet would over HTTP: options for the account's
   * address, the first option's EIP-712 typed data signed by the account, then the confirm. The
   * payment goes `processing`, then `succeeded` one `pollInMs` later, with the buyer recorded.
   * Resolves with the confirm's answer; rejects with a {@link MockPayError} carrying the service's
   * refusal (`payment_not_found`, `invalid_state`, `payment_expired`, `invalid_params` when the
   * merchant has no crypto settlement in a token the mock quotes, …). Neither recorded in
   * `requests` nor subject to `failNext`.
   * @example
   * import { privateKeyToAccount } from 'viem/accounts';
   * await mock.pay(paymentId); // the mock's own buyer
   * await mock.pay(paymentId, { account: privateKeyToAccount(key) });
   */
  pay(paymentId: string, options?: MockPayOptions): Promise<MockPayResult>;
  /**
   * Sets a merchant's status (`active`, `inactive`, `suspended`, or any other string the service
   * might add), as the service's back office would. Throws for an unknown id.
   */
  setMerchantStatus(merchantId: string, status: string): void;
  /** A copy of one merchant (a deleted one too, with `deletedAt`), or undefined. */
  getMerchant(merchantId: string): MockMerchant | undefined;
  /** Copies of every merchant, deleted ones included (with `deletedAt`). */
  merchants(): MockMerchant[];
  /** A copy of one payment, or undefined. */
  getPayment(paymentId: string): MockPayment | undefined;
  /** Payments of one merchant, or of all merchants, newest first. */
  payments(merchantId?: string): MockPayment[];
  /**
   * The service's webhooks, sent by the mock: endpoints, the delivery log, resends. Deliveries
   * go out whatever serves the mock (msw, `mock.fetch`, `listen()`), through `webhookFetch`.
   */
  readonly webhooks: MockWebhooks;
  /**
   * Stops everything the mock does on its own: webhook deliveries, settlements, expiries and
   * auto-advance (servers from `listen()` close with their own `close()`).
   */
  close(): void;
}
