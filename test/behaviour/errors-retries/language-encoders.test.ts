// A key echoed the way Go's, Python's and Ruby's own encoders write it (issue 41.2) is redacted on
// every surface: `~` kept, `+` for the space, `%2A` for `*`, in either case of hex. Their outputs
// are written out by hand here (not made by a JavaScript encoder) so the redactor is tried on
// what those languages really send, in the message, body, headers, issues, request id,
// JSON.stringify, util.inspect, the log lines and the span's status with the real OpenTelemetry SDK.
import { inspect } from 'node:util';
import { MerchantGateway } from 'merchant-gateway';
import { describe, expect, test } from 'vitest';
import { BASE_URL, HttpResponse, http, useMsw } from '../../support';
import { setUpOtel } from '../telemetry/otel';

const server = useMsw();
const otel = setUpOtel();

const KEY = "wcp_test_A~b!c'd(e)f*g h";
const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());

/** Each encoder's exact output for KEY, as its documentation and source define it. */
const ENCODERS: Record<string, string> = {
  // Keeps A-Z a-z 0-9 - _ . ~, the space as `+`.
  'Go url.QueryEscape': 'wcp_test_A~b%21c%27d%28e%29f%2Ag+h',
  // Keeps A-Z a-z 0-9 _ . - ~ (and `/` for quote), the space as `+` (quote_plus) or %20 (quote).
  'Python urllib.parse.quote_plus': 'wcp_test_A~b%21c%27d%28e%29f%2Ag+h',
  'Python urllib.parse.quote': 'wcp_test_A~b%21c%27d%28e%29f%2Ag%20h',
  // Keeps * - . _ A-Z a-z 0-9 and escapes `~`; the space as `+`.
  'Ruby URI.encode_www_form_component': 'wcp_test_A%7Eb%21c%27d%28e%29f*g+h',
  // Keeps A-Z a-z 0-9 _ . - ~; the space as `+`.
  'Ruby CGI.escape': 'wcp_test_A~b%21c%27d%28e%29f%2Ag+h',
};
const FORMS = Object.entries(ENCODERS).flatMap(([name, form]) => [
  [name, form],
  [`${name}, lower-case hex`, lower(form)],
]);

describe.each(FORMS)('the key as %s writes it', (_, form) => {
  test('shows on no surface of the error, the log or the span', async () => {
    expect(form).not.toBe(KEY); // what each form is about: an encoding of the key
    otel.reset();
    const lines: string[] = [];
    const log = (...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    };
    server.use(
      http.get(`${BASE_URL}/v1/merchants`, () =>
        HttpResponse.json(
          {
            code: 'invalid_params',
            message: `got [${form}] from apiKey=${form}&next=1`,
            details: { echo: form, [form]: 'as a key' },
            issues: [{ field: 'apiKey', message: `[${form}] is not a key` }],
          },
          { status: 400, headers: { 'x-echo': `k=${form}`, 'x-request-id': `req_${form}` } },
        ),
      ),
    );
    const gateway = new MerchantGateway({
      baseUrl: BASE_URL,
      apiKey: KEY,
      maxRetries: 0,
      logLevel: 'debug',
      logger: { debug: log, info: log, warn: log, error: log },
      telemetry: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
    });

    const error = await gateway.merchants.list().then(
      () => undefined,
      (e: unknown) => e as Error & Record<string, unknown>,
    );

    // Masked exactly over the key's echo: the text around it stays.
    expect(error?.message).toContain('got [***] from apiKey=***&next=1');
    expect(error?.headers).toMatchObject({ 'x-echo': 'k=***', 'x-request-id': 'req_***' });
    expect(error?.issues).toEqual([{ field: 'apiKey', message: '[***] is not a key' }]);
    const spans = otel.finished();
    const statuses = spans.map((span) => span.status.message ?? '');
    expect(statuses.some((status) => status.includes('got [***]'))).toBe(true);
    const texts = [
      error?.message,
      JSON.stringify(error?.body),
      JSON.stringify(error?.headers),
      JSON.stringify(error?.issues),
      String(error?.requestId),
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      ...lines,
      ...statuses,
      ...spans.map((span) => JSON.stringify(span.attributes)),
    ];
    for (const text of texts) {
      expect(text).not.toContain(form);
      expect(text).not.toContain(KEY);
    }
  });
});
