import {
  type MerchantCreateParams,
  type MerchantUpdateParams,
  RequestValidationError,
} from 'merchant-gateway';
import { describe, expect, it } from 'vitest';
import {
  answer,
  expectRefused,
  noRetryGateway,
  rejectionOf,
  useFakeService,
} from '../../support/fake-service';
import { createdMerchant } from '../../support/samples';

useFakeService();

const valid = { merchantName: 'Acme Coffee', merchantEmail: 'pay@acme.io' };
const LOGO = 'https://cdn.acme.io/logo.png';
// U+1F600 is one code point but two UTF-16 units: the limit counts code points.
const EMOJI = '\u{1F600}';

/** A case of the refusal table: `valid` with `field` set to `value`, refused with an issue on it. */
const refused = (rule: string, field: string, value: unknown, message?: RegExp) => ({
  rule,
  params: { ...valid, [field]: value },
  field,
  ...(message && { message }),
});

describe('merchants.create', () => {
  it.each<{ rule: string; params: MerchantCreateParams }>([
    { rule: 'a name of 1 code point', params: { ...valid, merchantName: 'A' } },
    { rule: 'a name of 256 code points', params: { ...valid, merchantName: 'x'.repeat(256) } },
    {
      rule: 'a name of 256 astral code points',
      params: { ...valid, merchantName: EMOJI.repeat(256) },
    },
    { rule: 'an email with an apostrophe', params: { ...valid, merchantEmail: "o'brien@acme.io" } },
    {
      rule: 'an email with dots, plus and subdomains',
      params: { ...valid, merchantEmail: 'a.b+shop@mail.acme.co.uk' },
    },
    { rule: 'an https iconUrl', params: { ...valid, iconUrl: LOGO } },
    {
      rule: 'an upper-case HTTPS iconUrl with a port',
      params: { ...valid, iconUrl: 'HTTPS://CDN.ACME.IO:8443/logo.png' },
    },
    { rule: 'iconUrl null (no logo), sent as null', params: { ...valid, iconUrl: null } },
  ])('sends $rule as given, in one POST /v1/merchants', async ({ params }) => {
    const seen = answer({ merchant: createdMerchant }, 201);
    await noRetryGateway().merchants.create(params);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.path).toBe('/v1/merchants');
    expect(seen[0]?.body).toStrictEqual(params);
  });

  it.each<{ rule: string; params: unknown; field: string; message?: RegExp }>([
    refused('an empty name', 'merchantName', '', /1 to 256/),
    refused('a name of 257 code points', 'merchantName', 'x'.repeat(257), /1 to 256/),
    refused('a name of 257 astral code points', 'merchantName', EMOJI.repeat(257)),
    refused('a name that is not a string', 'merchantName', 42),
    {
      rule: 'a missing name',
      params: { merchantEmail: valid.merchantEmail },
      field: 'merchantName',
      message: /required/,
    },
    {
      rule: 'a missing email',
      params: { merchantName: valid.merchantName },
      field: 'merchantEmail',
      message: /required/,
    },
    refused('an email with a leading dot', 'merchantEmail', '.pay@acme.io', /leading dot/),
    refused('an email with ".."', 'merchantEmail', 'a..b@x.io'),
    refused('an email with a 1-letter TLD', 'merchantEmail', 'pay@acme.i'),
    refused('an email without a TLD', 'merchantEmail', 'pay@localhost'),
    refused('an email with a dot before @', 'merchantEmail', 'pay.@acme.io'),
    refused('an empty email', 'merchantEmail', ''),
    refused('an http: iconUrl', 'iconUrl', 'http://cdn.acme.io/logo.png', /https/),
    refused('a relative iconUrl', 'iconUrl', '/logo.png'),
    refused('a javascript: iconUrl', 'iconUrl', 'javascript:alert(1)'),
    refused('an empty iconUrl', 'iconUrl', ''),
    refused('an https: iconUrl without //', 'iconUrl', 'https:cdn.acme.io/logo.png'),
    refused('an iconUrl with backslashes', 'iconUrl', 'https:\\\\cdn.acme.io\\logo.png'),
    refused('an iconUrl with no host', 'iconUrl', 'https:///logo.png'),
    refused('a misspelt field', 'merchantNmae', 'Acme', /not a field/),
    refused('a snake_case field', 'icon_url', LOGO),
  ])('refuses $rule before sending, naming $field', async ({ params, field, message }) => {
    const seen = answer({ merchant: createdMerchant }, 201);
    await expectRefused(noRetryGateway().merchants.create(params as never), seen, field, message);
  });

  it.each([
    { rule: 'an array', params: ['Acme', 'pay@acme.io'] },
    { rule: 'null', params: null },
  ])('refuses $rule as params with one issue on the whole input', async ({ params }) => {
    const seen = answer({ merchant: createdMerchant }, 201);
    const error = await rejectionOf(noRetryGateway().merchants.create(params as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.field)).toStrictEqual([
      '',
    ]);
    expect(seen).toHaveLength(0);
  });

  it('reports a typo together with a broken known field', async () => {
    const seen = answer({ merchant: createdMerchant }, 201);
    const params = { ...valid, merchantName: '', merchantNmae: 'Acme' } as never;
    await expectRefused(noRetryGateway().merchants.create(params), seen, 'merchantName');
    await expectRefused(noRetryGateway().merchants.create(params), seen, 'merchantNmae');
  });
});

describe('merchants.update', () => {
  it.each<{ rule: string; params: MerchantUpdateParams }>([
    { rule: 'only a name', params: { merchantName: 'x'.repeat(256) } },
    { rule: 'only an email', params: { merchantEmail: 'billing@acme.io' } },
    { rule: 'only an https iconUrl', params: { iconUrl: LOGO } },
    { rule: 'iconUrl null, which removes the logo', params: { iconUrl: null } },
  ])('sends $rule as given, in one PATCH', async ({ params }) => {
    const seen = answer({ merchant: { ...createdMerchant, iconUrl: null } });
    await noRetryGateway().merchants.update('mer_1', params);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('PATCH');
    expect(seen[0]?.path).toBe('/v1/merchants/mer_1');
    expect(seen[0]?.body).toStrictEqual(params);
  });

  it('sends iconUrl: null on the wire, not an absent field', async () => {
    const seen = answer({ merchant: { ...createdMerchant, iconUrl: null } });
    await noRetryGateway().merchants.update('mer_1', { iconUrl: null });
    expect(seen[0]?.body).toHaveProperty('iconUrl', null);
  });

  it.each<{ rule: string; params: unknown; field: string; message?: RegExp }>([
    {
      rule: 'no field at all',
      params: {},
      field: '',
      message: /merchantName, merchantEmail, iconUrl/,
    },
    {
      rule: 'only undefined fields',
      params: { merchantName: undefined },
      field: '',
      message: /at least one/,
    },
    { rule: 'an empty name', params: { merchantName: '' }, field: 'merchantName' },
    {
      rule: 'a name of 257 code points',
      params: { merchantName: 'x'.repeat(257) },
      field: 'merchantName',
    },
    { rule: 'an email with ".."', params: { merchantEmail: 'a..b@x.io' }, field: 'merchantEmail' },
    {
      rule: 'an http: iconUrl',
      params: { iconUrl: 'http://cdn.acme.io/logo.png' },
      field: 'iconUrl',
    },
    { rule: 'a javascript: iconUrl', params: { iconUrl: 'javascript:alert(1)' }, field: 'iconUrl' },
    { rule: 'a misspelt field', params: { merchantEmial: 'pay@acme.io' }, field: 'merchantEmial' },
  ])('refuses $rule before sending', async ({ params, field, message }) => {
    const seen = answer({ merchant: createdMerchant });
    await expectRefused(
      noRetryGateway().merchants.update('mer_1', params as never),
      seen,
      field,
      message,
    );
  });
});

describe('merchants.get', () => {
  it('sends one GET with no body', async () => {
    const seen = answer({
      merchant: { ...createdMerchant, settlements: { crypto: [], fiat: [] } },
    });
    await noRetryGateway().merchants.get('mer_1');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.path).toBe('/v1/merchants/mer_1');
    expect(seen[0]?.body).toBeUndefined();
  });
});
