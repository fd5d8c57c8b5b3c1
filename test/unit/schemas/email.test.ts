import fc from 'fast-check';
import { MerchantCreateParamsSchema } from 'merchant-gateway';
import { describe, expect, it } from 'vitest';

// Copied as published in the service's contract (service-facts.md), escapes and all.
const PUBLISHED =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/u;

const sdkAccepts = (merchantEmail: string) =>
  MerchantCreateParamsSchema.safeParse({ merchantName: 'Acme', merchantEmail }).success;

describe('merchantEmail rule', () => {
  it.each([
    { email: 'pay@acme.io', ok: true },
    { email: "o'brien@acme.io", ok: true },
    { email: 'a.b+shop_1-x@mail.acme-co.co.uk', ok: true },
    { email: 'a@b.cd', ok: true },
    { email: 'a..b@x.io', ok: false },
    { email: '.a@x.io', ok: false },
    { email: 'a.@x.io', ok: false },
    { email: "a'@x.io", ok: false },
    { email: 'a@x.i', ok: false },
    { email: 'a@x.i0', ok: false },
    { email: 'a@-x.io', ok: false },
    { email: 'a@x..io', ok: false },
    { email: 'a@x', ok: false },
    { email: 'a b@x.io', ok: false },
    { email: 'ä@x.io', ok: false },
    { email: 'a@x.io\n', ok: false },
    { email: '', ok: false },
  ])('treats $email as the published pattern does (valid: $ok)', ({ email, ok }) => {
    expect(PUBLISHED.test(email)).toBe(ok);
    expect(sdkAccepts(email)).toBe(ok);
  });

  it('agrees with the published pattern on generated addresses', () => {
    const unit = fc.constantFrom('a', 'Z', '0', '.', '_', "'", '+', '-', '@', ' ', 'é', '\n');
    const part = fc.string({ unit, maxLength: 8 });
    const tld = fc.string({ unit: fc.constantFrom('a', 'Q', '1', '-', '.'), maxLength: 4 });
    const address = fc.oneof(
      fc.string({ unit, maxLength: 24 }),
      fc.tuple(part, part, tld).map(([local, domain, end]) => `${local}@${domain}.${end}`),
    );
    fc.assert(
      fc.property(address, (email) => sdkAccepts(email) === PUBLISHED.test(email)),
      { numRuns: 2000 },
    );
  });
});
