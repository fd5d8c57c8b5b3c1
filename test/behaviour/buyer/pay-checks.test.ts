// buyer.pay signs only what the option says (issue 37.2) and says so when the payment is final
// (37.8): the mock's own answers, each altered in one field on its way to the SDK (an msw override
// in front of the mock's handlers), and a signer spy that shows nothing was signed.
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { BaseError } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test, vi } from 'vitest';
import { BASE_URL, HttpResponse, http, payError, useMsw } from '../../support';

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const USDT_ETHEREUM = 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7';
const DESTINATION = '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
const OTHER = '0x1111111111111111111111111111111111111111';

const mock = createMockGateway();
const server = useMsw(...mock.handlers);
const gateway = () =>
  new MerchantGateway({ baseUrl: `${BASE_URL}/api`, apiKey: mock.credentials.apiKey });

interface TypedData {
  domain: Record<string, unknown>;
  types: Record<string, unknown>;
  primaryType: string;
  message: Record<string, unknown>;
}
interface Action {
  type: string;
  data: { chain_id?: string; method?: string; params?: unknown[]; data?: string };
}
type Tamper = (typed: TypedData) => void;

/** The typed data of a `walletRpc` action, altered by `tamper`, written back as JSON. */
function tamperAction(action: Action, tamper: Tamper): void {
  const params = action.data.params;
  if (action.type !== 'walletRpc' || !params) return;
  const typed = JSON.parse(params[1] as string) as TypedData;
  tamper(typed);
  params[1] = JSON.stringify(typed);
}

/** The mock answers options (and fetch), then `tamper` alters each signing action's typed data. */
function hostile(tamper: Tamper, options?: (actions: Action[]) => Action[]) {
  server.use(
    http.post('*/v1/gateway/payment/:id/options', async ({ request }) => {
      const body = (await (await mock.fetch(request)).json()) as {
        options: { actions: Action[] }[];
      };
      for (const option of body.options) {
        for (const action of option.actions) tamperAction(action, tamper);
        if (options) option.actions = options(option.actions);
      }
      return HttpResponse.json(body);
    }),
    http.post('*/v1/gateway/payment/:id/fetch', async ({ request }) => {
      const body = (await (await mock.fetch(request)).json()) as { actions: Action[] };
      for (const action of body.actions) tamperAction(action, tamper);
      return HttpResponse.json(body);
    }),
  );
}

/** A merchant settling in `asset`, and an open payment of USD 12.50 to it. */
async function openPayment(asset: string) {
  const client = gateway();
  const merchant = await client.merchants.create({
    merchantName: 'Careful Coffee',
    merchantEmail: 'careful@coffee.example',
  });
  const chain = asset.split('/')[0];
  await client.settlements.createCrypto(merchant.id, [
    { asset, destination: `${chain}:${DESTINATION}` },
  ]);
  const payment = await client.payments.create({
    merchantId: merchant.id,
    amount: { unit: 'iso4217/USD', value: '1250' },
    referenceId: `careful-${Math.random()}`,
  });
  return payment.paymentId;
}

/** A viem account whose signTypedData is a spy. */
function spiedAccount() {
  const inner = privateKeyToAccount(generatePrivateKey());
  const signTypedData = vi.fn((typed: Parameters<typeof inner.signTypedData>[0]) =>
    inner.signTypedData(typed),
  );
  return { account: { address: inner.address, signTypedData }, signTypedData };
}

describe('buyer.pay refuses an action that does not match its option, before any signature', () => {
  test.each<[string, string, Tamper, string, (account: string) => string]>([
    [
      'another chain in domain.chainId',
      USDC_BASE,
      (t) => {
        t.domain.chainId = '0x1';
      },
      'domain.chainId',
      () => '8453',
    ],
    [
      'a chain id of -1',
      USDC_BASE,
      (t) => {
        t.domain.chainId = -1;
      },
      'domain.chainId',
      () => '8453',
    ],
    [
      'another token contract',
      USDC_BASE,
      (t) => {
        t.domain.verifyingContract = OTHER;
      },
      'domain.verifyingContract',
      () => '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    ],
    [
      'another amount',
      USDC_BASE,
      (t) => {
        t.message.value = `0x${(12_500_000n * 100n).toString(16)}`;
      },
      'message.value',
      () => '12500000',
    ],
    [
      'another authorizer (EIP-3009 from)',
      USDC_BASE,
      (t) => {
        t.message.from = OTHER;
      },
      'message.from',
      (account) => account,
    ],
    [
      'another permit owner (EIP-2612, through fetch)',
      USDT_ETHEREUM,
      (t) => {
        t.message.owner = OTHER;
      },
      'message.owner',
      (account) => account,
    ],
    [
      "another token on the permit's fetch",
      USDT_ETHEREUM,
      (t) => {
        t.domain.verifyingContract = OTHER;
      },
      'domain.verifyingContract',
      () => '0xdac17f958d2ee523a2206206994597c13d831ec7',
    ],
  ])('%s', async (_, asset, tamper, field, expected) => {
    const paymentId = await openPayment(asset);
    hostile(tamper);
    const { account, signTypedData } = spiedAccount();

    const error = await payError(gateway().buyer.pay(paymentId, { account }));

    expect(error.reason).toBe('action_mismatch');
    expect(error.field).toBe(field);
    expect(error.expected).toBe(expected(account.address));
    expect(error.message).toContain(field);
    expect(error.message).toContain(expected(account.address));
    expect(error.message).toContain(String(error.actual));
    expect(signTypedData).not.toHaveBeenCalled();
    expect(mock.getPayment(paymentId)?.status).toBe('requires_action');
  });

  test('an option with 1,000 actions: refused at once, nothing fetched or signed', async () => {
    const paymentId = await openPayment(USDC_BASE);
    hostile(
      () => undefined,
      (actions) => Array.from({ length: 1000 }, () => actions[0] as Action),
    );
    const { account, signTypedData } = spiedAccount();
    const before = mock.requests.length;

    const error = await payError(gateway().buyer.pay(paymentId, { account }));

    expect(error.reason).toBe('too_many_actions');
    expect(error.message).toContain('1000');
    expect(error.message).toContain('8');
    expect(signTypedData).not.toHaveBeenCalled();
    expect(mock.requests.slice(before).map((r) => r.path.split('/').at(-1))).toStrictEqual([
      'options',
    ]);
  });

  test("the account's own error (viem on an unknown primary type) comes back as a PayError with its cause", async () => {
    const paymentId = await openPayment(USDC_BASE);
    hostile((t) => {
      t.primaryType = 'Mystery';
    });
    const { account, signTypedData } = spiedAccount();

    const error = await payError(gateway().buyer.pay(paymentId, { account }));

    expect(error.reason).toBe('signing_failed');
    expect(error.cause).toBeInstanceOf(BaseError);
    expect(error.message).toContain('Mystery');
    expect(signTypedData).toHaveBeenCalledTimes(1);
    expect(mock.getPayment(paymentId)?.status).toBe('requires_action');
  });

  test('the options as the mock answers them are signed and paid', async () => {
    const paymentId = await openPayment(USDT_ETHEREUM);
    const { account, signTypedData } = spiedAccount();
    const confirmed = await gateway().buyer.pay(paymentId, { account });
    expect(confirmed.status).toBe('processing');
    expect(signTypedData).toHaveBeenCalledTimes(1);
  });
});

describe('buyer.pay on a payment that is no longer open', () => {
  test.each(['succeeded', 'cancelled', 'processing'] as const)(
    'says the payment is %s, not that the merchant takes no token',
    async (status) => {
      const paymentId = await openPayment(USDC_BASE);
      mock.setPaymentStatus(paymentId, status);
      const { account, signTypedData } = spiedAccount();

      const error = await payError(gateway().buyer.pay(paymentId, { account, chainId: 8453 }));

      expect(error.reason).toBe('payment_not_open');
      expect(error.status).toBe(status);
      expect(error.message).toContain(status);
      expect(error.message).not.toContain('merchant takes no token');
      expect(signTypedData).not.toHaveBeenCalled();
    },
  );
});
