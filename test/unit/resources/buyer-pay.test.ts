import {
  type BuyerAccount,
  type BuyerPayParams,
  RequestValidationError,
  type TypedDataToSign,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { type Hex, recoverTypedDataAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { gateway, payError, useMsw } from '../../support';
import {
  GATEWAY,
  option,
  optionsBody,
  PAYMENT_ID,
  processing,
  receiveWithAuthorization,
  signAction,
} from '../../support/buyer-fixtures';

const server = useMsw();

interface Seen {
  path: string;
  body: unknown;
}

/** The service: options, fetch and confirm answered as given; every request recorded in order. */
function service({
  options,
  fetched = [],
}: {
  options: (accounts: string[]) => unknown[];
  fetched?: unknown[];
}): Seen[] {
  const seen: Seen[] = [];
  const record = async (request: Request) => {
    const body = (await request.json()) as Record<string, unknown>;
    seen.push({ path: new URL(request.url).pathname.split('/').at(-1) ?? '', body });
    return body;
  };
  server.use(
    http.post(`${GATEWAY}/options`, async ({ request }) => {
      const body = await record(request);
      return HttpResponse.json(optionsBody(options(body.accounts as string[])));
    }),
    http.post(`${GATEWAY}/fetch`, async ({ request }) => {
      await record(request);
      return HttpResponse.json({ actions: fetched });
    }),
    http.post(`${GATEWAY}/confirm`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(processing);
    }),
  );
  return seen;
}

const newAccount = () => privateKeyToAccount(generatePrivateKey());
const signatures = (seen: Seen[]) => {
  const confirm = seen.find((s) => s.path === 'confirm')?.body as
    | { results: { data: Hex[] }[] }
    | undefined;
  return (confirm?.results ?? []).map((r) => r.data[0] as Hex);
};
const sentOption = (request: Seen | undefined) =>
  (request?.body as { optionId?: string } | undefined)?.optionId;

/** The address that signed `signature` over the fixture's typed data for `from`. */
function signer(from: string, signature: Hex) {
  const typed = JSON.parse(receiveWithAuthorization(from));
  return recoverTypedDataAddress({ ...typed, signature });
}

describe('buyer.pay with a viem account', () => {
  it('signs the EIP-712 action with the account and confirms with the signature', async () => {
    const account = newAccount();
    const seen = service({ options: () => [option(account.address)] });
    const result = await gateway().buyer.pay(PAYMENT_ID, { account, chainId: 'eip155:8453' });
    expect(result.status).toBe('processing');
    expect(seen.map((s) => s.path)).toStrictEqual(['options', 'confirm']);
    expect(seen[0]?.body).toStrictEqual({ accounts: [`eip155:8453:${account.address}`] });
    const [signature] = signatures(seen);
    expect(await signer(account.address, signature as Hex)).toBe(account.address);
    expect(sentOption(seen[1])).toBe('opt_usdc_base');
  });

  it('without chainId offers the account on the usual EVM chains and takes the first option', async () => {
    const account = newAccount();
    const seen = service({
      options: (accounts) =>
        accounts
          .filter((a) => a.startsWith('eip155:10:') || a.startsWith('eip155:8453:'))
          .map((a, i) =>
            option(account.address, { id: `opt_${i}`, chain: a.split(':').slice(0, 2).join(':') }),
          ),
    });
    await gateway().buyer.pay(PAYMENT_ID, { account });
    const accounts = (seen[0]?.body as { accounts?: string[] } | undefined)?.accounts;
    expect(accounts).toContain(`eip155:8453:${account.address}`);
    expect(accounts).toContain(`eip155:1:${account.address}`);
    expect(sentOption(seen.at(-1))).toBe('opt_0');
  });

  it('takes an EVM chain id as a number, and the option on that chain', async () => {
    const account = newAccount();
    const seen = service({
      options: () => [
        option(account.address, { id: 'opt_op', chain: 'eip155:10' }),
        option(account.address, { id: 'opt_base', chain: 'eip155:8453' }),
      ],
    });
    await gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 });
    expect(seen[0]?.body).toStrictEqual({ accounts: [`eip155:8453:${account.address}`] });
    expect(sentOption(seen.at(-1))).toBe('opt_base');
  });

  it('pays with the option named by optionId', async () => {
    const account = newAccount();
    const seen = service({
      options: () => [
        option(account.address, { id: 'opt_first' }),
        option(account.address, { id: 'opt_second' }),
      ],
    });
    await gateway().buyer.pay(PAYMENT_ID, { account, optionId: 'opt_second' });
    expect(sentOption(seen.at(-1))).toBe('opt_second');
  });

  it('turns a build action into its wallet RPC actions through fetch, then confirms every signature in order', async () => {
    const account = newAccount();
    const seen = service({
      options: () => [
        option(account.address, {
          id: 'opt_usdt',
          actions: [
            signAction(account.address),
            { type: 'build', data: { data: 'permit-please' } },
          ],
        }),
      ],
      fetched: [signAction(account.address)],
    });
    await gateway().buyer.pay(PAYMENT_ID, { account, chainId: 'eip155:8453' });
    expect(seen.map((s) => s.path)).toStrictEqual(['options', 'fetch', 'confirm']);
    expect(seen[1]?.body).toStrictEqual({ optionId: 'opt_usdt', data: 'permit-please' });
    const sent = signatures(seen);
    expect(sent).toHaveLength(2);
    for (const signature of sent)
      expect(await signer(account.address, signature)).toBe(account.address);
  });

  it('hands the account typed data without EIP712Domain and with a numeric chainId', async () => {
    const seenTypedData: TypedDataToSign[] = [];
    const inner = newAccount();
    const account: BuyerAccount = {
      address: inner.address.toLowerCase(),
      signTypedData: (typedData) => {
        seenTypedData.push(typedData);
        return inner.signTypedData(typedData as Parameters<typeof inner.signTypedData>[0]);
      },
    };
    service({ options: () => [option(inner.address)] });
    await gateway().buyer.pay(PAYMENT_ID, { account, chainId: 'eip155:8453' });
    expect(Object.keys(seenTypedData[0]?.types ?? {})).toStrictEqual(['ReceiveWithAuthorization']);
    expect(seenTypedData[0]?.domain.chainId).toBe(8453);
    expect(seenTypedData[0]?.primaryType).toBe('ReceiveWithAuthorization');
  });

  it('hands a chainId past the safe integers as a bigint', async () => {
    const inner = newAccount();
    const seenTypedData: TypedDataToSign[] = [];
    const account: BuyerAccount = {
      address: inner.address,
      signTypedData: async (typedData) => {
        seenTypedData.push(typedData);
        return `0x${'11'.repeat(65)}`;
      },
    };
    const chain = 'eip155:18446744073709551616';
    service({ options: () => [option(inner.address, { chain })] });
    await gateway().buyer.pay(PAYMENT_ID, { account, chainId: chain });
    expect(seenTypedData[0]?.domain.chainId).toBe(18_446_744_073_709_551_616n);
  });
});

describe('buyer.pay stops before confirming', () => {
  it.each(['eth_sendTransaction', 'personal_sign'])(
    'on a wallet RPC method it cannot perform (%s), naming it',
    async (method) => {
      const account = newAccount();
      const seen = service({
        options: () => [
          option(account.address, { actions: [signAction(account.address, method)] }),
        ],
      });
      const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
      expect(error.reason).toBe('unsupported_action');
      expect(error.method).toBe(method);
      expect(error.message).toContain(method);
      expect(error.optionId).toBe('opt_usdc_base');
      expect(seen.map((s) => s.path)).toStrictEqual(['options']);
    },
  );

  it('on an action type it does not know, even after a signable one', async () => {
    const account = newAccount();
    const seen = service({
      options: () => [
        option(account.address, {
          actions: [
            signAction(account.address),
            { type: 'redirect', data: { url: 'https://x.example' } },
          ],
        }),
      ],
    });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
    expect(error.reason).toBe('unsupported_action');
    expect(error.message).toContain('"redirect"');
    expect(seen.map((s) => s.path)).toStrictEqual(['options']);
  });

  it('on a build that answers an action it cannot perform', async () => {
    const account = newAccount();
    const seen = service({
      options: () => [
        option(account.address, { actions: [{ type: 'build', data: { data: 'd' } }] }),
      ],
      fetched: [signAction(account.address, 'eth_sendTransaction')],
    });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
    expect(error.method).toBe('eth_sendTransaction');
    expect(seen.map((s) => s.path)).toStrictEqual(['options', 'fetch']);
  });

  it('when no option is for the account, with a clear error', async () => {
    const account = newAccount();
    const other = newAccount();
    const seen = service({ options: () => [option(other.address)] });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
    expect(error.reason).toBe('no_option');
    expect(error.message).toContain(account.address.toLowerCase());
    expect(error.message).toContain('eip155:8453');
    expect(seen).toHaveLength(1);
  });

  it('when the service offers no option at all', async () => {
    const account = newAccount();
    service({ options: () => [] });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account }));
    expect(error.reason).toBe('no_option');
    expect(error.message).toContain('offered 0');
  });

  it('when the option named by optionId is not offered', async () => {
    const account = newAccount();
    service({ options: () => [option(account.address)] });
    const error = await payError(
      gateway().buyer.pay(PAYMENT_ID, { account, optionId: 'opt_gone' }),
    );
    expect(error.reason).toBe('no_option');
  });

  it('when an action asks another address to sign', async () => {
    const account = newAccount();
    const other = newAccount();
    const seen = service({
      options: () => [option(account.address, { actions: [signAction(other.address)] })],
    });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
    expect(error.reason).toBe('account_mismatch');
    expect(error.message).toContain(other.address);
    expect(seen.map((s) => s.path)).toStrictEqual(['options']);
  });

  it.each([
    ['not JSON', 'not json'],
    ['JSON without a domain', JSON.stringify({ types: {}, primaryType: 'X', message: {} })],
  ])('when the typed data is %s', async (_, raw) => {
    const account = newAccount();
    const action = signAction(account.address, 'eth_signTypedData_v4', 'eip155:8453', raw);
    service({ options: () => [option(account.address, { actions: [action] })] });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
    expect(error.reason).toBe('invalid_action');
  });

  it('when a build resolves to more wallet RPC actions than pay performs, signing none', async () => {
    const inner = newAccount();
    let signed = 0;
    const account: BuyerAccount = {
      address: inner.address,
      signTypedData: (typedData) => {
        signed++;
        return inner.signTypedData(typedData as Parameters<typeof inner.signTypedData>[0]);
      },
    };
    const seen = service({
      options: () => [
        option(inner.address, { actions: [{ type: 'build', data: { data: 'many' } }] }),
      ],
      fetched: Array.from({ length: 9 }, () => signAction(inner.address)),
    });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
    expect(error.reason).toBe('too_many_actions');
    expect(signed).toBe(0);
    expect(seen.map((s) => s.path)).toStrictEqual(['options', 'fetch']);
  });

  it('when the option is not in an ERC-20 on its own chain, naming the unit', async () => {
    const account = newAccount();
    const native = {
      ...option(account.address),
      amount: { ...option(account.address).amount, unit: 'caip19/eip155:8453/slip44:60' },
    };
    const seen = service({ options: () => [native] });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
    expect(error.reason).toBe('action_mismatch');
    expect(error.field).toBe('amount.unit');
    expect(error.message).toContain('slip44:60');
    expect(seen.map((s) => s.path)).toStrictEqual(['options']);
  });

  it('when the account throws while signing, with its error as the cause', async () => {
    const declined = new Error('User rejected the request.');
    const account: BuyerAccount = {
      address: newAccount().address,
      signTypedData: async () => {
        throw declined;
      },
    };
    const seen = service({ options: () => [option(account.address)] });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
    expect(error.reason).toBe('signing_failed');
    expect(error.cause).toBe(declined);
    expect(error.message).toContain('User rejected the request.');
    expect(seen.map((s) => s.path)).toStrictEqual(['options']);
  });

  it('when the account returns something other than a hex signature', async () => {
    const inner = newAccount();
    const account: BuyerAccount = { address: inner.address, signTypedData: async () => 'not-hex' };
    const seen = service({ options: () => [option(inner.address)] });
    const error = await payError(gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453 }));
    expect(error.reason).toBe('invalid_action');
    expect(seen.map((s) => s.path)).toStrictEqual(['options']);
  });

  it('when the signal aborts while signing, with the signal reason and no confirm', async () => {
    const inner = newAccount();
    const controller = new AbortController();
    const account: BuyerAccount = {
      address: inner.address,
      signTypedData: async (typedData) => {
        controller.abort(new Error('user closed the wallet'));
        return inner.signTypedData(typedData as Parameters<typeof inner.signTypedData>[0]);
      },
    };
    const seen = service({ options: () => [option(inner.address)] });
    await expect(
      gateway().buyer.pay(PAYMENT_ID, { account, chainId: 8453, signal: controller.signal }),
    ).rejects.toThrow('user closed the wallet');
    expect(seen.map((s) => s.path)).toStrictEqual(['options']);
  });
});

describe('buyer.pay input', () => {
  const account = newAccount();
  it.each<[string, unknown, string]>([
    ['no account', {}, 'account'],
    [
      'an account without signTypedData',
      { account: { address: account.address } },
      'account.signTypedData',
    ],
    [
      'an address that is not 20 bytes of hex',
      { account: { ...account, address: '0x12' } },
      'account.address',
    ],
    ['a chain that is not EVM', { account, chainId: 'solana:mainnet' }, 'chainId'],
    ['a chain id of zero', { account, chainId: 0 }, 'chainId'],
    ['an option id past 65,536 characters', { account, optionId: 'o'.repeat(65_537) }, 'optionId'],
    ['a signal that is not an AbortSignal', { account, signal: { aborted: false } }, 'signal'],
    ['a misspelt field', { account, chainID: 8453 }, 'chainID'],
  ])('refuses %s before sending', async (_, params, field) => {
    const seen = service({ options: () => [] });
    const error = await gateway()
      .buyer.pay(PAYMENT_ID, params as BuyerPayParams)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.field)).toContain(field);
    expect((error as Error).message).toContain('buyer.pay');
    expect(seen).toHaveLength(0);
  });

  it('refuses a bad payment id and params that are not an object, before sending', async () => {
    const seen = service({ options: () => [] });
    await expect(gateway().buyer.pay('..', { account })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(
      gateway().buyer.pay(PAYMENT_ID, null as unknown as BuyerPayParams),
    ).rejects.toThrow('expected { account');
    expect(seen).toHaveLength(0);
  });
});
