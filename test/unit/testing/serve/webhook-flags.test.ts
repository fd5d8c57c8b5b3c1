// The command's webhook flags: what they parse to, what they refuse (never repeating a secret),
// and the banner's generated secret, which signs what the command sends.
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { type CommandIo, parseArgs, runCommand } from '../../../../src/testing/serve/command';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('merchant-gateway-mock webhook flags', () => {
  it('reads --webhook-url (repeatable), --webhook-secret, the retry scale, timeout, chaos and --settle-after', () => {
    expect(
      parseArgs([
        '--webhook-url',
        'http://127.0.0.1:9/a',
        '--webhook-url=https://shop.example/hooks',
        '--webhook-secret',
        SECRET,
        '--webhook-retry-scale',
        '0.001',
        '--webhook-timeout',
        '500',
        '--webhook-chaos',
        'duplicate=0.2,reorder=2000,drop=0.05',
        '--settle-after',
        '0',
      ]),
    ).toMatchObject({
      webhookUrls: ['http://127.0.0.1:9/a', 'https://shop.example/hooks'],
      webhookSecret: SECRET,
      webhookRetryScale: 0.001,
      webhookTimeoutMs: 500,
      webhookChaos: { duplicateRate: 0.2, reorderWindowMs: 2000, dropRate: 0.05 },
      settleAfterMs: 0,
    });
  });

  it.each([
    [['--webhook-url', 'ftp://x'], /--webhook-url must be an http: or https: URL/],
    [['--webhook-retry-scale', '0'], /--webhook-retry-scale must be a number > 0/],
    [['--webhook-chaos', 'duplicate=2'], /--webhook-chaos takes duplicate=RATE/],
    [['--webhook-chaos', 'often=0.1'], /--webhook-chaos takes/],
    [['--settle-after', '-1'], /--settle-after needs a value/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(message);
  });

  it('reads the secret from MERCHANT_GATEWAY_MOCK_WEBHOOK_SECRET, the flag winning over it', () => {
    const other = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
    const env = { MERCHANT_GATEWAY_MOCK_WEBHOOK_SECRET: other };
    expect(parseArgs([], env)).toMatchObject({ webhookSecret: other });
    expect(parseArgs(['--webhook-secret', SECRET], env)).toMatchObject({ webhookSecret: SECRET });
    expect(() => parseArgs([], { MERCHANT_GATEWAY_MOCK_WEBHOOK_SECRET: 'nope' })).toThrow(
      /^MERCHANT_GATEWAY_MOCK_WEBHOOK_SECRET must be whsec_/,
    );
  });

  it('refuses a malformed secret without repeating it', () => {
    const secret = 'whsec_not base64 at all!';
    expect(() => parseArgs(['--webhook-secret', secret])).toThrow(
      /--webhook-secret must be whsec_ followed by base64/,
    );
    try {
      parseArgs(['--webhook-secret', secret]);
    } catch (error) {
      expect(String(error)).not.toContain('base64 at all');
    }
  });

  it('prints a generated secret in the banner, and signs its deliveries with it', async () => {
    const bodies: { body: string; headers: Record<string, string> }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        bodies.push({ body, headers: req.headers as Record<string, string> });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const hook = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
    let stop: (signal: string) => void = () => {};
    const out: string[] = [];
    const io: CommandIo = {
      stdout: (text) => out.push(text),
      stderr: () => {},
      stop: new Promise((resolve) => (stop = resolve)),
    };
    const running = runCommand(['--port', '0', '--webhook-url', hook], io);
    try {
      await expect.poll(() => out.join('')).toContain('Stop with');
      const banner = out.join('');
      const secret = /Webhook secret: +(whsec_\S+) \(generated\)/.exec(banner)?.[1] ?? '';
      expect(secret).toMatch(/^whsec_/);
      expect(banner).toContain(`Webhooks to:         ${hook}`);
      const url = /listening on (\S+)/.exec(banner)?.[1] ?? '';
      const apiKey = /Api-Key +(\S+)/.exec(banner)?.[1] ?? '';
      const merchantId = /Sample merchant: +(\S+)/.exec(banner)?.[1] ?? '';
      const res = await fetch(`${url}/v1/payments`, {
        method: 'POST',
        headers: {
          'api-key': apiKey,
          'merchant-id': merchantId,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'f-1' }),
      });
      expect(res.status).toBe(201);
      await expect.poll(() => bodies.length).toBe(1);
      const [got] = bodies;
      const event = new Webhook(secret).verify(got?.body ?? '', got?.headers ?? {});
      expect(event).toMatchObject({ type: 'payment.created', data: { live: false } });
    } finally {
      stop('SIGTERM');
      await running;
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
