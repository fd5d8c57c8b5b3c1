import type { CryptoSettlementParams } from 'merchant-gateway';
import { describe, expect, it } from 'vitest';
import { answer, expectRefused, noRetryGateway, useFakeService } from '../../support/fake-service';
import { PAYOUT_ACCOUNT, USDC_BASE } from '../../support/samples';

useFakeService();

const a = (n: number) => 'a'.repeat(n);
const caip19 = (ns: string, ref: string, assetNs: string, assetRef: string) =>
  `${ns}:${ref}/${assetNs}:${assetRef}`;
const caip10 = (ns: string, ref: string, address: string) => `${ns}:${ref}:${address}`;
const usdc: CryptoSettlementParams = { asset: USDC_BASE, destination: PAYOUT_ACCOUNT };
const many = (n: number): CryptoSettlementParams[] => Array.from({ length: n }, () => usdc);
const created = (list: readonly CryptoSettlementParams[]) => ({
  settlements: list.map((s, i) => ({ id: `cs_${i}`, ...s })),
});

/** A refusal case: one settlement, `usdc` with its asset (or destination) replaced. */
const oneAsset = (rule: string, asset: unknown) => ({
  rule,
  list: [{ ...usdc, asset }],
  field: 'settlements.0.asset',
});
const oneDestination = (rule: string, destination: unknown) => ({
  rule,
  list: [{ ...usdc, destination }],
  field: 'settlements.0.destination',
});

describe('settlements.createCrypto request rules', () => {
  it.each<{ rule: string; list: CryptoSettlementParams[] }>([
    { rule: '1 settlement', list: many(1) },
    { rule: '50 settlements', list: many(50) },
    {
      rule: 'the shortest CAIP-19 segments',
      list: [{ asset: caip19(a(3), a(1), a(3), a(1)), destination: caip10(a(3), a(1), '0xab') }],
    },
    {
      rule: 'the longest CAIP-19 segments',
      list: [
        { asset: caip19(a(8), a(32), a(8), a(128)), destination: caip10(a(8), a(32), '0xab') },
      ],
    },
    {
      rule: 'the shortest CAIP-10 segments',
      list: [{ asset: caip19(a(3), a(1), 'erc20', '0x1'), destination: caip10(a(3), a(1), a(1)) }],
    },
    {
      rule: 'the longest CAIP-10 segments',
      list: [
        { asset: caip19(a(8), a(32), 'erc20', '0x1'), destination: caip10(a(8), a(32), a(128)) },
      ],
    },
    {
      rule: 'hyphens in every segment',
      list: [
        { asset: caip19('ab-c', '1-2', 'sl-p', 'x-y'), destination: caip10('ab-c', '1-2', 'x-y') },
      ],
    },
  ])('sends $rule in a { settlements } body built from the array', async ({ list }) => {
    const seen = answer(created(list), 201);
    await noRetryGateway().settlements.createCrypto('mer_1', list);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.path).toBe('/v1/merchants/mer_1/settlements/crypto');
    expect(seen[0]?.body).toStrictEqual({ settlements: list });
  });

  it.each<{ rule: string; list: unknown; field: string }>([
    { rule: 'no settlements', list: [], field: 'settlements' },
    { rule: '51 settlements', list: many(51), field: 'settlements' },
    { rule: 'an object instead of an array', list: usdc, field: 'settlements' },
    oneAsset('a 2-character chain namespace', caip19(a(2), a(1), a(3), a(1))),
    oneAsset('a 9-character chain namespace', caip19(a(9), a(1), a(3), a(1))),
    oneAsset('an empty chain reference', caip19(a(3), '', a(3), a(1))),
    oneAsset('a 33-character chain reference', caip19(a(3), a(33), a(3), a(1))),
    oneAsset('a 2-character asset namespace', caip19(a(3), a(1), a(2), a(1))),
    oneAsset('a 9-character asset namespace', caip19(a(3), a(1), a(9), a(1))),
    oneAsset('an empty asset reference', caip19(a(3), a(1), a(3), '')),
    oneAsset('a 129-character asset reference', caip19(a(3), a(1), a(3), a(129))),
    oneAsset('a CAIP-10 account as the asset', PAYOUT_ACCOUNT),
    oneAsset('a dot in the asset', 'eip155:8453/erc20:0x83.3'),
    oneDestination('a 2-character account namespace', caip10(a(2), a(1), a(1))),
    oneDestination('a 9-character account namespace', caip10(a(9), a(1), a(1))),
    oneDestination('an empty account chain reference', caip10(a(3), '', a(1))),
    oneDestination('a 33-character account chain reference', caip10(a(3), a(33), a(1))),
    oneDestination('an empty address', caip10(a(3), a(1), '')),
    oneDestination('a 129-character address', caip10(a(3), a(1), a(129))),
    oneDestination('a CAIP-19 asset as the destination', USDC_BASE),
    {
      rule: 'a bad entry after good ones',
      list: [...many(3), { ...usdc, asset: 'usdc' }],
      field: 'settlements.3.asset',
    },
    {
      rule: 'a missing destination',
      list: [{ asset: USDC_BASE }],
      field: 'settlements.0.destination',
    },
    {
      rule: 'a misspelt field',
      list: [{ ...usdc, destinaton: PAYOUT_ACCOUNT }],
      field: 'settlements.0.destinaton',
    },
  ])('refuses $rule before sending, naming $field', async ({ list, field }) => {
    const seen = answer(created([]), 201);
    await expectRefused(
      noRetryGateway().settlements.createCrypto('mer_1', list as never),
      seen,
      field,
    );
  });
});

describe('settlements.createCrypto response', () => {
  it('unwraps the { settlements } envelope of the 201 into the array, extra fields kept', async () => {
    const body = {
      settlements: [{ id: 'cs_1', ...usdc, createdAt: '2026-02-18T09:30:12.345Z' }],
    };
    answer(body, 201);
    const result = await noRetryGateway().settlements.createCrypto('mer_1', [usdc]);
    expect(result).toStrictEqual(body.settlements);
  });
});
