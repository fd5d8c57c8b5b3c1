/**
 * The route the checkout page's *Pay with a browser wallet* calls (`{prefix}/pay/api/wcp/…`): the
 * SDK's own `gateway.buyer.route`, its client pointed at this mock in-process with the mock's key,
 * as a PSP's server would mount it. Loaded on first use, so the testing entry never carries the client.
 */
import type { MockGateway } from '../../types';

/** Where the route lives under the mock's path prefix, beside the pages at `{prefix}/pay/{id}`. */
export const ROUTE_PATH = '/pay/api/wcp';

type Route = { fetch(request: Request): Promise<Response> };

// One route per path prefix the page was reached under (`''`, `/api`); a handful at most.
const routes = new WeakMap<MockGateway, Map<string, Promise<Route>>>();
const MAX_PREFIXES = 16;

/** Answers a request under `{prefix}/pay/api/wcp` through the route; `prefix` is the mock's path prefix. */
export async function handleCheckoutRoute(
  mock: MockGateway,
  request: Request,
  prefix: string,
  refuse: (request: Request) => string | undefined,
): Promise<Response> {
  const byPrefix = routes.get(mock) ?? new Map<string, Promise<Route>>();
  routes.set(mock, byPrefix);
  let route = byPrefix.get(prefix);
  if (!route) {
    if (byPrefix.size >= MAX_PREFIXES) byPrefix.clear();
    route = mountRoute(mock, prefix, refuse);
    byPrefix.set(prefix, route);
  }
  try {
    return (await route).fetch(request);
  } catch {
    // A prefix the route refuses as its base (`%20`, `..`): no page of the mock lives there.
    byPrefix.delete(prefix);
    return Response.json(
      { error: { code: 'not_found', message: 'No checkout route under this path.' } },
      { status: 404 },
    );
  }
}

async function mountRoute(
  mock: MockGateway,
  prefix: string,
  refuse: (request: Request) => string | undefined,
): Promise<Route> {
  const { MerchantGateway } = await import('../../../client');
  const gateway = new MerchantGateway({
    // Any base does: mock.fetch answers in-process, and no buyer answer carries a URL. A loopback
    // one, as the client takes a key over plain HTTP only to loopback, whatever Host the page used.
    baseUrl: `http://127.0.0.1${prefix}`,
    apiKey: mock.credentials.apiKey,
    // In-process: the route's calls are service traffic (recorded, faults apply), with no socket.
    fetch: mock.fetch,
  });
  return gateway.buyer.route({
    basePath: `${prefix}${ROUTE_PATH}`,
    // The mock's page offers Cancel; the route serves it too.
    allowCancel: true,
    // Another site's page cannot drive the sidecar's payments through the developer's browser.
    authorize: (request: Request) => refuse(request) === undefined,
  });
}
