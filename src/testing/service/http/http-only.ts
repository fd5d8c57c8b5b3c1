/**
 * What the mock serves over real HTTP only, beside the service's `/v1/` routes and under the same
 * path prefix: the control API (`/__mock/…`), the checkout page (`/pay/{id}`), its scripts
 * (`/pay/assets/{name}.js`) and the buyer route its wallet checkout calls (`/pay/api/wcp/…`).
 */
import type { Store } from '../../state/store';
import type { MockGateway } from '../../types';
import { serveCheckoutAsset } from '../buyer/checkout-assets';
import { crossOrigin, handleCheckoutPage } from '../buyer/checkout-page';
import { handleCheckoutRoute, ROUTE_PATH } from '../buyer/checkout-route';
import { handleControl } from '../control/control';

/** The answer of a control or checkout route, or undefined for a request the service answers. */
export async function handleHttpOnly(
  mock: MockGateway,
  store: Store,
  request: Request,
): Promise<Response | undefined> {
  const url = new URL(request.url);
  const { pathname } = url;
  // The route answers everything under its base itself (404 for what it does not serve), even a
  // path naming /v1/: nothing reaches the service through it but its five calls.
  const route = pathname.indexOf(`${ROUTE_PATH}/`);
  if (route !== -1 && !`${pathname.slice(0, route)}/`.includes('/v1/')) {
    return handleCheckoutRoute(mock, request, pathname.slice(0, route), crossOrigin);
  }
  if (pathname.includes('/v1/')) return undefined;
  const control = pathname.indexOf('/__mock/');
  if (control !== -1) {
    return handleControl(
      mock,
      request,
      pathname.slice(control + '/__mock/'.length),
      url.searchParams,
    );
  }
  const asset = /\/pay\/assets\/([^/]+)$/.exec(pathname);
  if (asset) return serveCheckoutAsset(request, asset[1] as string);
  const pay = /\/pay\/([^/]+)\/?$/.exec(pathname);
  if (!pay) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(pay[1] as string);
  } catch {
    id = pay[1] as string;
  }
  return handleCheckoutPage(store, request, id, pathname);
}
