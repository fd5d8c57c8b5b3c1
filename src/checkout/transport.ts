/**
 * The calls a checkout makes, one port for both ways to reach the service (a `BuyerClient`, or a
 * PSP's route through `fetch`), and how a failed call reads to the controller.
 */
import { ApiError } from '../core/errors/api-error';
import {
  ConnectionError,
  MerchantGatewayError,
  ResponseValidationError,
  TimeoutError,
} from '../core/errors/base';
import type {
  BuyerAction,
  ConfirmPaymentParams,
  GatewayCancellation,
  PaymentOptions,
} from '../schemas/buyer';
import type { PaymentStatusResult, PaymentView } from '../schemas/payment-view';
import type { CheckoutClient } from './controller-types';

/** One checkout's calls, each for its payment, each abortable. */
export interface CheckoutTransport {
  get(signal: AbortSignal): Promise<PaymentView>;
  options(
    accounts: string[],
    refresh: string[] | undefined,
    signal: AbortSignal,
  ): Promise<PaymentOptions>;
  fetchActions(optionId: string, data: string, signal: AbortSignal): Promise<BuyerAction[]>;
  confirm(
    params: ConfirmPaymentParams,
    maxPollMs: number,
    signal: AbortSignal,
  ): Promise<PaymentStatusResult>;
  status(maxPollMs: number, signal: AbortSignal): Promise<PaymentStatusResult>;
  cancel(signal: AbortSignal): Promise<GatewayCancellation>;
}

/** The controller's calls on a client's own buyer methods (retries, timeouts and checks as theirs). */
export function clientTransport(client: CheckoutClient, paymentId: string): CheckoutTransport {
  return {
    get: async (signal) => client.get(paymentId, { signal }),
    options: async (accounts, refresh, signal) =>
      client.options(
        paymentId,
        { accounts, includePaymentInfo: true, ...(refresh === undefined ? {} : { refresh }) },
        { signal },
      ),
    fetchActions: async (optionId, data, signal) =>
      client.fetchActions(paymentId, { optionId, data }, { signal }),
    confirm: async (params, maxPollMs, signal) =>
      client.confirm(paymentId, params, { maxPollMs }, { signal }),
    status: async (maxPollMs, signal) => client.status(paymentId, { maxPollMs }, { signal }),
    cancel: async (signal) => client.cancel(paymentId, { signal }),
  };
}

/** An error answer of a PSP's route: `{ error: { code, message } }` under its status. */
export class RouteError extends MerchantGatewayError {
  override readonly name: string = 'RouteError';
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A failed call as the controller reads it. */
export interface Failure {
  code: string;
  message: string;
  /** The service may have acted (a lost connection, a 5xx, a 502 from the route, a bad 200). */
  unknownOutcome: boolean;
}

/** Any failure of a call, a `CheckoutTransport`'s or a wallet's, as a `Failure`. */
export function failureOf(error: unknown): Failure {
  if (error instanceof RouteError || error instanceof ApiError) {
    return {
      code: error.code ?? `http_${error.status}`,
      message: error.message,
      unknownOutcome: error.status >= 500,
    };
  }
  if (error instanceof ConnectionError) {
    return {
      code: error instanceof TimeoutError ? 'timeout' : 'connection_error',
      message: error.message,
      unknownOutcome: true,
    };
  }
  if (error instanceof ResponseValidationError) {
    return { code: 'invalid_response', message: error.message, unknownOutcome: true };
  }
  return {
    code: 'internal_error',
    message: error instanceof Error ? error.message : String(error),
    unknownOutcome: true,
  };
}
