/**
 * The control API under `/__mock/`, over real HTTP: each route the twin of a mock method, so a
 * service in any language drives the mock with the same partner `Api-Key` as `/v1`. Control calls
 * are not service traffic: they are not recorded in `mock.requests` and queued faults skip them.
 */
import { PAYMENT_STATUSES } from '../../../rules/payments';
import type {
  FailNextOptions,
  KnownPaymentStatus,
  MockAdvanceOptions,
  MockGateway,
} from '../../types';
import { shapeIssue } from '../http/control-input';
import { faultIssues } from '../http/fault-responses';
import { MAX_BODY_BYTES, payloadTooLarge, readBoundedText } from '../http/request-body';
import { throwIfIssues } from '../http/request-context';
import { errorResponse, type Issue, json, ServiceError, validationError } from '../http/responses';
import { matchSegments } from '../http/router';
import { paymentNotFound } from '../resources/payments';

const STATUS_LIST = PAYMENT_STATUSES.join(', ');

/**
 * A payment as the control API answers it: `paymentId` first, as every SDK type names it; `id`
 * (the mock's own state field, what `mock.getPayment` gives) is kept for clients written against it.
 */
function paymentAnswer<P extends { id: string }>(payment: P): { paymentId: string } & P {
  return { paymentId: payment.id, ...payment };
}

interface ControlRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Segments after `/__mock/`; `:` marks a parameter. */
  segments: string[];
  run(
    mock: MockGateway,
    input: { params: string[]; query: URLSearchParams; body: unknown },
  ): Response;
}

const control = (method: ControlRoute['method'], path: string, run: ControlRoute['run']) => ({
  method,
  segments: path.split('/'),
  run,
});

const ROUTES: readonly ControlRoute[] = [
  control('POST', 'reset', (mock) => {
    mock.reset();
    return new Response(null, { status: 204 });
  }),
  control('POST', 'payments/advance', (mock, { body }) => {
    const options = advanceOptions(mock, objectBody(body));
    const inScope = () =>
      mock
        .payments(options.merchantId)
        .filter((p) => options.paymentIds === undefined || options.paymentIds.includes(p.id));
    const before = new Map(inScope().map((p) => [p.id, p.status]));
    const moved = mock.advancePayments(options);
    // Ids only: the payments themselves (GET /__mock/payments/{id}) would be ~600 bytes each.
    const paymentIds = inScope()
      .filter((p) => before.get(p.id) !== p.status)
      .map((p) => p.id)
      .sort();
    return json(200, { moved, paymentIds });
  }),
  control('POST', 'payments/:id/status', (mock, { params: [id = ''], body }) => {
    const { status } = objectBody(body);
    if (typeof status !== 'string' || !(PAYMENT_STATUSES as readonly string[]).includes(status)) {
      throw validationError([{ field: 'status', message: `must be one of ${STATUS_LIST}` }]);
    }
    if (!mock.getPayment(id)) throw paymentNotFound(id);
    mock.setPaymentStatus(id, status as KnownPaymentStatus);
    const payment = mock.getPayment(id);
    return json(200, payment && paymentAnswer(payment));
  }),
  control('GET', 'payments/:id', (mock, { params: [id = ''] }) => {
    const payment = mock.getPayment(id);
    if (!payment) throw paymentNotFound(id);
    return json(200, paymentAnswer(payment));
  }),
  control('GET', 'merchants/:id', (mock, { params: [id = ''] }) => {
    const merchant = mock.getMerchant(id);
    if (!merchant) {
      throw new ServiceError(404, 'merchant_not_found', `Merchant ${id} not found`, {
        details: { merchantId: id },
      });
    }
    return json(200, merchant);
  }),
  control('POST', 'faults', (mock, { body }) => {
    mock.failNext(faultBody(objectBody(body)));
    return new Response(null, { status: 204 });
  }),
  control('POST', 'webhooks', (mock, { body }) => {
    const { url, secret, types } = objectBody(body);
    try {
      const endpoint = mock.webhooks.add({
        url: url as string,
        ...(secret === undefined ? {} : { secret: secret as string }),
        ...(types === undefined ? {} : { types: types as string[] }),
      });
      return json(201, endpoint);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      // "webhook endpoint: url must be …": the field is the first word after the colon.
      const message = error.message.replace(/^webhook endpoint: /, '');
      const field = /^(\w+) /.exec(message)?.[1] ?? 'body';
      throw validationError([{ field, message: message.slice(field.length + 1) }]);
    }
  }),
  control('GET', 'webhooks', (mock) => json(200, { data: mock.webhooks.list() })),
  control('DELETE', 'webhooks/:id', (mock, { params: [id = ''] }) => {
    if (!mock.webhooks.remove(id)) throw noEndpoint(id);
    return new Response(null, { status: 204 });
  }),
  control('GET', 'webhooks/deliveries', (mock, { query }) => {
    const limit = query.get('limit');
    if (limit !== null && !/^\d{1,9}$/.test(limit)) {
      throw validationError([{ field: 'limit', message: 'must be a whole number >= 0' }]);
    }
    const deliveries = mock.webhooks.deliveries();
    return json(200, {
      data: limit === null ? deliveries : deliveries.slice(deliveries.length - Number(limit)),
    });
  }),
  control('POST', 'webhooks/deliveries/:id/resend', (mock, { params: [id = ''] }) => {
    const delivery = mock.webhooks.resend(id);
    if (!delivery) {
      throw new ServiceError(404, 'not_found', `No webhook delivery ${id}`, {
        details: { deliveryId: id },
      });
    }
    return json(202, delivery);
  }),
  control('GET', 'requests', (mock, { query }) => {
    const limit = query.get('limit');
    if (limit !== null && !/^\d{1,9}$/.test(limit)) {
      throw validationError([{ field: 'limit', message: 'must be a whole number >= 0' }]);
    }
    const { requests } = mock;
    return json(200, limit === null ? requests : requests.slice(requests.length - Number(limit)));
  }),
];

/**
 * Answers `{prefix}/__mock/{rest}`: 401 without the partner `Api-Key`, 404 for an unknown route or
 * id, 405 for a known route and another method, 400 for a bad body, in the service's error shape.
 */
export async function handleControl(
  mock: MockGateway,
  request: Request,
  rest: string,
  query: URLSearchParams,
): Promise<Response> {
  try {
    checkApiKey(request.headers, mock.credentials.apiKey);
    let segments: string[];
    try {
      segments = rest.split('/').map(decodeURIComponent);
    } catch {
      throw noRoute(request, rest);
    }
    if (segments.at(-1) === '') segments.pop();
    const candidates = ROUTES.flatMap((route) => {
      const params = matchSegments(route.segments, segments);
      return params ? [{ route, params }] : [];
    });
    const found = candidates.find((c) => c.route.method === request.method);
    if (!found) {
      if (candidates.length === 0) throw noRoute(request, rest);
      const allow = [...new Set(candidates.map((c) => c.route.method))].join(', ');
      throw new ServiceError(405, 'method_not_allowed', `${request.method} is not allowed here`, {
        headers: { allow },
      });
    }
    let body: unknown;
    if (request.method === 'POST') {
      // Bounded like the service routes: the key is checked above, and no body buffers past 1 MiB.
      const text = await readBoundedText(request);
      if (text === undefined) throw payloadTooLarge(MAX_BODY_BYTES);
      body = parseJson(text);
    }
    return found.route.run(mock, { params: found.params, query, body });
  } catch (error) {
    if (error instanceof ServiceError) return errorResponse(error);
    throw error;
  }
}

function checkApiKey(headers: Headers, apiKey: string): void {
  const given = headers.get('api-key');
  if (!given) {
    throw new ServiceError(401, 'missing_api_key', 'The control API needs the partner Api-Key');
  }
  if (given !== apiKey) throw new ServiceError(401, 'invalid_api_key', 'Invalid API key');
}

function noEndpoint(id: string): ServiceError {
  return new ServiceError(404, 'not_found', `No webhook endpoint ${id}`, {
    details: { endpointId: id },
  });
}

function noRoute(request: Request, rest: string): ServiceError {
  return new ServiceError(
    404,
    'not_found',
    `No control route for ${request.method} /__mock/${rest}`,
  );
}

/**
 * An empty body reads as `{}`: `POST /__mock/reset` and `…/advance` need none. Every body is
 * checked when given: no key naming a prototype, no nesting past a sane depth.
 */
function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw validationError([{ field: 'body', message: 'must be valid JSON' }]);
  }
  const issue = shapeIssue(body, 'body');
  // A field of the body is named as the routes name it: `headers.x`, not `body.headers.x`.
  if (issue) throw validationError([{ ...issue, field: issue.field.replace(/^body\./, '') }]);
  return body;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError([{ field: 'body', message: 'must be a JSON object' }]);
  }
  return body as Record<string, unknown>;
}

/** `{ path?, merchantId?, paymentIds? }`: 400 naming a bad field, 404 for an unknown id. */
function advanceOptions(mock: MockGateway, body: Record<string, unknown>): MockAdvanceOptions {
  const { merchantId, paymentIds } = body;
  const issues: Issue[] = [];
  if (merchantId !== undefined && (typeof merchantId !== 'string' || merchantId === '')) {
    issues.push({ field: 'merchantId', message: 'must be a merchant id' });
  }
  if (
    paymentIds !== undefined &&
    !(Array.isArray(paymentIds) && paymentIds.every((id) => typeof id === 'string' && id !== ''))
  ) {
    issues.push({ field: 'paymentIds', message: 'must be an array of payment ids' });
  }
  if (issues.length > 0) throw validationError(issues);
  const path = advancePath(body);
  if (typeof merchantId === 'string' && !mock.getMerchant(merchantId)) {
    throw new ServiceError(404, 'merchant_not_found', `Merchant ${merchantId} not found`, {
      details: { merchantId },
    });
  }
  const ids = paymentIds as string[] | undefined;
  const unknown = ids?.find((id) => !mock.getPayment(id));
  if (unknown !== undefined) throw paymentNotFound(unknown);
  return {
    ...(path === undefined ? {} : { path }),
    ...(typeof merchantId === 'string' ? { merchantId } : {}),
    ...(ids === undefined ? {} : { paymentIds: ids }),
  };
}

function advancePath(body: Record<string, unknown>): KnownPaymentStatus[] | undefined {
  const { path } = body;
  if (path === undefined) return undefined;
  const known = (s: unknown) => (PAYMENT_STATUSES as readonly unknown[]).includes(s);
  if (!Array.isArray(path) || path.length < 2 || !path.every(known)) {
    throw validationError([
      { field: 'path', message: `must be an array of two or more of ${STATUS_LIST}` },
    ]);
  }
  return path as KnownPaymentStatus[];
}

type FieldType = 'number' | 'string' | 'boolean' | 'object';

/** What `failNext` takes, as JSON: `match.path` is a substring (JSON has no RegExp). */
const FAULT_FIELDS: Record<keyof FailNextOptions, readonly FieldType[]> = {
  status: ['number'],
  code: ['string'],
  message: ['string'],
  times: ['number'],
  retryAfter: ['number', 'string'],
  body: ['string', 'object'],
  headers: ['object'],
  networkError: ['boolean'],
  delayMs: ['number'],
  match: ['object'],
};

function faultBody(body: Record<string, unknown>): FailNextOptions {
  const issues: Issue[] = [];
  for (const [field, value] of Object.entries(body)) {
    const types = Object.hasOwn(FAULT_FIELDS, field)
      ? FAULT_FIELDS[field as keyof FailNextOptions]
      : undefined;
    if (!types) issues.push({ field, message: 'is not a field of failNext' });
    else if (!(types as readonly string[]).includes(typeOf(value))) {
      issues.push({ field, message: `must be a ${types.join(' or ')}` });
    }
  }
  // Header names and values are checked with the rest of the fault, by faultIssues.
  const { match: where } = body;
  if (isObject(where)) {
    for (const [field, value] of Object.entries(where)) {
      if (field !== 'method' && field !== 'path') {
        issues.push({ field: `match.${field}`, message: 'is not a field of match (method, path)' });
      } else if (typeof value !== 'string') {
        issues.push({ field: `match.${field}`, message: 'must be a string' });
      }
    }
  }
  if (issues.length > 0) throw validationError(issues);
  const fault = body as FailNextOptions;
  throwIfIssues(faultIssues(fault));
  return fault;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): FieldType | 'other' {
  if (isObject(value) || Array.isArray(value)) return 'object';
  const type = typeof value;
  return type === 'number' || type === 'string' || type === 'boolean' ? type : 'other';
}
