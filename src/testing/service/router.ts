import { recordRequest } from '../state/request-log';
import type { Store } from '../state/store';
import { authenticate, authenticateLegacy, checkHeaders } from './auth';
import { faultResponse } from './fault-responses';
import { deleteMerchant, listMerchants } from './merchant-admin';
import { createCryptoSettlements, createMerchant, getMerchant, updateMerchant } from './merchants';
import { mockListPartnerPayments } from './partner-payments';
import { createRefund, getPaymentDetails, mockCancelPayment } from './payment-actions';
import { listLegacyPayments, mockListPayments } from './payment-lists';
import { createPayment, getPaymentView } from './payments';
import type { RequestContext } from './request-context';
import {
  errorResponse,
  NETWORK_ERROR,
  type NetworkError,
  ServiceError,
  waitUnlessAborted,
} from './responses';
import {
  deleteCryptoSettlement,
  listSettlements,
  updateCryptoSettlement,
} from './settlement-admin';
import { getGatewayPaymentStatus, getPaymentStatus } from './status-polling';

interface Route {
  method: string;
  /** Path segments after `v1`; `:` marks a parameter. */
  segments: string[];
  /** The deprecated list authenticates with the legacy key scheme. */
  legacy?: true;
  run: (ctx: RequestContext) => Response | Promise<Response>;
}

const route = (method: string, path: string, run: Route['run'], legacy?: true): Route => ({
  method,
  segments: path.split('/').slice(2),
  run,
  ...(legacy ? { legacy } : {}),
});

// Order matters: the replacement list is tried before GET /v1/merchants/{merchantId}.
const ROUTES: readonly Route[] = [
  route('POST', '/v1/merchants', createMerchant),
  route('GET', '/v1/merchants/payments', mockListPayments),
  route('GET', '/v1/merchants/:merchantId', getMerchant),
  route('PATCH', '/v1/merchants/:merchantId', updateMerchant),
  route('POST', '/v1/merchants/:merchantId/settlements/crypto', createCryptoSettlements),
  route('GET', '/v1/merchants/:merchant_id/payments', listLegacyPayments, true),
  route('POST', '/v1/payments', createPayment),
  route('GET', '/v1/gateway/payment/:id', getPaymentView),
  route('GET', '/v1/payments/:id', getPaymentDetails),
  route('GET', '/v1/payments/:id/status', getPaymentStatus),
  route('POST', '/v1/payments/:id/cancel', mockCancelPayment),
  route('POST', '/v1/refunds', createRefund),
  route('GET', '/v1/gateway/payment/:id/status', getGatewayPaymentStatus),
  // Lists and management of the rest of the partner API (merchant-admin.ts, settlement-admin.ts).
  route('GET', '/v1/payments', mockListPartnerPayments),
  route('GET', '/v1/merchants', listMerchants),
  route('DELETE', '/v1/merchants/:merchantId', deleteMerchant),
  route('GET', '/v1/merchants/:merchantId/settlements', listSettlements),
  route('PUT', '/v1/merchants/:merchantId/settlements/crypto/:id', updateCryptoSettlement),
  route('DELETE', '/v1/merchants/:merchantId/settlements/crypto/:id', deleteCryptoSettlement),
];

/**
 * Answers one request as the service would: records it, applies a queued fault if one matches,
 * then routes it. Any path prefix before `/v1/` and any origin are accepted.
 */
export async function handle(store: Store, request: Request): Promise<Response | NetworkError> {
  const url = new URL(request.url);
  const v1 = url.pathname.indexOf('/v1/');
  const path = v1 === -1 ? url.pathname : url.pathname.slice(v1);
  const bodyText =
    request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
  store.requests.push(recordRequest(request, url, path, bodyText));
  const requestId = `req_${String(++store.requestCount).padStart(6, '0')}`;

  const fault = store.takeFault(request.method, path);
  if (fault?.delayMs) await waitUnlessAborted(fault.delayMs, request.signal);
  if (fault?.networkError || request.signal.aborted) return NETWORK_ERROR;
  if (fault?.status !== undefined) {
    const response = faultResponse({ ...fault, status: fault.status });
    // The service's own errors carry a request id; a proxy's raw page does not.
    if (typeof fault.body !== 'string') response.headers.set('x-request-id', requestId);
    return response;
  }

  let response: Response;
  try {
    response = await dispatch(store, request, url, v1 === -1 ? undefined : path, bodyText);
  } catch (error) {
    response = errorResponse(
      error instanceof ServiceError
        ? error
        : new ServiceError(500, 'internal_error', `Mock gateway failure: ${String(error)}`),
    );
  }
  response.headers.set('x-request-id', requestId);
  return response;
}

function dispatch(
  store: Store,
  request: Request,
  url: URL,
  path: string | undefined,
  bodyText: string,
): Response | Promise<Response> {
  checkHeaders(request.headers);
  const notFound = new ServiceError(
    404,
    'not_found',
    `No route for ${request.method} ${url.pathname}`,
  );
  if (path === undefined) throw notFound;
  const segments = path.split('/').slice(2);
  if (segments.at(-1) === '') segments.pop();
  let decoded: string[];
  try {
    decoded = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    throw notFound;
  }
  const candidates = ROUTES.flatMap((r) => {
    const params = matchSegments(r.segments, decoded);
    return params ? [{ route: r, params }] : [];
  });
  if (candidates.length === 0) throw notFound;
  const match = candidates.find((c) => c.route.method === request.method);
  if (!match) {
    const allow = [...new Set(candidates.map((c) => c.route.method))].join(', ');
    throw new ServiceError(405, 'method_not_allowed', `${request.method} is not allowed here`, {
      headers: { allow },
    });
  }
  const { credentials } = store.config;
  const principal = match.route.legacy
    ? authenticateLegacy(request.headers, credentials)
    : authenticate(request.headers, credentials);
  return match.route.run({
    store,
    request,
    url,
    path,
    params: match.params,
    principal,
    now: Date.now(),
    bodyText,
  });
}

function matchSegments(
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
