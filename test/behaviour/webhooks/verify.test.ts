// Verifying a delivery exactly as the service signs it (docs/webhooks.md, "Verify, then parse"):
// the documentation's test vector and its suggested cases, the header shapes frameworks hand
// over, the body types, rotation, and what a refusal says (and never says).
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  MerchantGatewayError,
  Webhooks,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from 'merchant-gateway/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/webhooks/signature';
import { paymentSucceeded, TEST_VECTOR, webhookBody } from '../../support/webhook-fixtures';

const vector = {
  'webhook-id': TEST_VECTOR.id,
  'webhook-timestamp': TEST_VECTOR.timestamp,
  'webhook-signature': TEST_VECTOR.signature,
};
const replaying = new Webhooks({ secret: TEST_VECTOR.secret, toleranceSeconds: Infinity });
const now = () => Math.floor(Date.now() / 1000);

/** The failure of `promise`, which must be a WebhookVerificationError. */
async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

async function refusedFor(promise: Promise<unknown>, reason: WebhookVerificationReason) {
  const error = await refusal(promise);
  expect(error.reason).toBe(reason);
  return error;
}

/** A delivery of `body` signed now (or at `timestamp`) with `secret`. */
async function delivery(secret: string, body: string, timestamp = now()) {
  return signWebhook({ secret, id: 'msg_test_1', timestamp, body });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the documentation's test vector and suggested tests", () => {
  test('the vector verifies with the tolerance off', async () => {
    await expect(replaying.verifySignature(TEST_VECTOR.body, vector)).resolves.toBeUndefined();
  });

  test('the vector, over 5 years old, is refused with the default tolerance', async () => {
    const webhooks = new Webhooks({ secret: TEST_VECTOR.secret });
    const error = await refusedFor(
      webhooks.verifySignature(TEST_VECTOR.body, vector),
      'timestamp_out_of_range',
    );
    expect(error.message).toMatch(
      /webhook-timestamp is \d+ s in the past, over the tolerance of 300 s/,
    );
  });

  test('a wrong signature is refused', async () => {
    const wrong = {
      ...vector,
      'webhook-signature': 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
    };
    await refusedFor(replaying.verifySignature(TEST_VECTOR.body, wrong), 'invalid_signature');
  });

  test('the body altered by one byte is refused', async () => {
    const altered = TEST_VECTOR.body.replace('2432232314', '2432232315');
    await refusedFor(replaying.verifySignature(altered, vector), 'invalid_signature');
    // The same JSON without the space after the colon: re-serialized, so not the signed bytes.
    await refusedFor(
      replaying.verifySignature(JSON.stringify(JSON.parse(TEST_VECTOR.body)), vector),
      'invalid_signature',
    );
  });

  test('a header whose second entry matches is accepted', async () => {
    const second = {
      ...vector,
      'webhook-signature': `v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ${TEST_VECTOR.signature}`,
    };
    await expect(replaying.verifySignature(TEST_VECTOR.body, second)).resolves.toBeUndefined();
  });

  test('entries of other versions are ignored, even holding the right digest', async () => {
    const digest = TEST_VECTOR.signature.slice(3);
    const v2Only = { ...vector, 'webhook-signature': `v2,${digest} v1a,${digest}` };
    const error = await refusedFor(
      replaying.verifySignature(TEST_VECTOR.body, v2Only),
      'invalid_signature',
    );
    expect(error.message).toContain('0 of 2 entries are v1');
    const v2First = { ...vector, 'webhook-signature': `v2,${digest} ${TEST_VECTOR.signature}` };
    await expect(replaying.verifySignature(TEST_VECTOR.body, v2First)).resolves.toBeUndefined();
  });
});

describe('the timestamp tolerance, both ways', () => {
  const secret = generateWebhookSecret();
  const webhooks = new Webhooks({ secret });
  const body = webhookBody(paymentSucceeded);

  test.each([
    ['5 minutes and 1 second old', -301, 'past'],
    ['5 minutes and 1 second ahead', 301, 'future'],
    ['an hour old', -3600, 'past'],
  ])('a delivery signed %s is refused', async (_, offset, where) => {
    const error = await refusedFor(
      webhooks.verifySignature(body, await delivery(secret, body, now() + offset)),
      'timestamp_out_of_range',
    );
    expect(error.message).toContain(`in the ${where}`);
  });

  test('exactly 300 s either way is still within the tolerance', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_800_000_000_000 });
    for (const offset of [-300, 300]) {
      await expect(
        webhooks.verifySignature(body, await delivery(secret, body, 1_800_000_000 + offset)),
      ).resolves.toBeUndefined();
    }
    await refusedFor(
      webhooks.verifySignature(body, await delivery(secret, body, 1_800_000_000 - 301)),
      'timestamp_out_of_range',
    );
  });

  test('toleranceSeconds sets the window, and Infinity turns the check off', async () => {
    const old = await delivery(secret, body, now() - 3600);
    const strict = new Webhooks({ secret, toleranceSeconds: 10 });
    await refusedFor(
      strict.verifySignature(body, await delivery(secret, body, now() - 60)),
      'timestamp_out_of_range',
    );
    await expect(
      new Webhooks({ secret, toleranceSeconds: 7200 }).verifySignature(body, old),
    ).resolves.toBeUndefined();
    await expect(
      new Webhooks({ secret, toleranceSeconds: Infinity }).verifySignature(body, old),
    ).resolves.toBeUndefined();
  });

  test('a timestamp that is not Unix seconds is refused even with the check off', async () => {
    for (const timestamp of ['1614265330.5', '-1614265330', 'soon', '1e9']) {
      await refusedFor(
        replaying.verifySignature(TEST_VECTOR.body, { ...vector, 'webhook-timestamp': timestamp }),
        'timestamp_out_of_range',
      );
    }
  });

  test('a tolerance that is not a number from 0 up is a configuration error', () => {
    for (const toleranceSeconds of [-1, Number.NaN, '300' as unknown as number]) {
      expect(() => new Webhooks({ secret, toleranceSeconds })).toThrow(/toleranceSeconds/);
    }
  });
});

describe('headers', () => {
  test.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)(
    'a delivery without %s is refused, naming it',
    async (name) => {
      const { [name]: _, ...rest } = vector;
      const error = await refusedFor(
        replaying.verifySignature(TEST_VECTOR.body, rest),
        'missing_header',
      );
      expect(error.message).toContain(`missing header ${name}`);
      // An empty value counts as missing too.
      await refusedFor(
        replaying.verifySignature(TEST_VECTOR.body, { ...vector, [name]: '' }),
        'missing_header',
      );
    },
  );

  test('no signature headers at all names the three, and the svix-* set', async () => {
    const error = await refusedFor(
      replaying.verifySignature(TEST_VECTOR.body, { 'content-type': 'application/json' }),
      'missing_header',
    );
    expect(error.message).toContain(
      'missing header webhook-id, webhook-timestamp, webhook-signature (or svix-*)',
    );
    await refusedFor(
      replaying.verifySignature(TEST_VECTOR.body, undefined as unknown as Headers),
      'missing_header',
    );
  });

  test('the svix-* set verifies when no webhook-* header is there', async () => {
    const svix = {
      'svix-id': TEST_VECTOR.id,
      'svix-timestamp': TEST_VECTOR.timestamp,
      'svix-signature': TEST_VECTOR.signature,
    };
    await expect(replaying.verifySignature(TEST_VECTOR.body, svix)).resolves.toBeUndefined();
    // With a webhook-* header present, that set is the one read: its missing parts are named.
    const mixed = { ...svix, 'webhook-id': TEST_VECTOR.id };
    const error = await refusedFor(
      replaying.verifySignature(TEST_VECTOR.body, mixed),
      'missing_header',
    );
    expect(error.message).toContain('missing header webhook-timestamp, webhook-signature:');
  });

  test('names in any case, in a record, a Fetch Headers, or arrays as Node may give', async () => {
    const upper = {
      'Webhook-Id': TEST_VECTOR.id,
      'WEBHOOK-TIMESTAMP': TEST_VECTOR.timestamp,
      'webhook-Signature': TEST_VECTOR.signature,
    };
    await expect(replaying.verifySignature(TEST_VECTOR.body, upper)).resolves.toBeUndefined();
    await expect(
      replaying.verifySignature(TEST_VECTOR.body, new Headers(upper)),
    ).resolves.toBeUndefined();
    const node: IncomingHttpHeaders = {
      'webhook-id': TEST_VECTOR.id,
      'webhook-timestamp': TEST_VECTOR.timestamp,
      'webhook-signature': ['v1,AAAA', TEST_VECTOR.signature],
      'content-length': '20',
      'set-cookie': ['a=b'],
    };
    await expect(replaying.verifySignature(TEST_VECTOR.body, node)).resolves.toBeUndefined();
  });

  test("node:http's req.headers, as a real socket delivers them, verify", async () => {
    const secret = generateWebhookSecret();
    const webhooks = new Webhooks({ secret });
    const body = webhookBody(paymentSucceeded);
    const seen = new Promise<IncomingHttpHeaders>((resolve) => {
      const server = createServer((req, res) => {
        resolve(req.headers);
        res.end();
        server.close();
      }).listen(0, '127.0.0.1', async () => {
        const { port } = server.address() as AddressInfo;
        const headers = await delivery(secret, body);
        await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body, headers });
      });
    });
    await expect(webhooks.verifySignature(body, await seen)).resolves.toBeUndefined();
  });
});

describe('bodies', () => {
  const secret = generateWebhookSecret();
  const webhooks = new Webhooks({ secret });
  const body = '{"id":"evt_1","note":"caf\u00e9 \u2615 \ud83d\ude80"}';

  test('a string, a Buffer, a Uint8Array, an ArrayBuffer and a view into a larger buffer verify', async () => {
    const headers = await delivery(secret, body);
    const bytes = new TextEncoder().encode(body);
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 4);
    for (const raw of [
      body,
      Buffer.from(body),
      bytes,
      bytes.buffer.slice(0) as ArrayBuffer,
      padded.subarray(4, 4 + bytes.length),
      new DataView(padded.buffer, 4, bytes.length),
    ]) {
      await expect(webhooks.verifySignature(raw as Uint8Array, headers)).resolves.toBeUndefined();
    }
  });

  test('a parsed object is refused with what to pass instead', async () => {
    const headers = await delivery(secret, body);
    const error = await refusedFor(
      webhooks.verifySignature(JSON.parse(body) as unknown as string, headers),
      'invalid_payload',
    );
    // A parser ran first: the message says so and how to order them, not only what to mount.
    expect(error.message).toContain('the body is a parsed object, not the raw body');
    expect(error.message).toContain('a JSON parser ran before unwrap');
    expect(error.message).toContain(
      "mount the webhook route, with express.raw({ type: 'application/json' }), before app.use(express.json())",
    );
    expect(error.message).toContain("parseAs: 'buffer'");
    for (const wrong of [undefined, null, 42]) {
      const none = await refusedFor(
        webhooks.verifySignature(wrong as unknown as string, headers),
        'invalid_payload',
      );
      // No parser at all (Express without one leaves req.body undefined): mount the raw one.
      expect(none.message).toContain(`not ${String(wrong)}: no body parser read it`);
    }
  });

  test('a Fetch Request alone is read once, raw', async () => {
    const payload = webhookBody(paymentSucceeded);
    const request = new Request('https://shop.example/webhooks', {
      method: 'POST',
      body: payload,
      headers: await delivery(secret, payload),
    });
    const event = await webhooks.unwrap(request);
    expect(event).toEqual(paymentSucceeded);
    expect(request.bodyUsed).toBe(true);
    const again = await refusedFor(webhooks.unwrap(request), 'invalid_payload');
    expect(again.message).toContain('already read');
  });
});

describe('secrets', () => {
  const body = webhookBody(paymentSucceeded);

  test('during a rotation, a delivery signed with either secret verifies', async () => {
    const [old, current] = [generateWebhookSecret(), generateWebhookSecret()];
    const both = new Webhooks({ secret: [old, current] });
    await expect(
      both.verifySignature(body, await delivery(current, body)),
    ).resolves.toBeUndefined();
    await expect(both.verifySignature(body, await delivery(old, body))).resolves.toBeUndefined();
    // One string with the two, comma-separated, as the environment variable holds them.
    const listed = new Webhooks({ secret: `${old}, ${current}` });
    await expect(
      listed.verifySignature(body, await delivery(current, body)),
    ).resolves.toBeUndefined();
    const error = await refusedFor(
      new Webhooks({ secret: [old, generateWebhookSecret()] }).verifySignature(
        body,
        await delivery(current, body),
      ),
      'invalid_signature',
    );
    expect(error.message).toContain('any of the 2 secrets');
  });

  test('a missing or malformed secret is invalid_secret at construction, never quoted', () => {
    const bad = 'whsec_not-base64!';
    for (const secret of ['', [], bad, ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', bad], 42]) {
      let thrown: unknown;
      try {
        new Webhooks({ secret: secret as string });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WebhookVerificationError);
      expect(thrown).toBeInstanceOf(MerchantGatewayError);
      expect((thrown as WebhookVerificationError).reason).toBe('invalid_secret');
      expect((thrown as Error).message).not.toContain('not-base64!');
    }
    expect(() => new Webhooks({ secret: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', bad] })).toThrow(
      /secret 2 of 2 is not base64 of at least one byte after whsec_ \(.*a bare base64 secret is taken too\)/,
    );
  });

  test('a bare base64 secret (no whsec_) verifies as its whsec_ form does, as the reference libraries take it', async () => {
    const bare = TEST_VECTOR.secret.slice('whsec_'.length);
    const forms = [TEST_VECTOR.secret, bare].map(
      (secret) => new Webhooks({ secret, toleranceSeconds: Infinity }),
    );
    const body = webhookBody(paymentSucceeded);
    const at = new Date();
    // standardwebhooks takes the bare form too, and signs alike with either.
    const signature = new Webhook(bare).sign('msg_bare', at, body);
    expect(new Webhook(TEST_VECTOR.secret).sign('msg_bare', at, body)).toBe(signature);
    const headers = {
      'webhook-id': 'msg_bare',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    for (const webhooks of forms) {
      await webhooks.verifySignature(TEST_VECTOR.body, vector);
      expect((await webhooks.unwrap(body, headers)).id).toBe(paymentSucceeded.id);
      await refusedFor(webhooks.unwrap(`${body} `, headers), 'invalid_signature');
    }
    // The docs' error table says so, rather than calling the bare form invalid_secret.
    const docs = readFileSync(join(import.meta.dirname, '../../../docs/webhooks.md'), 'utf8');
    const row = docs.split('\n').find((line) => line.startsWith('| `invalid_secret`')) ?? '';
    expect(row).toMatch(/a bare base64 secret, without `whsec_`, is accepted/);
  });

  test('a Webhooks shows its secrets as *** in JSON and util.inspect', async () => {
    const { inspect } = await import('node:util');
    const webhooks = new Webhooks({ secret: [TEST_VECTOR.secret, TEST_VECTOR.secret] });
    expect(JSON.stringify(webhooks)).toBe(
      '{"secret":["***","***"],"toleranceSeconds":300,"maxBodyBytes":1048576}',
    );
    expect(inspect(webhooks)).not.toContain('MfKQ9r8');
    expect(JSON.stringify(replaying)).toContain('"toleranceSeconds":"Infinity"');
  });
});

describe('what a refusal says', () => {
  test('no message holds the secret, a signature, or the body', async () => {
    const secret = generateWebhookSecret();
    const webhooks = new Webhooks({ secret });
    const body = '{"marker":"BODY-MARKER-4242"}';
    const good = await delivery(secret, body);
    const signature = good['webhook-signature'] ?? '';
    const notJson = 'not json BODY-MARKER-4242';
    const cases: (() => Promise<unknown>)[] = [
      () => webhooks.verifySignature(`${body} `, good),
      () => webhooks.verifySignature(body, { ...good, 'webhook-timestamp': String(now() - 999) }),
      () => webhooks.verifySignature(body, { ...good, 'webhook-id': '' }),
      () => webhooks.unwrap(body, good),
      async () => webhooks.unwrap(notJson, await delivery(secret, notJson)),
      () => new Webhooks({ secret: generateWebhookSecret() }).verifySignature(body, good),
    ];
    for (const attempt of cases) {
      const error = await refusal(attempt());
      const shown = `${error.message} ${JSON.stringify(error)}`;
      expect(shown).not.toContain(secret);
      expect(shown).not.toContain(secret.slice(6));
      expect(shown).not.toContain(signature.slice(3));
      expect(shown).not.toContain('BODY-MARKER');
      expect(error.message).toMatch(/answer 400/);
    }
  });

  test('the reference library agrees on what the vector is (a sanity check of the fixture)', () => {
    const reference = new Webhook(TEST_VECTOR.secret);
    const signed = reference.sign(TEST_VECTOR.id, new Date(1614265330_000), TEST_VECTOR.body);
    expect(signed).toBe(TEST_VECTOR.signature);
  });
});

describe('the node:crypto path', () => {
  test('where process.getBuiltinModule gives node:crypto, verifying never waits on Web Crypto', async () => {
    const secret = generateWebhookSecret();
    const body = webhookBody(paymentSucceeded);
    const headers = await delivery(secret, body); // the signer (the mock's) is Web Crypto's
    const webhooks = new Webhooks({ secret });
    const sign = vi.spyOn(crypto.subtle, 'sign');
    await expect(webhooks.unwrap(body, headers)).resolves.toMatchObject({
      type: 'payment.succeeded',
    });
    // web-crypto-path.test.ts runs this file with node:crypto hidden: there Web Crypto signs.
    const hidden = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.(
      'node:crypto',
    );
    expect(sign).toHaveBeenCalledTimes(hidden === undefined ? 1 : 0);
  });
});
