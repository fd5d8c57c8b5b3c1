// The web process: takes an order, creates its payment, and hands the payment to the workers as
// one pg-boss job. It never follows a payment itself, so it stays fast and can run many copies.
//
//   POST /orders             { orderId, amount: { unit, value }, expiresInSeconds? }
//                            → 201 { orderId, paymentId, gatewayUrl, enqueued }
//   POST /orders/{id}/cancel → 200 { orderId, status }  (409 once the payment is final)
//   GET  /orders/{id}        → 200 { orderId, paymentId, status, finishedAt }
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ApiError, MerchantGateway, RequestValidationError } from 'merchant-gateway';
import { readConfig } from './config';
import { connect, type FollowJob, log } from './db';
import { startTracing, traceparent } from './tracing';

const ORDER_ID = /^[A-Za-z0-9-]{3,35}$/;

class BadRequest extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const config = readConfig();
// Base URL and key from MERCHANT_GATEWAY_BASE_URL and MERCHANT_GATEWAY_API_KEY.
const merchantId = requireEnv('MERCHANT_ID');
const { telemetry, tracer } = startTracing('web');
const gateway = new MerchantGateway({ merchantId, telemetry });
const { boss, pool } = await connect(config, 'web');

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is required`);
  return value;
}

/** One span per order placed: its payments.create is a child, its job carries it to a worker. */
function placeOrder(body: Record<string, unknown>): Promise<[number, object]> {
  return tracer.startActiveSpan('order.place', async (span) => {
    try {
      return await placeTraced(body);
    } finally {
      span.end();
    }
  });
}

async function placeTraced(body: Record<string, unknown>): Promise<[number, object]> {
  const { orderId, amount, expiresInSeconds } = body;
  if (typeof orderId !== 'string' || !ORDER_ID.test(orderId)) {
    return [400, { error: 'orderId must be 3 to 35 letters, digits or dashes' }];
  }
  if (
    expiresInSeconds !== undefined &&
    !(Number.isSafeInteger(expiresInSeconds) && Number(expiresInSeconds) > 0)
  ) {
    return [400, { error: 'expiresInSeconds must be a whole number of seconds > 0' }];
  }
  // The key comes from the order: a retried request gets the payment the first one created.
  const payment = await gateway.payments
    .create(
      {
        amount: amount as { unit: string; value: string },
        referenceId: orderId,
        ...(expiresInSeconds === undefined
          ? {}
          : { expiresAt: Math.floor(Date.now() / 1000) + Number(expiresInSeconds) }),
      },
      { idempotencyKey: `order-${orderId}` },
    )
    .catch((error: unknown) => {
      // The same order id with another amount: the service refuses to reuse the key.
      if (error instanceof ApiError && error.status === 409)
        throw new BadRequest(error.message, 409);
      throw error;
    });
  // Each step is safe to repeat: a client that got no 201 sends the order again, and gets the
  // same payment, the same row and at most one live job.
  await pool.query(
    'INSERT INTO orders (id, payment_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING',
    [orderId, payment.paymentId],
  );
  const job: FollowJob = {
    orderId,
    paymentId: payment.paymentId,
    merchantId,
    traceparent: traceparent(),
  };
  // null when a job for this payment is already queued or being followed (the queue's policy).
  const jobId = await boss.send(config.queue, job, { singletonKey: payment.paymentId });
  log('web', 'order_placed', { orderId, paymentId: payment.paymentId, enqueued: jobId !== null });
  return [
    201,
    {
      orderId,
      paymentId: payment.paymentId,
      gatewayUrl: payment.gatewayUrl,
      enqueued: jobId !== null,
    },
  ];
}

async function cancelOrder(orderId: string): Promise<[number, object]> {
  const { rows } = await pool.query<{ payment_id: string | null }>(
    'SELECT payment_id FROM orders WHERE id = $1',
    [orderId],
  );
  const paymentId = rows[0]?.payment_id;
  if (paymentId == null) return [404, { error: `no order ${orderId}` }];
  try {
    const cancelled = await gateway.payments.cancel(
      paymentId,
      {},
      { idempotencyKey: `cancel-${orderId}` },
    );
    // The worker following it sees the change and records it: one writer for outcomes.
    return [200, { orderId, status: cancelled.status }];
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      return [409, { error: `order ${orderId} can no longer be cancelled: ${error.code}` }];
    }
    throw error;
  }
}

async function readOrder(orderId: string): Promise<[number, object]> {
  const { rows } = await pool.query<{
    payment_id: string | null;
    status: string | null;
    finished_at: Date | null;
  }>('SELECT payment_id, status, finished_at FROM orders WHERE id = $1', [orderId]);
  const row = rows[0];
  if (row === undefined) return [404, { error: `no order ${orderId}` }];
  return [
    200,
    { orderId, paymentId: row.payment_id, status: row.status, finishedAt: row.finished_at },
  ];
}

async function route(request: IncomingMessage): Promise<[number, object]> {
  const url = new URL(request.url ?? '/', 'http://web.local');
  const [, resource, id, action] = url.pathname.split('/');
  if (resource !== 'orders') return [404, { error: 'not found' }];
  if (request.method === 'POST' && id === undefined) return placeOrder(await readJson(request));
  if (request.method === 'POST' && id !== undefined && action === 'cancel') return cancelOrder(id);
  if (request.method === 'GET' && id !== undefined && action === undefined) return readOrder(id);
  return [404, { error: 'not found' }];
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) {
    text += chunk;
    if (text.length > 16_384) throw new BadRequest('the body is over 16 KiB');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BadRequest('the body is not JSON');
  }
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

function reply(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const server = createServer((request, response) => {
  route(request).then(
    ([status, body]) => reply(response, status, body),
    (error: unknown) => {
      // Bad input names its field and rule (the SDK checks the payment before sending it).
      if (error instanceof RequestValidationError || error instanceof BadRequest) {
        reply(response, error instanceof BadRequest ? error.status : 400, { error: error.message });
        return;
      }
      // The SDK's errors carry no key; log the message, answer without details.
      log('web', 'error', { message: error instanceof Error ? error.message : String(error) });
      reply(response, 502, { error: 'the order could not be placed, retry it' });
    },
  );
});
server.listen(config.webPort, config.webHost, () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.webPort;
  const host = config.webHost === '0.0.0.0' ? '127.0.0.1' : config.webHost;
  log('web', 'listening', { url: `http://${host}:${port}` });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    // Stopping pg-boss waits for its in-flight statements; the pool goes after it.
    void boss.stop({ graceful: true, timeout: 5000 }).finally(() => pool.end());
  });
}
