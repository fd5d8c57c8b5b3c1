// Issue 37 item 6, over real processes and the official clients: a call to a writing tool the
// server was not allowed answered the protocol error "Tool payments_create not found" where the
// README promises a tool error beginning `Refused:` naming the flag; the audit line of
// payments_cancel logged `{"id":…,"options":{}}` instead of the arguments as called; and an amount
// of "0" was sent to the service.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { amountRefusal, looksLive } from '../src/policy';
import { type Sdk, stdioClient, type TestClient, type ToolResult } from './clients';

// The first call of a describe starts the server: up to 16 s on a loaded machine (check:time-limits).
vi.setConfig({ testTimeout: 160_000 });

const text = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');
const auditLines = (client: TestClient) =>
  client
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const clients: Partial<Record<string, TestClient>> = {};
const get = (name: string) => clients[name] as TestClient;

beforeAll(async () => {
  const start = async (name: string, make: () => Promise<TestClient>) => {
    clients[name] = await make();
  };
  await Promise.all([
    start('v2 read-only', () => stdioClient('v2', ['--mock', '--mock-advance-ms', '0'])),
    start('v1 read-only', () => stdioClient('v1', ['--mock', '--mock-advance-ms', '0'])),
    start('v2 cancel', () =>
      stdioClient(
        'v2',
        ['--mock', '--mock-advance-ms', '0', '--allow', 'payments.create,payments.cancel'],
        'accept',
      ),
    ),
  ]);
  // Three servers start at once: a full `npm test` at load 12 took this hook past 60 s.
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c?.close()));
});

describe.each(['v2', 'v1'] as Sdk[])('a read-only server with the %s client', (sdk) => {
  it('does not list writing tools, and refuses a call to one by name with the flag that allows it', async () => {
    const c = get(`${sdk} read-only`);
    const names = (await c.listTools()).map((t) => t.name);
    expect(names).not.toContain('payments_create');
    const before = auditLines(c).length;
    const result = await c.callTool('payments_create', {
      amount: { unit: 'iso4217/USD', value: '100' },
      referenceId: `refused-${sdk}`,
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Refused: payments_create is not allowed on this server/);
    expect(text(result)).toContain('--allow payments.create');
    const refund = await c.callTool('refunds_create', { paymentId: 'pay_1' });
    expect(text(refund)).toMatch(/^Refused: .*--allow refunds\.create/);
    // Nothing was created, and each refusal is audited with the arguments as called.
    const listed = await c.callTool('payments_list', { referenceId: `refused-${sdk}` });
    expect(listed.structuredContent?.data).toEqual([]);
    const lines = await vi.waitFor(() => {
      const seen = auditLines(c).slice(before);
      if (seen.length < 2) throw new Error('audit lines not all arrived yet');
      return seen;
    });
    expect(lines).toEqual([
      expect.objectContaining({
        tool: 'payments_create',
        outcome: 'refused',
        args: { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: `refused-${sdk}` },
      }),
      expect.objectContaining({
        tool: 'refunds_create',
        outcome: 'refused',
        args: { paymentId: 'pay_1' },
      }),
    ]);
  });

  it('still answers a tool that does not exist at all as the protocol does', async () => {
    const c = get(`${sdk} read-only`);
    const outcome = await c.callTool('payments_frobnicate', {}).then(
      (result) => text(result),
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/not found/);
    expect(outcome).not.toMatch(/Refused/);
  });
});

describe('a server allowed to create and cancel', () => {
  it('refuses an amount of 0 whatever the cap, sending nothing', async () => {
    const c = get('v2 cancel');
    const zero = await c.callTool('payments_create', {
      amount: { unit: 'iso4217/USD', value: '0' },
      referenceId: 'zero-amount',
    });
    expect(zero.isError).toBe(true);
    expect(text(zero)).toMatch(/^Refused: amount\.value must be more than zero/);
    const listed = await c.callTool('payments_list', { referenceId: 'zero-amount' });
    expect(listed.structuredContent?.data).toEqual([]);
  });

  it('audits payments_cancel with the paymentId it was called with', async () => {
    const c = get('v2 cancel');
    const created = await c.callTool('payments_create', {
      amount: { unit: 'iso4217/USD', value: '500' },
      referenceId: 'audit-cancel',
    });
    const paymentId = created.structuredContent?.paymentId as string;
    const cancelled = await c.callTool('payments_cancel', { paymentId });
    expect(cancelled.isError).toBeFalsy();
    // stderr is its own pipe: the audit line may arrive just after the result.
    const line = await vi.waitFor(() => {
      const found = auditLines(c).find((l) => l.tool === 'payments_cancel' && l.outcome === 'ok');
      if (found === undefined) throw new Error('no audit line for payments_cancel yet');
      return found;
    });
    expect(line.args).toEqual({ paymentId });
  });
});

describe('the rules as functions', () => {
  it("knows the service's key shapes: wcp_test_ is a test key, any other wcp_ key is live", () => {
    expect(looksLive('wcp_test_abc123', 'https://api.example')).toBe(false);
    expect(looksLive('wcp_abc123', 'https://api.example')).toBe(true);
    expect(looksLive('wcp_live_test_abc', 'https://api.example')).toBe(true);
    expect(looksLive('wcp_abc123', 'http://127.0.0.1:4010')).toBe(false);
  });

  it('refuses zero, non-digits and more than the service holds', () => {
    expect(amountRefusal({ unit: 'iso4217/USD', value: '0' })).toMatch(/more than zero/);
    expect(amountRefusal({ unit: 'iso4217/USD', value: '000' })).toMatch(/more than zero/);
    expect(amountRefusal({ unit: 'iso4217/USD', value: '1.5' })).toMatch(/string of digits/);
    expect(amountRefusal({ unit: 'iso4217/USD', value: '2147483648' })).toMatch(/largest/);
    expect(amountRefusal({ unit: 'iso4217/USD', value: '2147483647' })).toBeUndefined();
    expect(amountRefusal({ unit: 'iso4217/USD', value: '1' })).toBeUndefined();
  });
});
