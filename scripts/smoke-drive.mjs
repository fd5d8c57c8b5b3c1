// Why: one set of smoke checks for every runtime, node and edge alike.
import { STUB_API_KEY, STUB_MERCHANT_ID, startStubGateway } from './stub-gateway.mjs';

/** The mock service from the built testing entry when it has one, else the stub. */
export async function startSmokeServer() {
  const testing = await import('../dist/testing/index.js');
  if (typeof testing.createMockGateway === 'function') {
    const mock = testing.createMockGateway();
    const { url, close } = await mock.listen();
    return {
      kind: 'mock',
      url,
      close,
      apiKey: mock.credentials.apiKey,
      appId: mock.credentials.appId,
      clientId: mock.credentials.clientId,
      merchantId: mock.sample.merchantId,
      requests: () => mock.requests.length,
    };
  }
  const stub = await startStubGateway();
  return {
    kind: 'stub',
    url: stub.url,
    close: stub.close,
    apiKey: STUB_API_KEY,
    merchantId: STUB_MERCHANT_ID,
    requests: () => stub.count,
  };
}

/**
 * Drives payments.create, payments.get, merchants.create and a rejected create through one build
 * of the SDK against `server` ({ url, apiKey, merchantId, requests() }; requests() may return a
 * promise, as it does inside workerd). Self-contained, so the edge VM and the workerd bundle can
 * carry its source.
 */
export async function drive(sdk, server) {
  const assert = (condition, message) => {
    if (!condition) throw new Error(`assertion failed: ${message}`);
  };
  const { MerchantGateway, RequestValidationError } = sdk;
  const gateway = new MerchantGateway({ baseUrl: server.url, apiKey: server.apiKey });

  const first = await server.requests();
  const created = await gateway.payments.create({
    merchantId: server.merchantId,
    amount: { unit: 'iso4217/USD', value: '100' },
    referenceId: `smoke-${Date.now()}`,
  });
  assert(typeof created.paymentId === 'string' && created.paymentId !== '', 'paymentId');
  assert(typeof created.gatewayUrl === 'string', 'gatewayUrl');
  assert(typeof created.isFinal === 'boolean', 'isFinal');
  assert((await server.requests()) === first + 1, 'the create reached the server over HTTP');

  const view = await gateway.payments.get(created.paymentId);
  assert(typeof view.status === 'string', 'view.status');
  assert(typeof view.amount?.value === 'string', 'view.amount.value');

  const merchant = await gateway.merchants.create({
    merchantName: 'Smoke Shop',
    merchantEmail: 'smoke@shop.example',
  });
  assert(typeof merchant.id === 'string' && merchant.name === 'Smoke Shop', 'merchant');

  const before = await server.requests();
  const error = await gateway.payments
    .create({
      merchantId: server.merchantId,
      amount: { unit: 'USD', value: '1' },
      referenceId: 'x',
    })
    .then(
      () => undefined,
      (e) => e,
    );
  assert(error instanceof RequestValidationError, `a RequestValidationError, got ${error}`);
  assert((await server.requests()) === before, 'nothing is sent for invalid input');
}

/**
 * The buyer's entry (merchant-gateway/buyer) on the same runtime: `BuyerClient` with the public
 * App-Id + Client-Id scheme reads a payment the partner's client made and asks for its options
 * (the mock's sample merchant settles USDC on Base), and a bad account is refused before sending.
 * Self-contained like `drive`; skipped against the stub, which serves no buyer routes.
 */
export async function driveBuyer(sdk, entry, server) {
  const assert = (condition, message) => {
    if (!condition) throw new Error(`assertion failed (buyer entry): ${message}`);
  };
  if (server.appId === undefined) return;
  const partner = new sdk.MerchantGateway({ baseUrl: server.url, apiKey: server.apiKey });
  const created = await partner.payments.create({
    merchantId: server.merchantId,
    amount: { unit: 'iso4217/USD', value: '250' },
    referenceId: `smoke-buyer-${Date.now()}`,
  });
  const buyer = new entry.BuyerClient({
    baseUrl: server.url,
    appId: server.appId,
    clientId: server.clientId,
  });
  const view = await buyer.get(created.paymentId);
  assert(view.status === 'requires_action', `view.status ${view.status}`);
  const account = 'eip155:8453:0x1111111111111111111111111111111111111111';
  const quoted = await buyer.options(created.paymentId, { accounts: [account] });
  assert(quoted.options.length === 1, `one option, got ${quoted.options.length}`);
  assert(quoted.options[0].actions[0]?.type === 'walletRpc', 'a walletRpc action to sign');
  const before = await server.requests();
  const error = await buyer.options(created.paymentId, { accounts: ['not-caip10'] }).then(
    () => undefined,
    (e) => e,
  );
  assert(error instanceof entry.RequestValidationError, `a RequestValidationError, got ${error}`);
  assert((await server.requests()) === before, 'nothing is sent for an invalid account');
}

/**
 * Receiving webhooks with `entry` (merchant-gateway/webhooks, or the main entry, whose
 * verifier loads on first use): the service's published test vector verifies with the tolerance
 * off and is refused once altered, and a delivery signed at run time (Web Crypto, the scheme
 * written out here, not the SDK's signer) unwraps to its event, from a body with headers and from
 * a Fetch Request. Self-contained like `drive`: its source travels into the bundles.
 */
export async function driveWebhooks(entry) {
  const assert = (condition, message) => {
    if (!condition) throw new Error(`assertion failed (webhooks): ${message}`);
  };
  const vector = {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    body: '{"test": 2432232314}',
    headers: {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    },
  };
  const replay = new entry.Webhooks({ secret: vector.secret, toleranceSeconds: Infinity });
  await replay.verifySignature(vector.body, vector.headers);
  const altered = await replay.verifySignature('{"test": 2432232315}', vector.headers).then(
    () => undefined,
    (e) => e,
  );
  assert(altered instanceof entry.WebhookVerificationError, `altered body: ${altered}`);
  assert(altered.reason === 'invalid_signature', `altered body: ${altered.reason}`);

  const keyBytes = crypto.getRandomValues(new Uint8Array(24));
  const secret = `whsec_${btoa(String.fromCharCode(...keyBytes))}`;
  const snapshot = {
    payment_id: 'pay_smoke',
    merchant_id: 'merchant_smoke',
    live: false,
    payment_state_version: 2,
    reference_id: null,
    status: 'succeeded',
    amount: { unit: 'iso4217/USD', value: '1000' },
    created_at: '2026-06-30T09:59:00.084Z',
    expires_at: '2026-06-30T10:14:00.000Z',
    // A payment.succeeded implies its processing stage (docs/webhooks.md): without it, refused.
    processing: {
      processing_at: '2026-06-30T09:59:30.000Z',
      option_amount: {
        unit: 'caip19/eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        value: '10000000',
      },
      fee: null,
      settlement_amount: { unit: 'iso4217/USD', value: '971' },
      buyer_caip10: null,
      chain_caip2: 'eip155:8453',
    },
    success: { succeeded_at: '2026-06-30T10:00:00.271Z', tx_id: 'test:pay_smoke' },
    failed: null,
    cancelled: null,
    expired: null,
    settled: null,
  };
  const body = JSON.stringify({
    id: 'evt_smoke',
    type: 'payment.succeeded',
    api_version: '2026-05-18',
    created_at: '2026-06-30T10:00:00.271Z',
    data: snapshot,
  });
  const id = 'msg_smoke';
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = await crypto.subtle.importKey(
    'raw',
    keyBytes,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)),
  );
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${btoa(String.fromCharCode(...mac))}`,
  };
  const webhooks = new entry.Webhooks({ secret });
  const event = await webhooks.unwrap(new TextEncoder().encode(body), headers);
  assert(event.type === 'payment.succeeded', `event.type ${event.type}`);
  assert(event.data.success.tx_id === 'test:pay_smoke', 'the snapshot as sent');
  const request = new Request('https://shop.example/webhooks', { method: 'POST', body, headers });
  const fromRequest = await webhooks.unwrap(request);
  assert(fromRequest.id === 'evt_smoke', `unwrap(request): ${fromRequest.id}`);
}
