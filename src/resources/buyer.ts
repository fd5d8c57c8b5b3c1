import { createRoute } from '../checkout/route';
import type { CheckoutRoute, CheckoutRouteOptions } from '../checkout/types';
import { ApiPromise } from '../core/api-promise';
import { isUnknownOutcome } from '../core/errors/failure';
import { path } from '../core/http/path';
import type { RequestOptions } from '../core/http/transport';
import { parseRequest } from '../core/validate';
import {
  type BuyerAction,
  type BuyerPollParams,
  BuyerPollParamsSchema,
  type ConfirmPaymentParams,
  ConfirmPaymentParamsSchema,
  type FetchActionsParams,
  FetchActionsParamsSchema,
  FetchActionsResultSchema,
  type GatewayCancellation,
  GatewayCancellationSchema,
  type PaymentOptions,
  type PaymentOptionsParams,
  PaymentOptionsParamsSchema,
  PaymentOptionsSchema,
} from '../schemas/buyer';
import {
  type PaymentStatusResult,
  PaymentStatusResultSchema,
  type PaymentView,
  PaymentViewSchema,
} from '../schemas/payment-view';
import type { BuyerPayParams } from './buyer-pay';
import type { BaseContext } from './resource';
import { paymentStatus } from './status-read';

/** GET /v1/gateway/payment/{id}: `buyer.get`, and `payments.get` under its own name. */
export function paymentView(
  context: BaseContext,
  operation: string,
  paymentId: string,
  options: RequestOptions | undefined,
): ApiPromise<PaymentView> {
  return context.transport.request(() => ({
    operation,
    method: 'GET',
    ...path(operation, '/v1/gateway/payment/{paymentId}', { paymentId }),
    response: PaymentViewSchema,
    select: (view) => view,
    options,
  }));
}

/**
 * The buyer's side of the service (the Gateway API): what a wallet, or a PSP's checkout backend,
 * calls to pay a payment. `pay` does the whole of it with an account that signs EIP-712 data;
 * the other methods are its steps, for flows `pay` cannot run.
 */
export class Buyer {
  readonly #context: BaseContext;

  constructor(context: BaseContext) {
    this.#context = context;
  }

  /**
   * Reads a payment as its buyer sees it (GET /v1/gateway/payment/{id}): amount, merchant,
   * expiry and status.
   *
   * @example
   * ```ts
   * const view = await gateway.buyer.get('pay_123');
   * console.log(view.merchant.name, view.amount.display.assetSymbol, view.status);
   * ```
   * @throws {NotFoundError} when the payment does not exist.
   */
  get(paymentId: string, options?: RequestOptions): ApiPromise<PaymentView> {
    return paymentView(this.#context, 'buyer.get', paymentId, options);
  }

  /**
   * Reads a payment's status through the gateway (GET /v1/gateway/payment/{id}/status). With
   * `maxPollMs` the service holds the read up to that many milliseconds and answers as soon as
   * the status changes; the attempt's timeout is stretched by `maxPollMs` to cover it.
   *
   * @throws {RequestValidationError} before sending: a bad id, or `maxPollMs` not a whole number
   * from 0 to 60,000.
   */
  status(
    paymentId: string,
    params: BuyerPollParams = {},
    options?: RequestOptions,
  ): ApiPromise<PaymentStatusResult> {
    const operation = 'buyer.status';
    return paymentStatus(
      this.#context,
      operation,
      paymentId,
      () => ({ maxPollMs: parseRequest(operation, BuyerPollParamsSchema, params).maxPollMs }),
      options,
    );
  }

  /**
   * Asks which ways the buyer's accounts can pay the payment (POST …/options): one option per
   * account on a chain and token the merchant takes, each with its token amount, quote expiry and
   * the actions to perform. `options` is always an array: `[]` when no account fits (the service
   * may send null or nothing for that). Retried like a read: a quote moves no money.
   *
   * @example
   * ```ts
   * const { options } = await gateway.buyer.options('pay_123', {
   *   accounts: ['eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb'],
   * });
   * for (const option of options) console.log(option.id, option.amount.display.assetSymbol);
   * ```
   * @throws {RequestValidationError} before sending: not 1 to 50 CAIP-10 accounts, a bad id.
   * @throws {NotFoundError} when the payment does not exist.
   */
  options(
    paymentId: string,
    params: PaymentOptionsParams,
    options?: RequestOptions,
  ): ApiPromise<PaymentOptions> {
    return this.#context.transport.request(() => {
      const operation = 'buyer.options';
      const input = parseRequest(operation, PaymentOptionsParamsSchema, params);
      const query = new URLSearchParams();
      if (input.includePaymentInfo !== undefined) {
        query.set('includePaymentInfo', String(input.includePaymentInfo));
      }
      return {
        operation,
        method: 'POST',
        ...path(operation, '/v1/gateway/payment/{paymentId}/options', { paymentId }),
        query,
        body: {
          accounts: input.accounts,
          ...(input.refresh === undefined ? {} : { refresh: input.refresh }),
        },
        response: PaymentOptionsSchema,
        select: (answer) => answer,
        readOnly: true,
        options,
      };
    });
  }

  /**
   * Turns an option's `build` action into the wallet RPC actions to perform (POST …/fetch), with
   * the action's `data.data` as it came. Retried like a read: building moves no money.
   *
   * @example
   * ```ts
   * const actions = await gateway.buyer.fetchActions('pay_123', { optionId: option.id, data: action.data.data });
   * ```
   * @throws {RequestValidationError} before sending: an option id not 1 to 65,536 characters, no `data`.
   */
  fetchActions(
    paymentId: string,
    params: FetchActionsParams,
    options?: RequestOptions,
  ): ApiPromise<BuyerAction[]> {
    return this.#context.transport.request(() => {
      const operation = 'buyer.fetchActions';
      const input = parseRequest(operation, FetchActionsParamsSchema, params);
      return {
        operation,
        method: 'POST',
        ...path(operation, '/v1/gateway/payment/{paymentId}/fetch', { paymentId }),
        body: { optionId: input.optionId, data: input.data },
        response: FetchActionsResultSchema,
        select: (answer) => answer.actions,
        readOnly: true,
        options,
      };
    });
  }

  /**
   * Pays with an option (POST …/confirm): `results` holds one result per wallet RPC action, in
   * the actions' order (`{ type: 'walletRpc', data: [signature] }`). The payment then goes
   * `processing`; `maxPollMs` holds the answer until the status changes (the attempt's timeout
   * stretched to cover it).
   *
   * A confirm is never sent twice when its outcome is unknown: a lost connection, a timeout or a
   * 5xx is not retried (only rate limiting is, as the service did not act), and the error says to
   * read `buyer.status` to learn what happened before confirming again.
   *
   * @throws {RequestValidationError} before sending: a bad id, option id, result or `maxPollMs`.
   * @throws {InvalidRequestError} a signature that does not verify, an unknown option, a quote
   * past its `expiresAt` (`quote_expired`), or a payment no longer open (`invalid_state`,
   * `payment_expired`): the payment is unchanged.
   * @throws {ConnectionError} or {ServerError} when the outcome is unknown: read `buyer.status`.
   */
  confirm(
    paymentId: string,
    params: ConfirmPaymentParams,
    poll: BuyerPollParams = {},
    options?: RequestOptions,
  ): ApiPromise<PaymentStatusResult> {
    const sent = this.#context.transport.request(() => {
      const operation = 'buyer.confirm';
      const input = parseRequest(operation, ConfirmPaymentParamsSchema, params);
      const { maxPollMs } = parseRequest(operation, BuyerPollParamsSchema, poll);
      const query = new URLSearchParams();
      if (maxPollMs !== undefined && maxPollMs > 0) query.set('maxPollMs', String(maxPollMs));
      return {
        operation,
        method: 'POST',
        ...path(operation, '/v1/gateway/payment/{paymentId}/confirm', { paymentId }),
        query,
        body: {
          optionId: input.optionId,
          results: input.results.map((result) => ({ type: result.type, data: result.data })),
          ...(input.collectedData === undefined ? {} : { collectedData: input.collectedData }),
        },
        response: PaymentStatusResultSchema,
        select: (result) => result,
        // The service may rightly hold the answer this long.
        extraTimeoutMs: maxPollMs ?? 0,
        options,
      };
    });
    return new ApiPromise(
      sent.withResponse().catch((error: unknown) => {
        // A confirm that may have reached the service, and may have acted, is not sent again.
        if (isUnknownOutcome(error)) {
          error.message += `; the confirm may have reached the service and was not sent again: read gateway.buyer.status(${JSON.stringify(paymentId)}) to learn whether the payment is processing before confirming again`;
        }
        throw error;
      }),
    );
  }

  /**
   * Cancels an open payment as its buyer (POST …/cancel), as a checkout's Cancel button does.
   * Not retried after an unknown outcome: read `buyer.status` then.
   *
   * @throws {InvalidRequestError} when the payment can no longer be cancelled (already final).
   */
  cancel(paymentId: string, options?: RequestOptions): ApiPromise<GatewayCancellation> {
    return this.#context.transport.request(() => {
      const operation = 'buyer.cancel';
      return {
        operation,
        method: 'POST',
        ...path(operation, '/v1/gateway/payment/{paymentId}/cancel', { paymentId }),
        response: GatewayCancellationSchema,
        select: (cancellation) => cancellation,
        options,
      };
    });
  }

  /**
   * The server half of a PSP's own checkout: a route the page calls instead of the service, so
   * the key stays on the server. It serves, under `basePath`, `GET /payment/{id}`, `POST
   * …/options`, `POST …/fetch`, `POST …/confirm`, `GET …/status` (`?maxPollMs=`, clamped to 30,000)
   * and, with `allowCancel`, `POST …/cancel`, each through this client's own method; it answers
   * 200 with the call's result, else `{ error: { code, message } }` (400 `invalid_request`, 403
   * `forbidden`, 404 `not_found`, 405, 413 `payload_too_large`, 415, the service's own 4xx, 502
   * `upstream_error`). Nothing else is reachable through it, and nothing of the browser's request
   * is sent on. The handling code loads on the first request.
   *
   * @example
   * ```ts
   * const route = gateway.buyer.route({ authorize: (request, { paymentId }) => ownsPayment(request, paymentId) });
   * export const GET = route.fetch, POST = route.fetch; // a Next.js route handler at app/api/wcp/[...path]
   * ```
   * @throws {ConfigurationError} for a bad option (`basePath`, `authorize`, `allowCancel`, `maxBodyBytes`).
   */
  route(options?: CheckoutRouteOptions): CheckoutRoute {
    const { redactor, logger } = this.#context.transport.config;
    return createRoute(this, { redactor, logger }, options);
  }

  /**
   * Pays the payment with `account` (a viem `LocalAccount`, or anything with `address` and
   * `signTypedData({ domain, types, primaryType, message })`): reads the options for the account
   * (on `chainId` when given, else on the usual EVM chains, taking the first option offered, or
   * the one named `optionId`), turns `build` actions into wallet RPC actions through
   * `fetchActions`, signs each `eth_signTypedData_v4` action with the account, and confirms with
   * the signatures in order. Resolves with the confirm's answer (usually `processing`: follow it
   * with `payments.waitForFinal` or `buyer.status`).
   *
   * Everything is checked before the confirm: an action it cannot perform (another RPC method, an
   * unknown action type), one for another address, or no option for the account is a `PayError`,
   * and the payment is left as it was. Run such flows step by step with the other methods.
   *
   * @example
   * ```ts
   * import { privateKeyToAccount } from 'viem/accounts';
   * const account = privateKeyToAccount(process.env.BUYER_KEY as `0x${string}`);
   * const result = await gateway.buyer.pay('pay_123', { account, chainId: 'eip155:8453' });
   * ```
   * @throws {RequestValidationError} before sending: a bad id, account, chain, option id or signal.
   * @throws {PayError} before confirming, when the account cannot pay this way.
   */
  pay(paymentId: string, params: BuyerPayParams): Promise<PaymentStatusResult> {
    // The params as they are now (own fields only); the flow loads with its first use, so a
    // wallet that never calls pay does not carry it (bundlers give it a chunk of its own).
    const given: unknown = typeof params === 'object' && params !== null ? { ...params } : params;
    return import('./buyer-pay').then(({ payWithAccount }) =>
      payWithAccount(this, paymentId, given as BuyerPayParams),
    );
  }
}
