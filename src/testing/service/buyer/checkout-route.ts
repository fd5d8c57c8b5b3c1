/**
 * The route the checkout page's *Pay with a browser wallet* calls (`{prefix}/pay/api/wcp/…`): the
 * SDK's own `gateway.buyer.route`, its client pointed at this mock in-process with the mock's key,
 * as a PSP's server would mount it. Loaded on first use, so the testing entry never carries the client.
 */
import type { MockGateway } from '../../types';

/** Where the route lives under the mock's path prefix, beside the pages at `{prefix}/pay/{id}`. */
export const ROUTE_PATH = '/pay/api/wcp';

type Route = { fetch(request: Request): Promise<Response> };

// One route per base URL the page was reached at (127.0.0.1, localhost, a prefix); a handful at most.
const routes = new WeakMap<MockGateway, Map<string, Promise<Route>>>();
const MAX_BASES = 16;

/** Answers a request under `{prefix}/pay/api/wcp` through the route; `prefix` is the mock's path prefix. */
export async function handleCheckoutRoute(
  mock: MockGateway,
  request: Request,
  prefix: string,
  refuse: (request: Request) => string | undefined,
): Promise<Response> {
  const baseUrl = `${new URL(request.url).origin}${prefix}`;
  const byBase = routes.get(mock) ?? new Map<string, Promise<Route>>();
  routes.set(mock, byBase);
  let route = byBase.get(baseUrl);
  if (!route) {
    if (byBase.size >= MAX_BASES) byBase.clear();
    route = mountRoute(mock, baseUrl, prefix, refuse);
    byBase.set(baseUrl, route);
  }
  return (await route).fetch(request);
}

async function mountRoute(
  mock: MockGateway,
  baseUrl: string,
  prefix: string,
  refuse: (request: Request) => string | undefined,
): Promise<Route> {
  const { MerchantGateway } = await import('../../../client');
  const gateway = new MerchantGateway({
    baseUrl,
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
