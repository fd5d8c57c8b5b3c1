import { RequestValidationError, type ValidationIssue } from '../core/errors/base';
import { pathIdProblem } from '../core/http/path';
import { signalProblem } from '../core/http/prepare';
import { CheckoutController } from './controller';
import type { Checkout, CheckoutClient, CreateCheckoutOptions } from './controller-types';
import { routeTransport } from './route-transport';
import { clientTransport } from './transport';

const CLIENT_METHODS = ['get', 'status', 'options', 'fetchActions', 'confirm', 'cancel'] as const;

/**
 * A checkout of one payment, in a page or in Node: a store for the UI (`getSnapshot`,
 * `subscribe`: React's `useSyncExternalStore` takes them as they are) and the buyer's actions.
 * Nothing is sent before `start()`. With `route`, the page calls the PSP's server and holds no
 * key; with `client`, a `BuyerClient` calls the service.
 *
 * @example
 * ```ts
 * const checkout = createCheckout({ paymentId, route: '/api/wcp', wallet: walletFromEip1193(window.ethereum) });
 * checkout.subscribe(() => render(checkout.getSnapshot()));
 * await checkout.start();   // 'ready_for_wallet'
 * await checkout.connect(); // 'options_ready'
 * await checkout.select(checkout.getSnapshot().options[0].id);
 * await checkout.pay();     // 'succeeded'
 * ```
 * @throws {RequestValidationError} for a bad payment id, both or neither of `route` and
 * `client`, a wallet without `accounts` and `signTypedData`, or a signal that is not one.
 */
export function createCheckout(options: CreateCheckoutOptions): Checkout {
  const operation = 'createCheckout';
  if (typeof options !== 'object' || options === null) {
    throw new RequestValidationError(operation, [
      { field: '', message: 'expected { paymentId, route | client, wallet, signal? }' },
    ]);
  }
  const { paymentId, route, client, wallet, signal } = options;
  const issues: ValidationIssue[] = [];
  const idProblem = pathIdProblem(paymentId);
  if (idProblem !== undefined) issues.push({ field: 'paymentId', message: idProblem });
  if ((route === undefined) === (client === undefined)) {
    issues.push({
      field: 'route',
      message:
        'give exactly one of route (the URL of your gateway.buyer.route) and client (a BuyerClient)',
    });
  } else if (route !== undefined && (typeof route !== 'string' || route === '')) {
    issues.push({ field: 'route', message: "must be the route's URL, e.g. '/api/wcp'" });
  } else if (client !== undefined) {
    const missing = CLIENT_METHODS.filter(
      (name) => typeof (client as Partial<CheckoutClient>)?.[name] !== 'function',
    );
    if (missing.length > 0) {
      issues.push({ field: 'client', message: `must be a BuyerClient (no ${missing.join(', ')})` });
    }
  }
  for (const name of ['accounts', 'signTypedData'] as const) {
    if (typeof wallet?.[name] !== 'function') {
      issues.push({
        field: `wallet.${name}`,
        message: 'must be a function (walletFromAccount or walletFromEip1193 make a wallet)',
      });
    }
  }
  const badSignal = signalProblem(signal);
  if (badSignal !== undefined) issues.push({ field: 'signal', message: badSignal });
  if (issues.length > 0) throw new RequestValidationError(operation, issues);

  const transport =
    client === undefined
      ? routeTransport(route as string, paymentId)
      : clientTransport(client, paymentId);
  const checkout = new CheckoutController(transport, wallet);
  if (signal !== undefined) {
    if (signal.aborted) checkout.destroy();
    else signal.addEventListener('abort', () => checkout.destroy(), { once: true });
  }
  return checkout;
}
