import { gatewayCodeFor } from '../../../rules/gateway-errors';
import { recordRequest } from '../../state/request-log';
import type { Store } from '../../state/store';
import {
  cancelPaymentAsBuyer,
  confirmPayment,
  fetchPaymentActions,
  getPaymentOptions,
} from '../buyer/gateway-buyer';
import { deleteMerchant, listMerchants } from '../resources/merchant-admin';
import {
  createCryptoSettlements,
  createMerchant,
  getMerchant,
  updateMerchant,
} from '../resources/merchants';
import { mockListPartnerPayments } from '../resources/partner-payments';
import { createRefund, getPaymentDetails, mockCancelPayment } from '../resources/payment-actions';
import { listLegacyPayments, mockListPayments } from '../resources/payment-lists';
import { createPayment, getPaymentView } from '../resources/payments';
import {
  deleteCryptoSettlement,
  listSettlements,
  updateCryptoSettlement,
} from '../resources/settlement-admin';
import { getGatewayPaymentStatus, getPaymentStatus } from '../resources/status-polling';
import { authenticate, checkHeaders } from './auth';
import { faultResponse } from './fault-responses';
import type { Operation } from './operation';
import { MAX_BODY_BYTES, payloadTooLarge, readBoundedText } from './request-body';
import type { RequestContext } from './request-context';
import {
  errorResponse,
  isNetworkError,
  NETWORK_ERROR,
  type NetworkError,
  ServiceError,
  waitUnlessAborted,
} from './responses';

interface Route extends Operation {
  method: string;
  /** Path segments after `v1`; `:` marks a parameter. */
  segments: string[];
  run: (ctx: RequestContext) => Response | Promise<Response>;
}

const MANAGEMENT: Operation = { errors: 'merchant', auth: 'key', versioned: false };
const LISTS: Operation = { errors: 'merchant', auth: 'key', versioned: true };
const PAYMENTS: Operation = { errors: 'shared', auth: 'key', versioned: true };
const GATEWAY: Operation = { errors: 'shared', auth: 'app', versioned: true };
const LEGACY: Operation = { errors: 'merchant', auth: 'legacy', versioned: false };

const route = (method: string, path: string, run: Route['run'], operation: Operation): Route => ({
  method,
  segments: path.split('/').slice(2),
  run,
  ...operation,
});

// Order matters: the replacement list is tried before GET /v1/merchants/{merchantId}.
const ROUTES: readonly Route[] = [
  route('POST', '/v1/merchants', createMerchant, MANAGEMENT),
  route('GET', '/v1/merchants/payments', mockListPayments, LISTS),
  route('GET', '/v1/merchants/:merchantId', getMerchant, MANAGEMENT),
  route('PATCH', '/v1/merchants/:merchantId', updateMerchant, MANAGEMENT),
  route(
    'POST',
    '/v1/merchants/:merchantId/settlements/crypto',
    createCryptoSettlements,
    MANAGEMENT,
  ),
  route('GET', '/v1/merchants/:merchant_id/payments', listLegacyPayments, LEGACY),
  route('POST', '/v1/payments', createPayment, PAYMENTS),
  route('GET', '/v1/gateway/payment/:id', getPaymentView, GATEWAY),
  route('GET', '/v1/payments/:id', getPaymentDetails, PAYMENTS),
  route('GET', '/v1/payments/:id/status', getPaymentStatus, PAYMENTS),
  route('POST', '/v1/payments/:id/cancel', mockCancelPayment, PAYMENTS),
  route('POST', '/v1/refunds', createRefund, LISTS),
  route('GET', '/v1/gateway/payment/:id/status', getGatewayPaymentStatus, GATEWAY),
  // The buyer's half (gateway-buyer.ts): what a wallet calls to pay.
  route('POST', '/v1/gateway/payment/:id/options', getPaymentOptions, GATEWAY),
  route('POST', '/v1/gateway/payment/:id/fetch', fetchPaymentActions, GATEWAY),
  route('POST', '/v1/gateway/payment/:id/confirm', confirmPayment, GATEWAY),
  route('POST', '/v1/gateway/payment/:id/cancel', cancelPaymentAsBuyer, GATEWAY),
  // Lists and management of the rest of the partner API (merchant-admin.ts, settlement-admin.ts).
  route('GET', '/v1/payments', mockListPartnerPayments, LISTS),
  route('GET', '/v1/merchants', listMerchants, MANAGEMENT),
  route('DELETE', '/v1/merchants/:merchantId', deleteMerchant, MANAGEMENT),
  route('GET', '/v1/merchants/:merchantId/settlements', listSettlements, MANAGEMENT),
  route(
    'PUT',
    '/v1/merchants/:merchantId/settlements/crypto/:id',
    updateCryptoSettlement,
    MANAGEMENT,
  ),
  route(
    'DELETE',
    '/v1/merchants/:merchantId/settlements/crypto/:id',
    deleteCryptoSettlement,
    MANAGEMENT,
  ),
];

/**
 * Answers one request as the service would: applies a queued fault if one matches, then checks
 * the headers, the route and the credentials before reading any body (a client without a key
 * never makes the mock read one), reads at most `MAX_BODY_BYTES` of it, and routes it. Every
 * request is recorded. Any path prefix before `/v1/` and any origin are accepted.
 */
export async function handle(store: Store, request: Request): Promise<Response | NetworkError> {
  const url = new URL(request.url);
  const v1 = url.pathname.indexOf('/v1/');
  const path = v1 === -1 ? url.pathname : url.pathname.slice(v1);
  if (!path.startsWith(GATEWAY_PREFIX)) return answer(store, request, url, v1, path);
  // The buyer's routes serve web pages (wallets, checkouts) with the public App-Id scheme: a
  // preflight is answered before anything else (no fault, no record), and every answer, errors
  // included, may be read from any origin. The partner routes send none of this: a secret key
  // never belongs in a page.
  if (request.method === 'OPTIONS') return preflightResponse(request);
  const result = await answer(store, request, url, v1, path);
  if (!isNetworkError(result)) {
    for (const [name, value] of Object.entries(CORS_HEADERS)) result.headers.set(name, value);
  }
  return result;
}

const GATEWAY_PREFIX = '/v1/gateway/';

/** What a browser may read of a buyer route's answer. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id, retry-after, retry-after-ms',
} as const;

/** The headers a page may send to the buyer routes: the app scheme's, the SDK's and the wallet SDK's. */
const CORS_ALLOW_HEADERS = [
  'App-Id',
  'Client-Id',
  'Content-Type',
  'Sdk-Name',
  'Sdk-Version',
  'Sdk-Platform',
  'Idempotency-Key',
  'WCP-Version',
  'Api-Version',
  'traceparent',
  'tracestate',
].join(', ');

function preflightResponse(request: Request): Response {
  const asked = request.headers.get('access-control-request-method');
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': CORS_ALLOW_HEADERS,
      'access-control-max-age': '600',
      vary: 'origin, access-control-request-headers',
      ...(asked ? {} : { allow: 'GET, POST, OPTIONS' }),
    },
  });
}

async function answer(
  store: Store,
  request: Request,
  url: URL,
  v1: number,
  path: string,
): Promise<Response | NetworkError> {
  const requestId = `req_${String(++store.requestCount).padStart(6, '0')}`;

  // The body once read: a string, undefined when it passed the bound, null before it is read.
  let bodyText: string | undefined | null = null;
  const readAndRecord = async () => {
    bodyText = await readBoundedText(request);
    store.record(recordRequest(request, url, path, bodyText ?? ''));
    return bodyText;
  };

  const fault = store.takeFault(request.method, path);
  if (fault) {
    const operation = v1 === -1 ? undefined : findRoute(request.method, path);
    // A fault answers before auth, as a proxy would; its body is still bounded, and recorded.
    await readAndRecord();
    if (fault.delayMs) await waitUnlessAborted(fault.delayMs, request.signal);
    if (fault.networkError || request.signal.aborted) return NETWORK_ERROR;
    if (fault.status !== undefined) {
      const response = faultResponse({ ...fault, status: fault.status }, operation, path);
      // The service's own errors carry a request id; a proxy's raw page does not.
      if (typeof fault.body !== 'string') response.headers.set('x-request-id', requestId);
      return response;
    }
  }

  let response: Response;
  try {
    const { run, ctx } = preflight(store, request, url, v1 === -1 ? undefined : path);
    const text = bodyText === null ? await readAndRecord() : bodyText;
    if (text === undefined) throw payloadTooLarge(MAX_BODY_BYTES);
    response = await run({ ...ctx, bodyText: text });
  } catch (error) {
    // Refused on its headers alone: recorded without its body, which was never read.
    if (bodyText === null) store.record(recordRequest(request, url, path, ''));
    const refusal =
      error instanceof ServiceError
        ? error
        : new ServiceError(500, 'internal_error', `Mock gateway failure: ${String(error)}`);
    response = errorResponse(path.startsWith('/v1/gateway/') ? inGatewayEnum(refusal) : refusal);
  }
  response.headers.set('x-request-id', requestId);
  return response;
}

/**
 * The gateway's strict clients parse `code` as its `ErrorCode` enum: an answer the mock words with
 * another code (a 404 or 405 of no route, a 413) takes the enum's code for its status instead.
 */
function inGatewayEnum(error: ServiceError): ServiceError {
  const code = gatewayCodeFor(error.status, error.code);
  return code === error.code
    ? error
    : new ServiceError(error.status, code, error.message, error.extra);
}

/** What can be decided from the request line and headers alone: the route and the principal. */
function preflight(
  store: Store,
  request: Request,
  url: URL,
  path: string | undefined,
): { run: Route['run']; ctx: Omit<RequestContext, 'bodyText'> } {
  const notFound = new ServiceError(
    404,
    'not_found',
    `No route for ${request.method} ${url.pathname}`,
  );
  if (path === undefined) throw notFound;
  const candidates = matchRoutes(path);
  if (candidates === undefined || candidates.length === 0) throw notFound;
  const match = candidates.find((c) => c.route.method === request.method);
  if (!match) {
    const allow = [...new Set(candidates.map((c) => c.route.method))].join(', ');
    throw new ServiceError(405, 'method_not_allowed', `${request.method} is not allowed here`, {
      headers: { allow },
    });
  }
  checkHeaders(request.headers, match.route);
  const { credentials } = store.config;
  const principal = authenticate(request.headers, credentials, match.route.auth);
  return {
    run: match.route.run,
    ctx: { store, request, url, path, params: match.params, principal, now: Date.now() },
  };
}

/** The routes whose path matches, with their decoded parameters; undefined for a bad escape. */
function matchRoutes(path: string): { route: Route; params: string[] }[] | undefined {
  const segments = path.split('/').slice(2);
  if (segments.at(-1) === '') segments.pop();
  let decoded: string[];
  try {
    decoded = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  return ROUTES.flatMap((r) => {
    const params = matchSegments(r.segments, decoded);
    return params ? [{ route: r, params }] : [];
  });
}

/** The operation a method and path name, if any. */
function findRoute(method: string, path: string): Operation | undefined {
  return matchRoutes(path)?.find((c) => c.route.method === method)?.route;
}

/** The params of `actual` against a route pattern (`:name` segments), or undefined. */
export function matchSegments(
  pattern: readonly string[],
  actual: readonly string[],
): string[] | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: string[] = [];
  for (const [i, part] of pattern.entries()) {
    const value = actual[i] as string;
    if (part.startsWith(':')) {
      if (value === '') return undefined;
      params.push(value);
    } else if (part !== value) {
      return undefined;
    }
  }
  return params;
}
