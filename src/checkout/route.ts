// What `buyer.route()` runs at once: the options checked, and two handlers that load the
// handling code (serve.ts, node.ts) on their first request, so neither entry's first load
// carries it (bundlers give it a chunk of its own).
import { ConfigurationError } from '../core/errors/base';
import type { LevelLogger } from '../core/logger';
import { ownProperties } from '../core/safety/own-properties';
import type { Redactor } from '../core/safety/redact';
import type { CheckoutClient } from './controller-types';
import type { RouteSetup } from './setup';
import type { CheckoutRoute, CheckoutRouteOptions } from './types';

const BASE_PATH = /^(\/[\w.~-]+)+$/;

/** @internal The route's handlers over `buyer`; a bad option is a ConfigurationError naming it. */
export function createRoute(
  buyer: CheckoutClient,
  tools: { redactor: Redactor; logger: LevelLogger },
  given: CheckoutRouteOptions | undefined,
): CheckoutRoute {
  // Own properties only: a polluted Object.prototype must not turn on cancel or move the route.
  const options = ownProperties(given);
  const { basePath = '/api/wcp', authorize, allowCancel = false, maxBodyBytes = 262_144 } = options;
  const problem =
    typeof basePath !== 'string' ||
    !BASE_PATH.test(basePath) ||
    basePath.split('/').some((s) => s === '.' || s === '..')
      ? 'basePath must be a path of one or more segments (letters, digits, - _ . ~), such as "/api/wcp", without a trailing slash'
      : authorize !== undefined && typeof authorize !== 'function'
        ? 'authorize must be a function'
        : typeof allowCancel !== 'boolean'
          ? 'allowCancel must be a boolean'
          : !Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1
            ? 'maxBodyBytes must be a whole number of bytes, at least 1'
            : undefined;
  if (problem !== undefined) throw new ConfigurationError(`buyer.route: ${problem}`);
  const setup: RouteSetup = { buyer, ...tools, basePath, authorize, allowCancel, maxBodyBytes };
  return {
    fetch: (request) => import('./serve').then(({ serveFetch }) => serveFetch(setup, request)),
    node: (req, res, next) =>
      import('./node').then(({ serveNode }) => serveNode(setup, req, res, next)),
  };
}
