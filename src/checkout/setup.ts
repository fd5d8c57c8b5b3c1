// What the route's handling is handed when the route is made: the client's buyer calls (as an
// interface, so this room does not import resources/), its redactor and logger, the options.
import type { LevelLogger } from '../core/logger';
import type { Redactor } from '../core/safety/redact';
import type { CheckoutClient } from './controller-types';
import type { CheckoutRouteOptions } from './types';

/** Everything the handling code needs, fixed when the route is made. */
export interface RouteSetup {
  /** The buyer methods the route calls: `gateway.buyer` or a `BuyerClient`, as the page's. */
  buyer: CheckoutClient;
  redactor: Redactor;
  logger: LevelLogger;
  basePath: string;
  authorize: CheckoutRouteOptions['authorize'];
  allowCancel: boolean;
  maxBodyBytes: number;
}
