// The signing rules of buyer.pay (src/rules/signing.ts), and the docs that state them.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { MAX_PAY_ACTIONS, optionTerms, signingMismatch } from '../../../src/rules/signing';

const ACCOUNT = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
const TOKEN = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const option = {
  account: `eip155:8453:${ACCOUNT}`,
  amount: { unit: `caip19/eip155:8453/erc20:${TOKEN}`, value: '1250000' },
};
const terms = optionTerms(option);
if ('field' in terms) throw new Error('the fixture option has terms');
const domain = { chainId: 8453, verifyingContract: TOKEN.toLowerCase() };

describe('signingMismatch', () => {
  test('passes an action naming the option in any spelling: hex, decimal, any case', () => {
    for (const chainId of [8453, 8453n, '0x2105', '8453']) {
      expect(
        signingMismatch(terms, ACCOUNT, {
          chainId: 'eip155:8453',
          domain: { chainId, verifyingContract: TOKEN.toUpperCase().replace('0X', '0x') },
          message: { from: ACCOUNT.toLowerCase(), value: '0x1312d0' },
        }),
      ).toBeUndefined();
    }
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>, unknown, string]>([
    ['action chain', domain, { from: ACCOUNT, value: 1250000 }, 'eip155:1', 'chain_id'],
    [
      'no chain id',
      { verifyingContract: TOKEN },
      { from: ACCOUNT, value: 1 },
      null,
      'domain.chainId',
    ],
    ['a fractional amount', domain, { from: ACCOUNT, value: 1250000.5 }, null, 'message.value'],
    ['no holder', domain, { value: '1250000' }, null, 'message.from'],
    [
      'owner and from disagree',
      domain,
      { from: ACCOUNT, owner: TOKEN, value: '1250000' },
      null,
      'message.owner',
    ],
  ])('names the field on %s', (_, d, message, chainId, field) => {
    expect(signingMismatch(terms, ACCOUNT, { chainId, domain: d, message })?.field).toBe(field);
  });
});

describe('optionTerms', () => {
  test.each([
    ['a native coin', { ...option, amount: { unit: 'caip19/eip155:8453/slip44:60', value: '1' } }],
    ['a token on another chain', { ...option, account: `eip155:1:${ACCOUNT}` }],
    ['a non-EVM account', { ...option, account: 'solana:mainnet:abc' }],
    ['an amount that is not whole', { ...option, amount: { ...option.amount, value: '1.5' } }],
  ])('refuses %s', (_, given) => {
    expect('field' in optionTerms(given)).toBe(true);
  });
});

test('docs/buyer.md states the action cap the code applies', () => {
  const doc = readFileSync(new URL('../../../docs/buyer.md', import.meta.url), 'utf8');
  expect(doc).toContain(`at most **${MAX_PAY_ACTIONS}** actions`);
});
