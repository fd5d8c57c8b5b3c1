// What the route's handling is handed when the route is made: the client's buyer calls (as an
// interface, so this room does not import resources/), its redactor and logger, the options.
import type { LevelLogger } from '../core/logger';
import type { Redactor } from '../core/safety/redact';
import type {
  BuyerPollParams,
  ConfirmPaymentParams,
  FetchActionsParams,
  PaymentOptionsParams,
} from '../schemas/buyer';
import type { CheckoutRouteOptions } from './types';

/** A read's options: the signal that stops it once the page has gone. */
export interface ReadOptions {
  signal?: AbortSignal | undefined;
}

/** The buyer methods the route calls: `gateway.buyer` or a `BuyerClient`. */
export interface RouteBuyer {
  get(paymentId: string, options: ReadOptions): PromiseLike<unknown>;
  status(paymentId: string, poll: BuyerPollParams, options: ReadOptions): PromiseLike<unknown>;
  options(
    paymentId: string,
    params: PaymentOptionsParams,
    options: ReadOptions,
  ): PromiseLike<unknown>;
  fetchActions(
    paymentId: string,
    params: FetchActionsParams,
    options: ReadOptions,
  ): PromiseLike<unknown>;
  confirm(
    paymentId: string,
    params: ConfirmPaymentParams,
    poll: BuyerPollParams,
  ): PromiseLike<unknown>;
  cancel(paymentId: string): PromiseLike<unknown>;
}

/** Everything the handling code needs, fixed when the route is made. */
export interface RouteSetup {
  buyer: RouteBuyer;
  redactor: Redactor;
  logger: LevelLogger;
  basePath: string;
  authorize: CheckoutRouteOptions['authorize'];
  allowCancel: boolean;
  maxBodyBytes: number;
}
