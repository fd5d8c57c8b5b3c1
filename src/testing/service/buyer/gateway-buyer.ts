/**
 * The buyer's half of the Gateway API: `POST /v1/gateway/payment/{id}/options`, `…/fetch`,
 * `…/confirm` and `…/cancel`, as a wallet (or a PSP's checkout backend) calls them. The checkout
 * page and `mock.pay()` go through the same `confirmQuote` (`mock-buyer.ts`).
 */

import { BUYER_ACCOUNTS_PER_CALL, OPTION_ID_LENGTH } from '../../../rules/buyer-inputs';
import { isCaip10AccountId } from '../../../rules/settlements';
import { ICONS_BASE, type Wallet } from '../../state/catalog';
import { testTxId } from '../../state/events';
import { isFinalStatus, isoTime, type PaymentRecord, statusAt } from '../../state/records';
import type { Store } from '../../state/store';
import { jsonObjectBody, type RequestContext, throwIfIssues } from '../http/request-context';
import { type Issue, json, ServiceError } from '../http/responses';
import { changeStatus } from '../resources/lifecycle';
import { findPayment, paymentViewJson, tokenAmountJson } from '../resources/payments';
import { hold, maxPollMs } from '../resources/status-polling';
import { signedBy } from './buyer-crypto';
import {
  dropQuotes,
  findQuote,
  isSpent,
  optionJson,
  type Quote,
  quoteOptions,
  signAction,
  spend,
  typedDataOf,
} from './buyer-quotes';

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** `optionId` of fetch and confirm: a string of at most the contract's 2^16 characters. */
function checkOptionId(optionId: unknown, issues: Issue[]): void {
  if (typeof optionId !== 'string' || optionId.length > OPTION_ID_LENGTH.max) {
    issues.push({
      field: 'optionId',
      message: `is required: a string of at most ${OPTION_ID_LENGTH.max}`,
    });
  }
}

/** POST /v1/gateway/payment/{id}/options[?includePaymentInfo=true] */
export function getPaymentOptions(ctx: RequestContext): Response {
  const payment = findPayment(ctx.store, ctx.params[0] ?? '');
  const includeInfo = booleanQuery(ctx, 'includePaymentInfo');
  const body = jsonObjectBody(ctx);
  const issues: Issue[] = [];
  const { accounts, refresh } = body;
  if (
    !Array.isArray(accounts) ||
    accounts.length < BUYER_ACCOUNTS_PER_CALL.min ||
    accounts.length > BUYER_ACCOUNTS_PER_CALL.max ||
    !accounts.every((a) => typeof a === 'string' && isCaip10AccountId(a))
  ) {
    issues.push({
      field: 'accounts',
      message: `must be ${BUYER_ACCOUNTS_PER_CALL.min} to ${BUYER_ACCOUNTS_PER_CALL.max} CAIP-10 account ids`,
    });
  }
  if (
    refresh !== undefined &&
    refresh !== null &&
    !(Array.isArray(refresh) && refresh.every((r) => typeof r === 'string'))
  ) {
    issues.push({ field: 'refresh', message: 'must be an array of option ids or null' });
  }
  throwIfIssues(issues);
  // Every call quotes afresh, so `refresh` (the options to re-quote) needs nothing more.
  const quotes = quoteOptions(ctx.store, payment, accounts as string[], ctx.now);
  return json(200, {
    options: quotes.map((quote) => optionJson(quote, ctx.store.config.pollInMs)),
    ...(includeInfo ? { info: paymentViewJson(ctx.store, payment, ctx.now) } : {}),
  });
}

/** POST /v1/gateway/payment/{id}/fetch: the `walletRpc` actions a `build` action stands for. */
export function fetchPaymentActions(ctx: RequestContext): Response {
  const payment = findPayment(ctx.store, ctx.params[0] ?? '');
  const body = jsonObjectBody(ctx);
  const issues: Issue[] = [];
  checkOptionId(body.optionId, issues);
  if (typeof body.data !== 'string')
    issues.push({ field: 'data', message: 'is required: a string' });
  throwIfIssues(issues);
  checkOpen(payment, ctx.now);
  const quote = liveQuote(payment, body.optionId as string, ctx.now);
  // The official wallet SDK sends `data: ""` when it holds no options of its own: the option's
  // actions are then what it asks for, whatever kind they are.
  if (body.data !== '' && body.data !== quote.build) {
    throw new ServiceError(
      400,
      'invalid_params',
      `data is not a build payload of option ${quote.id}`,
    );
  }
  return json(200, { actions: [signAction(quote)] });
}

/** POST /v1/gateway/payment/{id}/confirm[?maxPollMs=N] */
export async function confirmPayment(ctx: RequestContext): Promise<Response> {
  const payment = findPayment(ctx.store, ctx.params[0] ?? '');
  maxPollMs(ctx); // a bad one is refused before anything is confirmed
  const body = jsonObjectBody(ctx);
  const issues: Issue[] = [];
  checkOptionId(body.optionId, issues);
  if (!Array.isArray(body.results)) {
    issues.push({ field: 'results', message: 'is required: an array of { type, data }' });
  }
  const { collectedData } = body;
  if (
    collectedData !== undefined &&
    collectedData !== null &&
    (typeof collectedData !== 'object' ||
      !Array.isArray((collectedData as { fields?: unknown }).fields))
  ) {
    issues.push({ field: 'collectedData', message: 'must be { fields: [{ id, value }] } or null' });
  }
  throwIfIssues(issues);
  await confirmQuote(ctx.store, payment, body.optionId as string, body.results as unknown[], {
    name: sdkName(ctx.request.headers),
    iconUrl: `${ICONS_BASE}/wallets/wallet.png`,
  });
  await hold(ctx, payment);
  return json(200, confirmationJson(ctx.store, payment));
}

/** POST /v1/gateway/payment/{id}/cancel: the buyer walks away from an open payment. */
export function cancelPaymentAsBuyer(ctx: RequestContext): Response {
  const payment = findPayment(ctx.store, ctx.params[0] ?? '');
  checkOpen(payment, ctx.now);
  changeStatus(ctx.store, payment, 'cancelled', ctx.now, { reason: 'cancelled_by_user' });
  dropQuotes(payment);
  return json(200, {
    paymentId: payment.id,
    status: 'cancelled',
    cancelledReason: 'cancelled_by_user',
    cancelledAt: isoTime(ctx.now),
  });
}

/**
 * Confirms a quote: the payment must still be open, the option known and unexpired, and each
 * result's signature must recover under EIP-712 to the option's account. Then the buyer, the
 * token and the transaction are recorded, the payment goes `processing`, and `succeeded` one
 * `pollInMs` later. Any refusal leaves the payment as it was.
 */
export async function confirmQuote(
  store: Store,
  payment: PaymentRecord,
  optionId: string,
  results: readonly unknown[],
  wallet: Wallet,
): Promise<void> {
  checkOpen(payment, Date.now());
  const quote = liveQuote(payment, optionId, Date.now());
  const signature = signatureOf(results);
  checkUnspent(store, quote);
  if (!(await signedBy(typedDataOf(quote), signature, quote.address))) {
    throw new ServiceError(
      400,
      'invalid_params',
      `results[0].data[0] is not a signature of option ${quote.id}'s typed data by ${quote.address}`,
    );
  }
  // Checked again after the awaits: of two confirms racing, only the first pays.
  const now = Date.now();
  checkOpen(payment, now);
  if (store.payments.get(payment.id) !== payment) throw paymentGone(payment.id);
  checkUnspent(store, quote);
  spend(store, quote);
  payment.token = quote.token;
  payment.tokenValue = quote.value;
  payment.buyer = { address: quote.address, wallet };
  // Test mode: no chain transaction happens, the service gives the synthetic id `test:{paymentId}`.
  payment.tx = { hash: testTxId(payment.id), nonce: store.rng.int(0, 5000) };
  changeStatus(store, payment, 'processing', now);
  dropQuotes(payment);
  store.later(store.config.pollInMs, () => {
    // A reset() in between replaced the record; a control call may have moved it on already.
    if (store.payments.get(payment.id) !== payment || payment.status !== 'processing') return;
    changeStatus(store, payment, 'succeeded', Date.now());
  });
}

/** `ConfirmPaymentResponse`: `pollInMs` while not final, `info` once succeeded. */
export function confirmationJson(store: Store, payment: PaymentRecord) {
  const status = statusAt(payment, Date.now());
  const final = isFinalStatus(status);
  return {
    status,
    isFinal: final,
    ...(final ? {} : { pollInMs: store.config.pollInMs }),
    ...(status === 'succeeded' && payment.tx
      ? { info: { txId: payment.tx.hash, optionAmount: tokenAmountJson(payment) } }
      : {}),
  };
}

/** 400 unless the payment awaits its buyer: `payment_expired` once expired, else `invalid_state`. */
export function checkOpen(payment: PaymentRecord, now: number): void {
  const status = statusAt(payment, now);
  if (status === 'requires_action') return;
  if (status === 'expired') {
    throw new ServiceError(400, 'payment_expired', `Payment ${payment.id} has expired`);
  }
  throw new ServiceError(
    400,
    'invalid_state',
    `Payment ${payment.id} is ${status}: it no longer takes a buyer's action`,
  );
}

/** The option, or 400 `invalid_params` (unknown) / `quote_expired` (past its `expiresAt`). */
function liveQuote(payment: PaymentRecord, optionId: string, now: number): Quote {
  const quote = findQuote(payment, optionId);
  if (!quote) {
    throw new ServiceError(
      400,
      'invalid_params',
      `Unknown option ${optionId.slice(0, 100)} for payment ${payment.id}: ask for options again`,
    );
  }
  if (now > quote.expiresAtMs) {
    throw new ServiceError(
      400,
      'quote_expired',
      `Option ${quote.id} expired at ${isoTime(quote.expiresAtMs)}: ask for options again`,
    );
  }
  return quote;
}

/** The one signature the option's one action asks for: `results: [{ type: 'walletRpc', data: [signature] }]`. */
function signatureOf(results: readonly unknown[]): `0x${string}` {
  const [first] = results;
  const data = (first as { type?: unknown; data?: unknown } | undefined)?.data;
  const signature = Array.isArray(data) ? data[0] : undefined;
  if (
    results.length !== 1 ||
    (first as { type?: unknown }).type !== 'walletRpc' ||
    typeof signature !== 'string' ||
    !SIGNATURE.test(signature)
  ) {
    throw new ServiceError(
      400,
      'invalid_params',
      "results must be one { type: 'walletRpc', data: [signature] } per action: a 65-byte hex signature",
    );
  }
  return signature as `0x${string}`;
}

/** 400 when a confirm already spent the quote's authorization (its owner and nonce). */
function checkUnspent(store: Store, quote: Quote): void {
  if (!isSpent(store, quote)) return;
  throw new ServiceError(
    400,
    'invalid_params',
    `Option ${quote.id}'s authorization (owner ${quote.address}, its nonce) was used already: ask for options again`,
  );
}

function paymentGone(id: string): ServiceError {
  return new ServiceError(400, 'invalid_state', `Payment ${id} was reset while confirming`);
}

/** The wallet a confirm came from, as its `Sdk-Name` names it (what the buyer's view shows). */
function sdkName(headers: Headers): string {
  const name = headers.get('sdk-name')?.trim();
  return name ? name.slice(0, 64) : 'Wallet';
}

/** A boolean query parameter: absent or empty is false; anything but `true`/`false` is 400. */
function booleanQuery(ctx: RequestContext, name: string): boolean {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ServiceError(400, 'params_validation', `${name} must be true or false`, {
    issues: [{ field: name, message: 'must be true or false' }],
  });
}
