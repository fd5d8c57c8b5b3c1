// Provokes every error class the SDK throws, against the embedded mock, and says what to do about
// each. Run: npx tsx examples/error-handling.ts
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  MerchantGateway,
  NotFoundError,
  RateLimitedError,
  RequestValidationError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';

const USDC_ON_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const WALLET = 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';

const mock = createMockGateway();
const server = await mock.listen();
// maxRetries: 0 so each fault surfaces at once; in production keep the default retries.
const gateway = new MerchantGateway({
  baseUrl: server.url,
  apiKey: mock.credentials.apiKey,
  maxRetries: 0,
});
const merchantId = mock.sample.merchantId;

/** Runs `call`, expects it to throw `expected`, and prints the class, the detail and the advice. */
async function expectError(
  expected: abstract new (...args: never[]) => Error,
  call: () => Promise<unknown>,
  advice: string,
): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof expected)) throw error;
    const detail = error instanceof ApiError ? ` [${error.status} ${error.code ?? 'no code'}]` : '';
    console.log(`${error.name}${detail}: ${error.message}`);
    console.log(`  -> ${advice}`);
    return;
  }
  throw new Error(`expected ${expected.name}, but the call succeeded`);
}

try {
  await expectError(
    RequestValidationError,
    () => gateway.merchants.create({ merchantName: 'Acme', merchantEmail: 'not-an-email' }),
    'fix the input (error.issues lists each field); nothing was sent',
  );
  await expectError(
    AuthenticationError,
    () => gateway.withOptions({ apiKey: 'sk_wrong' }).merchants.get(merchantId),
    'check the API key and the base URL it belongs to; not retried',
  );
  await expectError(
    NotFoundError,
    () => gateway.merchants.get('mer_does_not_exist'),
    'the id is wrong or belongs to another partner; not retried',
  );
  // The sample merchant already settles USDC on Base: a second destination for it conflicts.
  await expectError(
    ConflictError,
    () =>
      gateway.settlements.createCrypto(merchantId, [{ asset: USDC_ON_BASE, destination: WALLET }]),
    'the asset already has a destination (or an idempotency key was reused with another body)',
  );
  mock.failNext({ status: 429, retryAfter: 120 });
  await expectError(
    RateLimitedError,
    () => gateway.merchants.get(merchantId),
    'slow down: wait error.retryAfterMs; shorter waits (<= maxRetryDelayMs) are retried for you',
  );
  mock.failNext({ status: 502, body: '<html>Bad gateway</html>' });
  await expectError(
    ServerError,
    () => gateway.merchants.get(merchantId),
    'a service or proxy fault: retried with backoff by default; quote error.requestId to support',
  );
  mock.failNext({ delayMs: 1_000 });
  await expectError(
    TimeoutError,
    () => gateway.merchants.get(merchantId, { timeoutMs: 100 }),
    'the attempt took longer than timeoutMs: retried by default; raise timeoutMs if it persists',
  );
  mock.failNext({ networkError: true });
  await expectError(
    ConnectionError,
    () => gateway.merchants.get(merchantId),
    'the network failed (DNS, TLS, reset): retried by default; check connectivity and baseUrl',
  );
  mock.failNext({ status: 200, body: { merchant: { id: 42 } } });
  await expectError(
    ResponseValidationError,
    () => gateway.merchants.get(merchantId),
    'the service answered outside the contract: update the SDK or report error.issues',
  );
  console.log('Every error class was raised and caught.');
} finally {
  await server.close();
}
