import fc from 'fast-check';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const LETTERS = `${LOWER}${LOWER.toUpperCase()}`;
const ALNUM = `${LETTERS}0123456789`;

const chars = (alphabet: string) => fc.constantFrom(...alphabet);
const stringOf = (alphabet: string, minLength: number, maxLength: number) =>
  fc.string({ unit: chars(alphabet), minLength, maxLength });

/** Inserts `piece` into `s` at a position picked by `n`. */
function insertAt(s: string, n: number, piece: string): string {
  const i = n % (s.length + 1);
  return `${s.slice(0, i)}${piece}${s.slice(i)}`;
}

/** Characters no format here allows anywhere: whitespace, controls, non-ASCII, quotes, `\`. */
const FOREIGN = [' ', '\n', '\t', '\u0000', '\u007f', 'é', '☃', '😀', '"', '\\', '<', '>', '`'];
const foreign = (n: number) => FOREIGN[n % FOREIGN.length] as string;

/** Near-misses: a valid value changed by one mutation that breaks a rule of the format. */
function nearMisses<T>(
  valid: fc.Arbitrary<T>,
  mutations: Record<string, (value: T, n: number) => string>,
): fc.Arbitrary<string> {
  const entries = Object.values(mutations);
  return fc
    .tuple(valid, fc.nat(), fc.nat({ max: entries.length - 1 }))
    .map(([value, n, which]) => (entries[which] as (value: T, n: number) => string)(value, n));
}

// ------------------------------------------------------------------------------------- email

interface EmailParts {
  local: string;
  labels: string[];
  tld: string;
}

const renderEmail = (p: EmailParts) => `${p.local}@${[...p.labels, p.tld].join('.')}`;

const emailParts: fc.Arbitrary<EmailParts> = fc.record({
  // Dot-separated atoms, maybe a dot before the last character, which may not be `.` or `'`.
  local: fc
    .tuple(
      fc.array(stringOf(`${ALNUM}_'+-`, 1, 6), { maxLength: 3 }),
      fc.boolean(),
      chars(`${ALNUM}_+-`),
    )
    .map(([atoms, dot, last]) => `${atoms.join('.')}${dot && atoms.length > 0 ? '.' : ''}${last}`),
  labels: fc.array(
    fc.tuple(chars(ALNUM), stringOf(`${ALNUM}-`, 0, 8)).map(([a, b]) => a + b),
    { minLength: 1, maxLength: 3 },
  ),
  tld: stringOf(LETTERS, 2, 6),
});

const withFirstLabel = (p: EmailParts, label: (first: string) => string): EmailParts => ({
  ...p,
  labels: [label(p.labels[0] as string), ...p.labels.slice(1)],
});

export const validEmail = emailParts.map(renderEmail);

export const emailNearMiss = nearMisses(emailParts, {
  leadingDot: (p) => `.${renderEmail(p)}`,
  doubleDot: (p, n) => insertAt(renderEmail(p), n, '..'),
  oneLetterTld: (p) => renderEmail({ ...p, tld: p.tld.slice(0, 1) }),
  digitInTld: (p, n) => renderEmail({ ...p, tld: insertAt(p.tld, n, String(n % 10)) }),
  localEndsInDot: (p) => renderEmail({ ...p, local: `${p.local}.` }),
  localEndsInQuote: (p) => renderEmail({ ...p, local: `${p.local}'` }),
  emptyLocal: (p) => renderEmail({ ...p, local: '' }),
  noAt: (p) => renderEmail(p).replace('@', ''),
  twoAts: (p) => renderEmail(withFirstLabel(p, (l) => `x@${l}`)),
  labelStartsWithHyphen: (p) => renderEmail(withFirstLabel(p, (l) => `-${l}`)),
  noDotInDomain: (p) => `${p.local}@${p.labels.join('')}${p.tld}`,
  trailingDot: (p) => `${renderEmail(p)}.`,
  foreignCharacter: (p, n) => insertAt(renderEmail(p), n, foreign(n)),
});

export const emailNoise = fc.oneof(
  stringOf(`${'aZ9'.repeat(6)}._'+-@é \n"`, 0, 24),
  fc.emailAddress(),
  fc.string({ maxLength: 20 }),
);

// ------------------------------------------------------------------------------ CAIP-19 / 10

const caipSegment = (min: number, max: number) => stringOf(`${ALNUM}-`, min, max);

interface CaipParts {
  namespace: string;
  reference: string;
  assetNamespace: string;
  assetReference: string;
}

const caipParts: fc.Arbitrary<CaipParts> = fc.record({
  namespace: caipSegment(3, 8),
  reference: caipSegment(1, 32),
  assetNamespace: caipSegment(3, 8),
  assetReference: caipSegment(1, 128),
});

const renderCaip19 = (p: CaipParts) =>
  `${p.namespace}:${p.reference}/${p.assetNamespace}:${p.assetReference}`;
// CAIP-10 uses the asset reference as the account address: same alphabet, same 1 to 128.
const renderCaip10 = (p: CaipParts) => `${p.namespace}:${p.reference}:${p.assetReference}`;

const BAD_SEGMENT_CHARS = ['_', '.', ' ', 'é', '%', '#', '\n', '/', ':'];

function caipMutations(render: (p: CaipParts) => string) {
  return {
    namespaceTooShort: (p: CaipParts) => render({ ...p, namespace: p.namespace.slice(0, 2) }),
    namespaceTooLong: (p: CaipParts) => render({ ...p, namespace: p.namespace.padEnd(9, 'x') }),
    referenceEmpty: (p: CaipParts) => render({ ...p, reference: '' }),
    referenceTooLong: (p: CaipParts) => render({ ...p, reference: p.reference.padEnd(33, '0') }),
    lastEmpty: (p: CaipParts) => render({ ...p, assetReference: '' }),
    lastTooLong: (p: CaipParts) =>
      render({ ...p, assetReference: p.assetReference.padEnd(129, 'f') }),
    badCharacter: (p: CaipParts, n: number) =>
      insertAt(render(p), n, BAD_SEGMENT_CHARS[n % BAD_SEGMENT_CHARS.length] as string),
    trailingNewline: (p: CaipParts) => `${render(p)}\n`,
    foreignCharacter: (p: CaipParts, n: number) => insertAt(render(p), n, foreign(n)),
  };
}

export const validCaip19 = caipParts.map(renderCaip19);
export const caip19NearMiss = nearMisses(caipParts, {
  ...caipMutations(renderCaip19),
  assetNamespaceTooShort: (p) =>
    renderCaip19({ ...p, assetNamespace: p.assetNamespace.slice(0, 2) }),
  assetNamespaceTooLong: (p) =>
    renderCaip19({ ...p, assetNamespace: p.assetNamespace.padEnd(9, 'x') }),
  colonForSlash: (p) => renderCaip19(p).replace('/', ':'),
  caip10Instead: renderCaip10,
});

export const validCaip10 = caipParts.map(renderCaip10);
export const caip10NearMiss = nearMisses(caipParts, {
  ...caipMutations(renderCaip10),
  caip19Instead: renderCaip19,
  missingAddress: (p) => `${p.namespace}:${p.reference}`,
});

export const caipNoise = fc.oneof(
  stringOf('aZ9-:/_. é', 0, 40),
  fc
    .tuple(caipSegment(0, 10), caipSegment(0, 40), caipSegment(0, 10), caipSegment(0, 140))
    .map(([a, b, c, d]) => `${a}:${b}/${c}:${d}`),
  fc
    .tuple(caipSegment(0, 10), caipSegment(0, 40), caipSegment(0, 140))
    .map(([a, b, c]) => `${a}:${b}:${c}`),
);

// --------------------------------------------------------------------------------- https URL

interface UrlParts {
  scheme: string;
  userinfo: string;
  host: string;
  port: string;
  path: string;
  query: string;
  fragment: string;
}

const renderUrl = (p: UrlParts, separator = '://') =>
  `${p.scheme}${separator}${p.userinfo}${p.host}${p.port}${p.path}${p.query}${p.fragment}`;

const HEX = '0123456789ABCDEFabcdef';
const pctEncoded = fc.tuple(chars(HEX), chars(HEX)).map(([a, b]) => `%${a}${b}`);
const pchar = fc.oneof(
  { weight: 8, arbitrary: chars(`${ALNUM}-._~!$&'()*+,;=:@`) },
  { weight: 1, arbitrary: pctEncoded },
);
const queryText = fc.string({ unit: fc.oneof(pchar, chars('/?')), maxLength: 10 });
const dnsLabel = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/);
const dnsName = fc
  .tuple(fc.array(dnsLabel, { minLength: 1, maxLength: 3 }), stringOf(LOWER, 2, 6))
  .map(([labels, tld]) => [...labels, tld].join('.'));

const urlParts: fc.Arbitrary<UrlParts> = fc.record({
  scheme: fc.mixedCase(fc.constant('https')),
  userinfo: fc.oneof(
    { weight: 5, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('user@', 'u:p%40ss@', '@') },
  ),
  host: fc.oneof(
    { weight: 8, arbitrary: dnsName },
    {
      weight: 1,
      arbitrary: fc.constantFrom('[::1]', '[2001:db8::7]', '192.0.2.10', 'LOGO.Example.COM'),
    },
  ),
  port: fc.oneof(
    { weight: 5, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 65535 }).map((n) => `:${n}`) },
  ),
  path: fc
    .array(fc.string({ unit: pchar, maxLength: 8 }), { maxLength: 3 })
    .map((segments) => segments.map((s) => `/${s}`).join('')),
  query: fc.option(
    queryText.map((q) => `?${q}`),
    { nil: '' },
  ),
  fragment: fc.option(
    queryText.map((f) => `#${f}`),
    { nil: '' },
  ),
});

export const validHttpsUrl = urlParts.map((p) => renderUrl(p));

export const httpsUrlNearMiss = nearMisses(urlParts, {
  http: (p) => renderUrl({ ...p, scheme: 'http' }),
  otherScheme: (p, n) =>
    renderUrl({ ...p, scheme: ['ftp', 'javascript', 'data', 'wss'][n % 4] as string }),
  noScheme: (p) => renderUrl(p).replace(/^https:/i, ''),
  noSlashes: (p) => renderUrl(p, ':'),
  oneSlash: (p) => renderUrl(p, ':/'),
  backslashes: (p) => renderUrl(p, ':\\\\'),
  emptyHost: (p) => renderUrl({ ...p, userinfo: '', host: '' }),
  portTooBig: (p, n) => renderUrl({ ...p, port: `:${65536 + n}` }),
  portNotDigits: (p) => renderUrl({ ...p, port: ':44e' }),
  unclosedIpLiteral: (p) => renderUrl({ ...p, host: '[::1' }),
  // `%` then a character that is not hex, so the text after it cannot complete an escape.
  badPercent: (p, n) => insertAt(renderUrl(p), n, ['%g0', '%zz', '%%', '%-1'][n % 4] as string),
  secondHash: (p) => `${renderUrl({ ...p, fragment: '#a' })}#b`,
  bracketInPath: (p) => renderUrl({ ...p, path: `${p.path}/[0]` }),
  foreignCharacter: (p, n) => insertAt(renderUrl(p), n, foreign(n)),
  pipeOrBrace: (p, n) => insertAt(renderUrl(p), n, ['|', '{', '}', '^'][n % 4] as string),
});

export const httpsUrlNoise = fc.oneof(
  fc.webUrl({ validSchemes: ['https', 'http'], withQueryParameters: true, withFragments: true }),
  fc
    .tuple(
      fc.constantFrom('https://', 'https:', 'HTTPS://', ''),
      stringOf('aZ9.-:/\\?#[]@%é <', 0, 24),
    )
    .map(([a, b]) => a + b),
);

// -------------------------------------------------------------------------------- ISO 8601

interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number | undefined;
  fraction: string;
  offset: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const renderDateTime = (p: DateTimeParts) =>
  `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}${
    p.second === undefined ? '' : `:${pad(p.second)}${p.fraction}`
  }${p.offset}`;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function daysIn(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const dateTimeParts: fc.Arbitrary<DateTimeParts> = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1970, max: 2100 }), fc.integer({ min: 0, max: 9999 })),
    month: fc.integer({ min: 1, max: 12 }),
    dayPick: fc.nat(),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.option(fc.integer({ min: 0, max: 59 }), { nil: undefined }),
    fraction: fc.option(fc.stringMatching(/^\.\d{1,12}$/), { nil: '' }),
    offset: fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(
          fc.constantFrom('+', '-'),
          fc.integer({ min: 0, max: 23 }),
          fc.integer({ min: 0, max: 59 }),
          fc.constantFrom(':', ''),
        )
        .map(([sign, h, m, colon]) => `${sign}${pad(h)}${colon}${pad(m)}`),
    ),
  })
  .map(({ dayPick, ...p }) => ({ ...p, day: 1 + (dayPick % daysIn(p.year, p.month)) }));

export const validDateTime = dateTimeParts.map(renderDateTime);

const commonYear = fc.integer({ min: 0, max: 9999 }).filter((y) => !isLeap(y));

export const dateTimeNearMiss = fc.oneof(
  nearMisses(dateTimeParts, {
    missingOffset: (p) => renderDateTime({ ...p, offset: '' }),
    hourOnlyOffset: (p, n) => renderDateTime({ ...p, offset: `+${pad(n % 24)}` }),
    offsetHour24: (p) => renderDateTime({ ...p, offset: '+24:00' }),
    offsetMinute60: (p) => renderDateTime({ ...p, offset: '-05:60' }),
    month0: (p) => renderDateTime({ ...p, month: 0 }),
    month13: (p) => renderDateTime({ ...p, month: 13 }),
    day0: (p) => renderDateTime({ ...p, day: 0 }),
    dayPastMonthEnd: (p, n) => {
      const last = daysIn(p.year, p.month);
      return renderDateTime({ ...p, day: last + 1 + (n % (32 - last)) });
    },
    hour24: (p) => renderDateTime({ ...p, hour: 24 }),
    minute60: (p) => renderDateTime({ ...p, minute: 60 }),
    leapSecond: (p) => renderDateTime({ ...p, second: 60 }),
    fractionWithoutSeconds: (p) =>
      renderDateTime({ ...p, second: undefined }).replace(/(T\d\d:\d\d)/, '$1.5'),
    emptyFraction: (p) => renderDateTime({ ...p, second: p.second ?? 0, fraction: '.' }),
    spaceForT: (p) => renderDateTime(p).replace('T', ' '),
    lowerCaseT: (p) => renderDateTime(p).replace('T', 't'),
    lowerCaseZ: (p) => renderDateTime({ ...p, offset: 'z' }),
    dateOnly: (p) => renderDateTime(p).slice(0, 10),
    twoDigitYear: (p) => renderDateTime(p).slice(2),
    oneDigitMonth: (p) => renderDateTime(p).replace(/^(\d{4})-\d\d/, `$1-${p.month % 10}`),
    trailingNewline: (p) => `${renderDateTime(p)}\n`,
    foreignCharacter: (p, n) => insertAt(renderDateTime(p), n, foreign(n)),
  }),
  fc
    .tuple(dateTimeParts, commonYear)
    .map(([p, year]) => renderDateTime({ ...p, year, month: 2, day: 29 })),
  fc
    .tuple(dateTimeParts, fc.constantFrom(4, 6, 9, 11))
    .map(([p, month]) => renderDateTime({ ...p, month, day: 31 })),
);

export const dateTimeNoise = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  stringOf('0123456789-:T+Z.', 10, 32),
  fc
    .tuple(
      fc.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,4})?)?$/),
      fc.constantFrom('Z', '+00:00', '-0130', '+1', ''),
    )
    .map(([a, b]) => a + b),
);
