import { type KnownPaymentStatus, PAYMENT_STATUSES } from '../rules/payments';
import { MockPayError } from './pay-error';
import { createHandlers, importMsw, requireMsw } from './serve/msw';
import { listen } from './serve/node-http';
import { checkoutOf } from './service/buyer/checkout';
import { MOCK_WALLET, mockAccount, payAs } from './service/buyer/mock-buyer';
import { AutoAdvance } from './service/control/auto-advance';
import { checkFault } from './service/http/fault-responses';
import { isNetworkError, ServiceError } from './service/http/responses';
import { handle } from './service/http/router';
import { changeStatus } from './service/resources/lifecycle';
import { merchantJson, settlementsJson } from './service/resources/merchants';
import { refundedAt } from './service/resources/payment-actions';
import { notifyStatusChange } from './service/resources/status-waiters';
import {
  accountOn,
  isFinalStatus,
  isoTime,
  type PaymentRecord,
  statusAt,
  updatedAt,
} from './state/records';
import { Store } from './state/store';
import type {
  MockAdvanceOptions,
  MockCredentials,
  MockGateway,
  MockGatewayOptions,
  MockMerchant,
  MockPayment,
} from './types';
import { WebhookSender } from './webhooks/sender';

const DEFAULT_CREDENTIALS: MockCredentials = {
  apiKey: 'wcp_test_mock_partner',
  legacyApiKey: 'lk_test_mock_legacy',
  appId: 'app_test_mock',
  clientId: 'client_test_mock',
};

/** How many recorded requests `mock.requests` keeps unless `requestLogSize` says otherwise. */
export const DEFAULT_REQUEST_LOG_SIZE = 1000;

/** A succeeded payment settles this long after success unless `settleAfterMs` says otherwise. */
export const DEFAULT_SETTLE_AFTER_MS = 1000;

const DEFAULT_PATH: readonly KnownPaymentStatus[] = ['requires_action', 'processing', 'succeeded'];

/**
 * Creates an in-memory, stateful mock of the whole gateway service, seeded with a sample merchant
 * that has 1,000 payments. Serve it with msw (`mock.handlers`), over HTTP (`mock.listen()`), or
 * call `mock.fetch` directly.
 *
 * Where the service's contract is silent, the mock chooses (and a client should accept either):
 * - `DELETE /v1/merchants/{id}` is a soft delete: the merchant leaves `GET /v1/merchants`, and
 *   reading, updating it or its settlements answers 404 `not_found`; a payment for it is 400
 *   `merchant_not_found` (the contract declares no 404 on payment creation). Deleting it again answers 200 `{ id, deleted: true }`. Its payments stay
 *   in the payment lists (history to reconcile). `mock.getMerchant` still shows it, with `deletedAt`.
 * - `PUT …/settlements/crypto/{id}` with a destination on another chain than the asset's answers
 *   400 `params_validation` with an issue on `destination`.
 * - `DELETE …/settlements/crypto/{id}` removes the settlement: deleting it again is 404 `not_found`.
 * - `GET /v1/merchants` lists newest first (creation time, then id); `search` matches a
 *   case-insensitive substring of the name or the id.
 * - `GET /v1/payments` with `merchantId` ids the partner does not have matches nothing (no error);
 *   without one it lists every merchant's payments (the mock has one partner).
 * - Both replacement lists show and filter on `cancelled` (as the 2026-02-19 contract); the
 *   deprecated list shows a cancelled payment as `failed` and refuses `status=cancelled`.
 * - Status reads with `maxPollMs` are held until the payment's status changes, `maxPollMs` passes
 *   (at most 60 s), or the payment expires; `holdStatusReads: false` answers at once. `maxPollMs`
 *   absent or 0 answers at once; a value that is not a whole number >= 0 is 400 `params_validation`.
 * - Once final, `pollInMs` is `null` on `GET /v1/payments/{id}/status` and absent on
 *   `GET /v1/gateway/payment/{id}/status` (both forms the contract allows).
 * - Details: `failureCode: 'declined_user'` once failed; `info` (`txId`, `optionAmount` in token
 *   units) once succeeded; `settlement` null before success, `{ successful: null }` before the
 *   payout, `{ successful: { txId, amount: { unit } } }` after it (no `value`, as published).
 * - Another merchant's payment is 404 `payment_not_found` (refunds: 404 `not_found`); a missing
 *   `Merchant-Id` on details, status, cancel, refunds or the merchant's list is 401
 *   `missing_merchant_id`.
 * - Auth: 401 `missing_api_key` or `invalid_api_key`, the codes the contract names. `App-Id` with
 *   `Client-Id` is taken by the gateway reads only (`/v1/gateway/…`); elsewhere those headers are
 *   no credentials. `PUT`/`DELETE …/settlements/crypto/{id}` declare no 401: they answer the
 *   merchant API's.
 * - `WCP-Version` is checked (400 `unknown_api_version`) only where an operation takes it;
 *   merchant management ignores it. `2026-02-18` and `2026-02-19.preview` are known; to a client
 *   that sent `2026-02-18` both replacement lists show a cancelled payment as `failed` and refuse
 *   `status=cancelled`, as that version's list enum has no `cancelled`; without the header they
 *   show the preview's six statuses.
 * - A non-ASCII header value is 400 `header_not_ascii` on the payment operations (their shared
 *   code list has it); merchant management names no such code and takes the value as it is.
 * - Cancelling a final payment is 400 `invalid_state`; a cancel records `cancelledReason:
 *   'cancelled_by_merchant'`; the same Idempotency-Key replays the first answer.
 * - A refund checks the `paymentId` pattern (400), the payment (404), an earlier refund (409
 *   `already_refunded`), then its status (400 `payment_not_succeeded`), in that order.
 * - Over real HTTP it also serves a control API under `/__mock/` and a checkout page at each
 *   `gatewayUrl` (see the README); neither is recorded in `mock.requests` nor takes a queued fault.
 *   The page's Pay moves a payment to `processing`, then `succeeded` one `pollInMs` later.
 * - The buyer's half (`/v1/gateway/payment/{id}/options`, `fetch`, `confirm`, `cancel`): options
 *   per account and crypto settlement on the account's chain (none for a merchant without one;
 *   the sample merchant has USDC on Base and USDT on Ethereum), quotes for `quoteWindowMs`, 400
 *   `invalid_params` for an unknown option
 *   or a bad signature, and only `ErrorCode` values under `/v1/gateway/`: docs/testing.md has them all.
 *   The checkout page's Pay goes through the same confirm, and it refuses cross-origin posts.
 * - Webhooks (`webhooks`, `mock.webhooks`): one event per change of a payment created while the
 *   mock runs, the service's envelope and test-mode snapshot (`live: false`, transaction id
 *   `test:{paymentId}`, on the REST side too); a succeeded payment settles `settleAfterMs` (1 s)
 *   later; a move back to `requires_action` sends no event; endpoints survive `reset()`.
 * - `checkout` (2026-02-19.preview) is taken only with `WCP-Version: 2026-02-19.preview`, as https
 *   URLs or http on loopback; the page sends the buyer to `successUrl` after Pay, to `errorUrl`
 *   after Decline or Cancel; its browser wallet checkout, once the payment is final, to
 *   `successUrl` after succeeded and to `errorUrl` after any other end.
 *
 * @example
 * const mock = createMockGateway();
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const res = await fetch('https://gateway.test/v1/merchants/payments', {
 *   headers: { 'Api-Key': mock.credentials.apiKey, 'Merchant-Id': mock.sample.merchantId },
 * });
 */
export function createMockGateway(options: MockGatewayOptions = {}): MockGateway {
  // A credential given as undefined (from plain JavaScript) keeps its default.
  const given = Object.entries(options.credentials ?? {}).filter(
    ([, value]) => value !== undefined,
  );
  const credentials: MockCredentials = Object.freeze({
    ...DEFAULT_CREDENTIALS,
    ...Object.fromEntries(given),
  });
  const store = new Store(options.seed ?? 1, {
    credentials,
    pollInMs: options.pollInMs ?? 1000,
    viewPollHints: options.viewPollHints ?? false,
    holdStatusReads: options.holdStatusReads ?? true,
    requestLogSize: requestLogSize(options.requestLogSize),
    quoteWindowMs: quoteWindowMs(options.quoteWindowMs),
    settleAfterMs: settleAfterMs(options.settleAfterMs),
    fee: options.fee ?? null,
  });
  const webhooks = new WebhookSender({
    seed: options.seed ?? 1,
    retryScale: options.webhookRetryScale,
    timeoutMs: options.webhookTimeoutMs,
    chaos: options.webhookChaos,
    logSize: options.webhookLogSize,
    fetch: options.webhookFetch,
  });
  for (const endpoint of options.webhooks ?? []) webhooks.add(endpoint);
  store.events = webhooks;
  const findPayment = (id: string): PaymentRecord => {
    const payment = store.payments.get(id);
    if (!payment) throw new Error(`Mock gateway has no payment ${id}`);
    return payment;
  };
  // Built on first read, so msw loads only for those who serve the mock with it.
  let handlers: ReturnType<typeof createHandlers> | undefined;
  const autoAdvance = new AutoAdvance(options.autoAdvanceMs, () => mock.advancePayments());
  let openServers = 0;

  const mock: MockGateway = {
    credentials,
    sample: store.sample,
    get handlers() {
      if (handlers) return handlers;
      const msw = requireMsw();
      if (!msw) {
        throw new Error(
          'mock.handlers cannot load msw synchronously in this runtime: call `await mock.loadHandlers()` instead',
        );
      }
      handlers = createHandlers(msw, store);
      return handlers;
    },
    async loadHandlers() {
      handlers ??= createHandlers(await importMsw(), store);
      return handlers;
    },
    get requests() {
      return store.requests;
    },
    async fetch(input, init) {
      const request = new Request(input, init);
      const result = await handle(store, request);
      // Like fetch: an abort rejects with the signal's reason, a dropped connection with a TypeError.
      request.signal.throwIfAborted();
      if (isNetworkError(result)) throw new TypeError('fetch failed (mock gateway network error)');
      return result;
    },
    async listen(listenOptions) {
      const server = await listen(store, listenOptions, mock);
      if (openServers++ === 0 && !autoAdvance.running) autoAdvance.start();
      let closed = false;
      return {
        url: server.url,
        async close() {
          await server.close();
          // A mock no longer served stops changing; listen() or reset() starts it again.
          if (!closed && --openServers === 0) autoAdvance.stop();
          closed = true;
        },
      };
    },
    reset() {
      store.reset();
      webhooks.reset();
      // Reads held on the payments that were are answered: what they waited on is gone.
      notifyStatusChange(store);
      autoAdvance.start();
    },
    webhooks,
    close() {
      autoAdvance.stop();
      store.stopTimers();
      webhooks.close();
    },
    setPaymentStatus(paymentId, status) {
      if (!PAYMENT_STATUSES.includes(status))
        throw new TypeError(`Unknown payment status ${status}`);
      changeStatus(store, findPayment(paymentId), status, Date.now());
    },
    advancePayments(pathOrOptions = {}) {
      const options = Array.isArray(pathOrOptions)
        ? { path: pathOrOptions as readonly KnownPaymentStatus[] }
        : (pathOrOptions as MockAdvanceOptions);
      const { path = DEFAULT_PATH, merchantId, paymentIds } = options;
      if (path.length < 2 || path.some((s) => !PAYMENT_STATUSES.includes(s))) {
        throw new TypeError('advancePayments: path needs two or more known statuses');
      }
      if (merchantId !== undefined && !store.merchants.has(merchantId)) {
        throw new TypeError(`advancePayments: no merchant ${merchantId}`);
      }
      const unknown = paymentIds?.find((id) => !store.payments.has(id));
      if (unknown !== undefined) throw new TypeError(`advancePayments: no payment ${unknown}`);
      const chosen = paymentIds === undefined ? undefined : new Set(paymentIds);
      const now = Date.now();
      let moved = 0;
      for (const payment of store.payments.values()) {
        if (merchantId !== undefined && payment.merchantId !== merchantId) continue;
        if (chosen !== undefined && !chosen.has(payment.id)) continue;
        const status = statusAt(payment, now);
        const step = path.indexOf(status);
        const next = path[step + 1];
        if (isFinalStatus(status) || step === -1 || next === undefined) continue;
        changeStatus(store, payment, next, now);
        moved++;
      }
      return moved;
    },
    failNext(fault) {
      checkFault(fault);
      store.faults.push({ options: { ...fault }, remaining: fault.times ?? 1 });
    },
    async pay(paymentId, payOptions = {}) {
      const account = payOptions.account ?? (await mockAccount(store));
      try {
        return await payAs(store, paymentId, account, MOCK_WALLET, payOptions.chainId);
      } catch (error) {
        if (error instanceof ServiceError)
          throw new MockPayError(error.status, error.code, error.message);
        throw error;
      }
    },
    setMerchantStatus(merchantId, status) {
      const merchant = store.merchants.get(merchantId);
      if (!merchant) throw new Error(`Mock gateway has no merchant ${merchantId}`);
      if (typeof status !== 'string' || status === '')
        throw new TypeError('setMerchantStatus: status must be a non-empty string');
      merchant.status = status;
    },
    getMerchant(merchantId) {
      const merchant = store.merchants.get(merchantId);
      return merchant && merchantView(merchant);
    },
    merchants: () => [...store.merchants.values()].map(merchantView),
    getPayment(paymentId) {
      const payment = store.payments.get(paymentId);
      return payment && paymentView(payment, Date.now());
    },
    payments(merchantId) {
      const now = Date.now();
      return [...store.payments.values()]
        .filter((p) => merchantId === undefined || p.merchantId === merchantId)
        .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
        .map((p) => paymentView(p, now));
    },
  };
  autoAdvance.start();
  return mock;
}

/** The longest quote the service gives: five minutes. */
const MAX_QUOTE_WINDOW_MS = 300_000;

/** The quote window: 1 ms to five minutes, five minutes when not given. */
function quoteWindowMs(ms: number | undefined): number {
  if (ms === undefined) return MAX_QUOTE_WINDOW_MS;
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > MAX_QUOTE_WINDOW_MS) {
    throw new RangeError(
      `quoteWindowMs must be a whole number from 1 to ${MAX_QUOTE_WINDOW_MS}, got ${ms}`,
    );
  }
  return ms;
}

/** How long after success a payment settles: 0 (at once) up to a timer's longest wait. */
function settleAfterMs(ms: number | undefined): number {
  if (ms === undefined) return DEFAULT_SETTLE_AFTER_MS;
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > 2_147_483_647) {
    throw new RangeError(`settleAfterMs must be a whole number from 0 to 2147483647, got ${ms}`);
  }
  return ms;
}

/** The size of the request log: a whole number, 1,000 when not given. */
function requestLogSize(size: number | undefined): number {
  if (size === undefined) return DEFAULT_REQUEST_LOG_SIZE;
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new RangeError(`requestLogSize must be a whole number >= 0, got ${size}`);
  }
  return size;
}

function merchantView(merchant: Parameters<typeof merchantJson>[0]): MockMerchant {
  const { deletedAt } = merchant;
  return {
    ...merchantJson(merchant),
    settlements: settlementsJson(merchant),
    ...(deletedAt === undefined ? {} : { deletedAt: isoTime(deletedAt) }),
  };
}

function paymentView(payment: PaymentRecord, now: number): MockPayment {
  const { token, buyer } = payment;
  const refundTime = refundedAt(payment);
  return {
    id: payment.id,
    merchantId: payment.merchantId,
    referenceId: payment.referenceId,
    status: statusAt(payment, now),
    createdAt: isoTime(payment.createdAt),
    lastUpdatedAt: isoTime(updatedAt(payment, now)),
    expiresAt: payment.expiresAt,
    amount: { unit: `iso4217/${payment.currency}`, value: payment.fiatMinor.toString() },
    token: {
      asset: token.asset,
      symbol: token.symbol,
      network: token.network.id,
      value: payment.tokenValue.toString(),
    },
    buyer: buyer && {
      accountCaip10: accountOn(payment, buyer.address),
      walletName: buyer.wallet.name,
    },
    refundedAt: refundTime === undefined ? null : isoTime(refundTime),
    checkout: checkoutOf(payment) ?? null,
  };
}
