// The redactor reads a text as a form decoder would (issue 41.2): percent-escapes decoded as UTF-8
// and `+` as a space, then masks exactly the encoded span each key came from. So any encoder is
// covered, not a list of them: escapes in either or mixed case, every byte escaped, multi-byte
// characters; malformed escapes stay as written and text without a key is left alone.
import { describe, expect, test } from 'vitest';
import { redactThenCut } from '../../../src/core/errors/failure';
import { Redactor } from '../../../src/core/safety/redact';

const KEY = "wcp_test_A~b!c'd(e)f*g h";
/** Every UTF-8 byte of `text` as an escape, as the most cautious encoder writes it. */
const escapeAll = (text: string) =>
  [...new TextEncoder().encode(text)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
const alternateCase = (text: string) => {
  let i = 0;
  return text.replace(/%[0-9A-F]{2}/g, (hex) => (i++ % 2 === 0 ? hex.toLowerCase() : hex));
};

describe('a key in any form encoding is masked over its encoded span', () => {
  const redactor = new Redactor([KEY]);

  test.each([
    ['Go url.QueryEscape', 'wcp_test_A~b%21c%27d%28e%29f%2Ag+h'],
    ['Python quote', 'wcp_test_A~b%21c%27d%28e%29f%2Ag%20h'],
    ['Ruby URI.encode_www_form_component', 'wcp_test_A%7Eb%21c%27d%28e%29f*g+h'],
    ['every byte escaped', escapeAll(KEY)],
    ['every byte escaped, mixed-case hex', alternateCase(escapeAll(KEY))],
    ['a space as %20 and as + at once, `~` as %7e', 'wcp_test_A%7eb!c%27d(e)f%2ag+h'],
  ])('%s', (_, form) => {
    expect(redactor.string(`key=${form}&next=1`)).toBe('key=***&next=1');
    expect(redactor.string(`${form}${form}`)).toBe('******');
    expect(redactor.string(form)).toBe('***');
  });

  test('a key with multi-byte characters, escaped as UTF-8', () => {
    const key = 'sk_live_clé_€_😀+x';
    const own = new Redactor([key]);
    for (const form of [encodeURIComponent(key), escapeAll(key), alternateCase(escapeAll(key))]) {
      expect(own.string(`[${form}]`)).toBe('[***]');
    }
    // `+` in the key, read as a space by a form decoder, is still the key.
    expect(own.string(`[${encodeURIComponent(key).replace('%2B', '+')}]`)).toBe('[***]');
    // The longest form is every byte escaped: three characters a byte.
    expect(own.longestForm).toBeGreaterThanOrEqual(3 * new TextEncoder().encode(key).length);
  });

  test('malformed or foreign escapes are left as written, next to a key or not', () => {
    const junk = '%ZZ 100%+ %C3 %E2%82 %C0%AF %ED%A0%80 %F5%80%80%80 %80 a+b %';
    expect(redactor.string(junk)).toBe(junk);
    expect(redactor.string(`%C3${escapeAll(KEY)}%E2%82`)).toBe('%C3***%E2%82');
  });

  test('a short secret is masked only as a whole value, encoded or not', () => {
    const own = new Redactor(['ab+c d']);
    expect(own.string('ab%2Bc%20d')).toBe('***');
    expect(own.string('x ab%2Bc%20d')).toBe('x ab%2Bc%20d');
  });

  test('keys that overlap in the text leave nothing of either', () => {
    const own = new Redactor(['sk_live_AAAA~BBBB', 'BBBB~CCCC_secret']);
    expect(own.string(`<${escapeAll('sk_live_AAAA~BBBB~CCCC_secret')}>`)).toBe('<***>');
  });

  test.each([1, 20, 60])(
    'a fully escaped key straddling the 64 KiB cut with %i characters before it leaves none',
    (before) => {
      const form = escapeAll(KEY);
      const limit = 64 * 1024;
      const text = `${'x'.repeat(limit - before)}${form}${'y'.repeat(100)}`;
      // What the reader hands over: the limit plus the redactor's longest form.
      const read = text.slice(0, limit + redactor.longestForm);
      const kept = redactThenCut(
        { text: read, cut: read.length < text.length, bytes: read.length },
        limit,
        redactor,
      );
      expect(kept.cut).toBe(true);
      expect(kept.text).toMatch(/^x+\**$/);
    },
  );
});
