// Property: on any delivery, signed or tampered with, in or out of the time window, the SDK's
// verdict (accept or refuse) is the standardwebhooks library's. The clock is fixed, so the
// window's edges are the same instant for both.
import fc from 'fast-check';
import { Webhooks, WebhookVerificationError } from 'merchant-gateway/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';

const NOW_SECONDS = 1_800_000_000;

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW_SECONDS * 1000 });
});
afterAll(() => {
  vi.useRealTimers();
});

/** One character of `text` at `index` with one bit of its code flipped (never the same text). */
function flip(text: string, index: number, bit: number): string {
  if (text.length === 0) return 'x';
  const i = index % text.length;
  const code = text.charCodeAt(i) ^ (1 << bit);
  return text.slice(0, i) + String.fromCharCode(code) + text.slice(i + 1);
}

const tampering = fc.constantFrom('none', 'body', 'signature', 'id', 'timestamp', 'secret');

const delivery = fc.record({
  keyBytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
  otherKeyBytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
  id: fc.string({ maxLength: 40, unit: 'binary' }),
  // The library decodes a Buffer body to text, lossily (bad UTF-8 and lone surrogates become
  // U+FFFD): bodies that hold U+FFFD or do not round-trip are left out, so no tampered byte
  // sequence can decode back to the signed text, which only the SDK (reading bytes) refuses.
  body: fc
    .string({ maxLength: 200, unit: 'binary' })
    .filter((s) => !s.includes('\uFFFD') && Buffer.from(s).toString() === s),
  // In the window, at its edges and past them, either way.
  offset: fc.oneof(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -5000, max: 5000 })),
  tamper: tampering,
  index: fc.nat(),
  bit: fc.integer({ min: 0, max: 6 }),
});

const secretOf = (bytes: Uint8Array) => `whsec_${Buffer.from(bytes).toString('base64')}`;

test("the SDK's verdict equals standardwebhooks' verdict on every delivery", async () => {
  let accepted = 0;
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(delivery, async (d) => {
      const secret = secretOf(d.keyBytes);
      const timestamp = NOW_SECONDS + d.offset;
      const signature = new Webhook(secret).sign(d.id, new Date(timestamp * 1000), d.body);
      let headers: Record<string, string> = {
        'webhook-id': d.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      };
      let body: string | Buffer = d.body;
      let verifier = secret;
      if (d.tamper === 'body') {
        const bytes = Buffer.from(d.body);
        if (bytes.length === 0) body = 'x';
        else {
          const i = d.index % bytes.length;
          bytes[i] = (bytes[i] as number) ^ (1 << d.bit);
          body = bytes;
        }
      } else if (d.tamper === 'signature') {
        headers = { ...headers, 'webhook-signature': flip(signature, d.index, d.bit) };
      } else if (d.tamper === 'id') {
        headers = { ...headers, 'webhook-id': flip(d.id, d.index, d.bit) };
      } else if (d.tamper === 'timestamp') {
        headers = { ...headers, 'webhook-timestamp': flip(String(timestamp), d.index, d.bit) };
      } else if (d.tamper === 'secret') {
        verifier = secretOf(d.otherKeyBytes);
      }

      let reference: boolean;
      try {
        // Verdict only: the library would also refuse a body that is not JSON.
        new Webhook(verifier).verify(body, headers, { jsonParse: false });
        reference = true;
      } catch {
        reference = false;
      }
      const sdk = await new Webhooks({ secret: verifier }).verifySignature(body, headers).then(
        () => true,
        (error: unknown) => {
          if (!(error instanceof WebhookVerificationError)) throw error;
          return false;
        },
      );
      expect(sdk).toBe(reference);
      if (sdk) accepted++;
      else refused++;
    }),
    { numRuns: 1000 },
  );
  // Both verdicts were reached often enough for the property to mean something.
  expect(accepted).toBeGreaterThan(20);
  expect(refused).toBeGreaterThan(100);
}, 60_000); // about 3.5 s idle; 5.3 s beside other files ran past vitest's default 5 s
