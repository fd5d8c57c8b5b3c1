// The server as users run it: a child process over stdio and over streamable HTTP, driven by the
// official MCP clients (2.x, protocol 2026-07-28; the 1.x SDK's, 2025-11-25), on the embedded mock.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WRITE_METHODS } from '../src/policy';
import { createServer } from '../src/server';
import { TOOLS } from '../src/tools';
import {
  cleanEnv,
  type Human,
  httpClient,
  httpServer,
  root,
  type Sdk,
  serverCommand,
  stdioClient,
  type TestClient,
  type ToolResult,
} from './clients';

// Child processes on a loaded 2-core machine: the 2.x client alone compiles every tool's output
// schema on its first listing (about 1.3 s idle).
// The first call of a describe starts the server: up to 16 s on a loaded machine (check:time-limits).
vi.setConfig({ testTimeout: 160_000 });

const MOCK_KEY = 'wcp_test_mock_partner';
const READS = TOOLS.filter((t) => t.kind === 'read').map((t) => t.name);
const WRITES = [
  'merchants_create',
  'settlements_createCrypto',
  'payments_create',
  'payments_cancel',
  'refunds_create',
];
const CAPPED = [
  '--mock',
  '--mock-advance-ms',
  '0',
  '--allow-writes',
  '--max-amount',
  '100.00',
  '--currency',
  'USD',
];

const json = (result: ToolResult) => result.structuredContent as Record<string, unknown>;
const text = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');
const errorOf = (result: ToolResult) => {
  expect(result.isError).toBe(true);
  return JSON.parse(text(result)).error as Record<string, unknown>;
};

/** Every tool result a test saw, to check no key ever appears in one. */
const seen: string[] = [];
function remember(client: TestClient): TestClient {
  return {
    ...client,
    callTool: async (name, args, onProgress) => {
      const result = await client.callTool(name, args, onProgress);
      seen.push(JSON.stringify(result));
      return result;
    },
  };
}

/** A fake human whose answer a test sets before the call. */
const human: Record<Sdk, { answer: Human }> = {
  v2: { answer: 'accept' },
  v1: { answer: 'accept' },
};

const clients: Partial<Record<string, TestClient>> = {};
const get = (name: string) => clients[name] as TestClient;

beforeAll(async () => {
  const start = async (name: string, make: () => Promise<TestClient>) => {
    clients[name] = remember(await make());
  };
  await Promise.all([
    start('v2 read-only', () => stdioClient('v2', ['--mock', '--mock-advance-ms', '0'])),
    // Open payments move along every second, so a follow has something to follow.
    start('v2 follow', () =>
      stdioClient('v2', ['--mock', '--mock-advance-ms', '1000', '--allow', 'payments.create']),
    ),
    start('v1 read-only', () => stdioClient('v1', ['--mock', '--mock-advance-ms', '0'])),
    start('v2 writes', () => stdioClient('v2', CAPPED, 'accept', {}, human.v2)),
    start('v1 writes', () => stdioClient('v1', CAPPED, 'accept', {}, human.v1)),
    start('v2 no elicitation', () => stdioClient('v2', CAPPED)),
    start('v1 no elicitation', () => stdioClient('v1', CAPPED)),
  ]);
  // Seven servers start at once: a full `npm test` at load 12 took this hook past 60 s.
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c?.close()));
});

describe.each(['v2', 'v1'] as const)('over stdio with the %s client', (sdk) => {
  const ro = () => get(`${sdk} read-only`);
  const rw = () => get(`${sdk} writes`);

  it('lists only the reading tools when started without flags', async () => {
    const tools = await ro().listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READS].sort());
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it('lists every writing tool with --allow-writes', async () => {
    const names = (await rw().listTools()).map((t) => t.name);
    expect(names.sort()).toEqual([...READS, ...WRITES].sort());
  });

  it('answers every reading tool from the mock', async () => {
    const c = ro();
    const merchants = json(await c.callTool('merchants_list', { limit: 2 }));
    expect((merchants.merchants as unknown[]).length).toBe(2);
    const merchantId = (merchants.merchants as { id: string }[])[0]?.id as string;
    expect(json(await c.callTool('merchants_get', { merchantId })).id).toBe(merchantId);
    expect(json(await c.callTool('settlements_list', { merchantId }))).toHaveProperty('crypto');
    const page = json(await c.callTool('payments_list', { status: 'succeeded', limit: 3 }));
    const payments = page.data as { paymentId: string; status: string }[];
    expect(payments).toHaveLength(3);
    expect(payments.every((p) => p.status === 'succeeded')).toBe(true);
    const paymentId = payments[0]?.paymentId as string;
    expect(json(await c.callTool('payments_get', { paymentId })).status).toBe('succeeded');
    expect(json(await c.callTool('payments_details', { paymentId })).paymentId).toBe(paymentId);
    expect(json(await c.callTool('payments_status', { paymentId }))).toMatchObject({
      status: 'succeeded',
      isFinal: true,
    });
    expect(json(await c.callTool('payments_wait_for_final', { paymentId }))).toMatchObject({
      isFinal: true,
    });
    const partner = json(await c.callTool('partnerPayments_list', { limit: 5 }));
    expect((partner.data as unknown[]).length).toBe(5);
  }, 30_000);

  it('rejects arguments that break the SDK’s rules with the field named, sending nothing', async () => {
    const result = await ro().callTool('payments_list', { limit: 500 });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/limit/);
  });

  it('returns a service error as a tool error with its class, code and request id', async () => {
    const error = errorOf(
      await ro().callTool('payments_details', { paymentId: 'pay_doesNotExist' }),
    );
    expect(error).toMatchObject({ class: 'NotFoundError', code: 'payment_not_found', status: 404 });
    expect(error.requestId).toMatch(/^req_/);
  });

  it('refuses a payment over the cap and one in another currency, sending nothing', async () => {
    const over = await rw().callTool('payments_create', {
      amount: { unit: 'iso4217/USD', value: '10001' },
      referenceId: `over-${sdk}`,
    });
    expect(over.isError).toBe(true);
    expect(text(over)).toMatch(/over this server's cap of 100\.00 USD/);
    const euro = await rw().callTool('payments_create', {
      amount: { unit: 'iso4217/EUR', value: '100' },
      referenceId: `eur-${sdk}`,
    });
    expect(text(euro)).toMatch(/in USD only/);
    const list = json(await rw().callTool('payments_list', { referenceId: `over-${sdk}` }));
    expect(list.data).toEqual([]);
  });

  it('creates a payment at the cap, and a retried call returns the same payment', async () => {
    const args = { amount: { unit: 'iso4217/USD', value: '10000' }, referenceId: `cap-${sdk}` };
    const first = json(await rw().callTool('payments_create', args));
    const again = json(await rw().callTool('payments_create', args));
    expect(first.status).toBe('requires_action');
    expect(again.paymentId).toBe(first.paymentId);
    const list = json(await rw().callTool('payments_list', { referenceId: `cap-${sdk}` }));
    expect(list.data).toHaveLength(1);
  });

  it('creates a merchant and its crypto settlement, keyed', async () => {
    const args = { merchantName: `Shop ${sdk}`, merchantEmail: `pay-${sdk}@shop.example` };
    const merchant = json(await rw().callTool('merchants_create', args));
    expect(json(await rw().callTool('merchants_create', args)).id).toBe(merchant.id);
    const settlement = {
      asset: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      destination: 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
    };
    const added = json(
      await rw().callTool('settlements_createCrypto', {
        merchantId: merchant.id,
        settlements: [settlement],
      }),
    );
    expect(added.settlements).toMatchObject([settlement]);
    const mismatch = await rw().callTool('settlements_createCrypto', {
      merchantId: merchant.id,
      settlements: [
        { ...settlement, destination: 'eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb' },
      ],
    });
    expect(errorOf(mismatch).class).toBe('RequestValidationError');
  });

  describe('a refund, confirmed through elicitation', () => {
    const succeeded = async (c: TestClient, index: number) => {
      const page = json(await c.callTool('payments_list', { status: 'succeeded', limit: 20 }));
      // Each test takes its own payment: v1 from the end of the page, v2 from the start.
      const list = page.data as { paymentId: string }[];
      return (sdk === 'v2' ? list[index] : list[list.length - 1 - index])?.paymentId as string;
    };

    it('refunds when the human accepts', async () => {
      human[sdk].answer = 'accept';
      const paymentId = await succeeded(rw(), 0);
      const result = await rw().callTool('refunds_create', { paymentId });
      expect(result.isError).toBeFalsy();
      expect(json(result)).toEqual({ paymentId });
      expect(rw().asked.at(-1)).toMatch(new RegExp(`Refund payment ${paymentId}`));
      const again = errorOf(await rw().callTool('refunds_create', { paymentId }));
      expect(again).toMatchObject({ class: 'ConflictError', code: 'already_refunded' });
    });

    it.each(['decline', 'cancel'] as const)(
      'sends nothing when the human answers %s',
      async (answer) => {
        human[sdk].answer = answer;
        const paymentId = await succeeded(rw(), answer === 'decline' ? 1 : 2);
        const result = await rw().callTool('refunds_create', { paymentId });
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(
          new RegExp(`human ${answer === 'decline' ? 'declined' : 'cancelled'}`),
        );
        human[sdk].answer = 'accept';
        // Not refunded: a confirmed refund of it now goes through.
        expect(json(await rw().callTool('refunds_create', { paymentId }))).toEqual({ paymentId });
      },
    );

    it('is refused with the reason when the client has no elicitation', async () => {
      const c = get(`${sdk} no elicitation`);
      const paymentId = await succeeded(c, 3);
      const result = await c.callTool('refunds_create', { paymentId });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/does not support MCP elicitation.*nothing was sent/);
    });
  });

  it('cancels an open payment only after the human accepts', async () => {
    human[sdk].answer = 'accept';
    const created = json(
      await rw().callTool('payments_create', {
        amount: { unit: 'iso4217/USD', value: '500' },
        referenceId: `cancel-${sdk}`,
      }),
    );
    const result = await rw().callTool('payments_cancel', { paymentId: created.paymentId });
    expect(json(result)).toMatchObject({ paymentId: created.paymentId, status: 'cancelled' });
    expect(rw().asked.at(-1)).toMatch(/Cancel payment/);
  });

  it('returns a failed write as a tool error carrying its Idempotency-Key', async () => {
    human[sdk].answer = 'accept';
    const page = json(await rw().callTool('payments_list', { status: 'succeeded', limit: 20 }));
    const paymentId = (page.data as { paymentId: string }[])[10]?.paymentId as string;
    const error = errorOf(await rw().callTool('payments_cancel', { paymentId }));
    expect(error.class).toMatch(/Error$/);
    expect(error.requestId).toMatch(/^req_/);
    expect(error.idempotencyKey).toMatch(/^mcp_payments_cancel_/);
  });

  it('gives up waiting after timeoutMs with PollTimeoutError', async () => {
    const page = json(
      await ro().callTool('payments_list', { status: 'requires_action', limit: 1 }),
    );
    const paymentId = (page.data as { paymentId: string }[])[0]?.paymentId as string;
    const error = errorOf(
      await ro().callTool('payments_wait_for_final', { paymentId, timeoutMs: 1_000 }),
    );
    expect(error.class).toBe('PollTimeoutError');
  });

  it('audits each write as one JSON line on stderr, keyed, with no key in it', async () => {
    const lines = rw()
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    const created = lines.find((l) => l.tool === 'payments_create' && l.outcome === 'ok');
    expect(created.idempotencyKey).toMatch(/^mcp_payments_create_/);
    expect(created.requestId).toMatch(/^req_/);
    expect(lines.some((l) => l.tool === 'payments_create' && l.outcome === 'refused')).toBe(true);
    expect(lines.some((l) => l.tool === 'refunds_create' && l.outcome === 'declined')).toBe(true);
    expect(rw().stderr()).not.toContain(MOCK_KEY);
  });
});

it('waits for a payment’s final status with progress notifications', async () => {
  const c = get('v2 follow');
  const created = json(
    await c.callTool('payments_create', {
      amount: { unit: 'iso4217/USD', value: '250' },
      referenceId: 'follow-1',
    }),
  );
  const paymentId = created.paymentId as string;
  const progress: string[] = [];
  const result = await c.callTool(
    'payments_wait_for_final',
    { paymentId, timeoutMs: 20_000 },
    (p) => progress.push(p.message ?? ''),
  );
  expect(json(result)).toMatchObject({ status: 'succeeded', isFinal: true });
  // One notification per status change. The server writes the final one before the result (its
  // stderr shows it every time), yet the clients sometimes drop it: when both arrive in one read
  // they settle the call first and forget its progress handler. The result carries the status.
  expect(progress.length).toBeGreaterThanOrEqual(1);
  expect(progress.every((m) => /^status (requires_action|processing|succeeded)/.test(m))).toBe(
    true,
  );
}, 30_000);

it('caps payments_wait_for_final at 10 minutes', async () => {
  const result = await get('v2 read-only').callTool('payments_wait_for_final', {
    paymentId: 'pay_x',
    timeoutMs: 600_001,
  });
  expect(result.isError).toBe(true);
  expect(text(result)).toMatch(/600000/);
});

describe('over streamable HTTP', () => {
  let server: Awaited<ReturnType<typeof httpServer>>;
  beforeAll(async () => {
    server = await httpServer(['--mock', '--mock-advance-ms', '0', '--allow', 'refunds.create']);
  }, 30_000);
  afterAll(() => {
    server?.child.kill();
  });

  it.each(['v2', 'v1'] as const)(
    'serves the %s client the tools and their answers',
    async (sdk) => {
      const c = remember(await httpClient(sdk, server.url, 'accept'));
      try {
        expect((await c.listTools()).map((t) => t.name).sort()).toEqual(
          [...READS, 'refunds_create'].sort(),
        );
        const page = json(await c.callTool('payments_list', { status: 'succeeded', limit: 10 }));
        const paymentId = (page.data as { paymentId: string }[])[sdk === 'v2' ? 0 : 1]
          ?.paymentId as string;
        expect(json(await c.callTool('payments_status', { paymentId }))).toMatchObject({
          isFinal: true,
        });
        const refund = await c.callTool('refunds_create', { paymentId });
        if (sdk === 'v2') {
          expect(json(refund)).toEqual({ paymentId });
        } else {
          // A 2025-era client over stateless HTTP cannot be asked: refused, and why.
          expect(text(refund)).toMatch(
            /cannot be asked over this stateless HTTP endpoint.*nothing was sent/,
          );
        }
      } finally {
        await c.close();
      }
    },
    30_000,
  );

  it('answers only loopback Host headers (DNS rebinding)', async () => {
    // fetch may not set Host: a raw request does, as a rebinding page's browser would.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        server.url,
        { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });
});

describe('one writing tool per --allow name', () => {
  const gateway = new MerchantGateway({
    baseUrl: 'http://127.0.0.1',
    apiKey: MOCK_KEY,
    fetch: createMockGateway().fetch,
  });
  it.each(WRITE_METHODS)('--allow %s adds exactly that tool', async (method) => {
    const server = createServer(
      { gateway, policy: { allowed: new Set([method]), secrets: [], audit: () => {} } },
      'modern',
    );
    const client = new Client({ name: 't', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual([...READS, method.replace('.', '_')].sort());
    await client.close();
  });
});

describe('the advertised schemas', () => {
  it('are the SDK’s rules as JSON Schema, with descriptions an agent can act on', async () => {
    const gateway = new MerchantGateway({
      baseUrl: 'http://127.0.0.1',
      apiKey: MOCK_KEY,
      fetch: createMockGateway().fetch,
    });
    const server = createServer(
      { gateway, policy: { allowed: new Set(WRITE_METHODS), secrets: [], audit: () => {} } },
      'modern',
    );
    const client = new Client({ name: 't', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const tools = (await client.listTools()).tools;
    const create = tools.find((t) => t.name === 'payments_create');
    const properties = create?.inputSchema.properties as Record<string, Record<string, unknown>>;
    const amount = properties?.amount;
    expect(amount).toMatchObject({
      additionalProperties: false,
      required: ['unit', 'value'],
      properties: {
        unit: { pattern: '^iso4217\\/[A-Z]{3}$' },
        value: { anyOf: [{ type: 'string', pattern: '^\\d+$' }, { type: 'number' }] },
      },
    });
    expect(create?.description).toMatch(/minor units/);
    const refund = tools.find((t) => t.name === 'refunds_create');
    expect(refund?.inputSchema.properties?.paymentId).toMatchObject({
      pattern: '^pay_[A-Za-z0-9]+$',
      maxLength: 64,
    });
    expect(refund?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(40);
    }
    await client.close();
  });
});

describe('a live-looking key', () => {
  const run = (flags: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(serverCommand.command, [...serverCommand.args, ...flags], {
        cwd: root,
        env: {
          ...cleanEnv(),
          MERCHANT_GATEWAY_BASE_URL: 'https://gateway.example',
          MERCHANT_GATEWAY_API_KEY: 'sk_live_0123456789abcdef',
        },
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes(' on stdio')) child.stdin.end();
      });
      child.on('exit', (code) => resolve({ code, stderr }));
    });

  it('is refused for writes without --allow-writes, and accepted read-only or with it', async () => {
    const [narrow, readOnly, explicit] = await Promise.all([
      run(['--allow', 'payments.create']),
      run([]),
      run(['--allow-writes', '--allow', 'payments.create']),
    ]);
    expect(narrow.code).toBe(2);
    expect(narrow.stderr).toMatch(/looks live.*--allow-writes/);
    expect(readOnly.stderr).toMatch(/read-only/);
    expect(explicit.stderr).toMatch(/writes: payments_create\b/);
    for (const r of [narrow, readOnly, explicit])
      expect(r.stderr).not.toContain('sk_live_0123456789abcdef');
  }, 70_000);
});

it('never shows the API key in a tool result', () => {
  expect(seen.length).toBeGreaterThan(20);
  for (const result of seen) expect(result).not.toContain(MOCK_KEY);
});
