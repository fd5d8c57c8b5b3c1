// The safety layer: the service has one key per partner with no scopes, so this server decides
// what an agent may do. Every rule that guards a write lives in this file.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { MerchantGatewayError } from 'merchant-gateway';

/** The writing calls, by SDK method path: what `--allow` names. */
export const WRITE_METHODS = [
  'merchants.create',
  'settlements.createCrypto',
  'payments.create',
  'payments.cancel',
  'refunds.create',
] as const;
export type WriteMethod = (typeof WRITE_METHODS)[number];

/** A cap on `payments.create`: the largest amount in minor units, in one currency. */
export interface AmountCap {
  /** ISO 4217 code, e.g. `USD`. */
  currency: string;
  /** The cap in minor units (`10000n` for USD 100.00). */
  minor: bigint;
  /** The cap as given, e.g. `100.00`, for messages. */
  text: string;
}

/** What the safety layer enforces, built once from the command line. */
export interface Policy {
  /** Writing calls the agent may make; empty: a read-only server. */
  allowed: ReadonlySet<WriteMethod>;
  cap?: AmountCap;
  /** Secrets to scrub from every tool result and log line (the API key). */
  secrets: readonly string[];
  /** Where audit lines go (stderr). */
  audit: (line: string) => void;
}

/** Digits after the point of a currency's minor unit (USD 2, JPY 0, KWD 3), from ICU's ISO 4217 data. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits as number;
}

/**
 * `--max-amount 100.00 --currency USD` → 10000n minor units. Exact decimal arithmetic: no float
 * ever holds an amount, and more decimals than the currency has is an error, not a rounding.
 */
export function parseCap(amount: string, currency: string): AmountCap {
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new Error(`--currency must be a 3-letter ISO 4217 code such as USD, got "${currency}"`);
  }
  const digits = minorDigits(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (match === null) {
    throw new Error(
      `--max-amount must be a decimal amount in major units such as 100.00, got "${amount}"`,
    );
  }
  const fraction = match[2] ?? '';
  if (fraction.length > digits) {
    throw new Error(
      `--max-amount ${amount}: ${currency} has ${digits} decimal place(s), the amount has ${fraction.length}`,
    );
  }
  const minor = BigInt(`${match[1]}${fraction.padEnd(digits, '0')}`);
  return { currency, minor, text: amount };
}

/** Why a `payments.create` is refused under the cap, or undefined when it is within it. */
export function capRefusal(cap: AmountCap | undefined, amount: unknown): string | undefined {
  if (cap === undefined) return undefined;
  const { unit, value } = (amount ?? {}) as { unit?: unknown; value?: unknown };
  const currency = typeof unit === 'string' ? unit.replace(/^iso4217\//, '') : '';
  if (currency !== cap.currency) {
    return `this server creates payments in ${cap.currency} only (--currency ${cap.currency}); the amount is in "${String(unit)}"`;
  }
  const text = typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d+$/.test(text)) {
    return 'amount.value must be a string of digits in minor units, e.g. "1999" for 19.99';
  }
  if (BigInt(text) > cap.minor) {
    return `amount ${text} minor units is over this server's cap of ${cap.text} ${cap.currency} (${cap.minor} minor units)`;
  }
  return undefined;
}

/**
 * The largest payment the service can hold, in minor units: it keeps the fiat amount in a signed
 * 32-bit integer field (`fiat_amount`).
 */
export const MAX_PAYMENT_MINOR = 2_147_483_647n;

/**
 * Why a `payments.create` amount is refused whatever the cap, or `undefined`: a value that is not
 * digits, zero (no one can pay nothing), or more than the service can hold.
 */
export function amountRefusal(amount: unknown): string | undefined {
  const { value } = (amount ?? {}) as { value?: unknown };
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    return 'amount.value must be a string of digits in minor units, e.g. "1999" for 19.99';
  }
  const minor = BigInt(value);
  if (minor === 0n) return 'amount.value must be more than zero';
  if (minor > MAX_PAYMENT_MINOR) {
    return `amount.value ${value} is over the largest amount the service holds (${MAX_PAYMENT_MINOR} minor units)`;
  }
  return undefined;
}

/** Loopback hosts: a key sent only there cannot move real money. */
function isLoopback(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return false;
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/**
 * A key looks live unless the server talks to a loopback host (a mock) or the key is a test key.
 * The service's own keys say which they are by their prefix: `wcp_test_…` is a test key, any
 * other `wcp_…` is live (a `_test_` further in does not make it one). Other shapes are test keys
 * only with a test marker (`sk_test_…`, `…_test_…`); unknown formats count as live: the safe mistake.
 */
export function looksLive(apiKey: string | undefined, baseUrl: string | undefined): boolean {
  if (isLoopback(baseUrl)) return false;
  if (apiKey === undefined) return false;
  if (apiKey.startsWith('wcp_')) return !apiKey.startsWith('wcp_test_');
  return !/(^|_)test_/.test(apiKey);
}

/** JSON with keys sorted at every level: the same arguments give the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The Idempotency-Key of a write, from the tool call itself (tool and arguments): a client that
 * retries the call, under whatever JSON-RPC id, sends the same key and the service answers with
 * the first result instead of acting twice. JSON-RPC ids are not used: clients number them from
 * 0 on every connection, so two different calls in two sessions would share a key.
 */
export function idempotencyKeyFor(tool: string, args: unknown): string {
  const digest = createHash('sha256')
    .update(`${tool}\n${canonical(args)}`)
    .digest('base64url');
  return `mcp_${tool}_${digest.slice(0, 32)}`;
}

// Binds a human's confirmation to the arguments it was asked about (2026-07-28 round trips send
// the arguments again with the answer): minted per process, never leaves it.
const confirmSecret = randomBytes(32);
/** The request state a confirmation round trip carries: a MAC of the tool call it confirms. */
export function confirmationState(tool: string, args: unknown): string {
  return createHmac('sha256', confirmSecret)
    .update(`${tool}\n${canonical(args)}`)
    .digest('base64url');
}

/** Scrubs every configured secret, as sent and encoded, from text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    const forms = new Set([
      secret,
      encodeURIComponent(secret),
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('base64url'),
    ]);
    for (const form of forms) out = out.split(form).join('***');
  }
  return out;
}

/** What a tool error says: the SDK error's class, code, status and request id, for an agent to act on. */
interface ToolErrorInfo {
  class: string;
  code?: string;
  status?: number;
  requestId?: string;
  idempotencyKey?: string;
  message: string;
}

export function errorInfo(error: unknown): ToolErrorInfo {
  if (error instanceof MerchantGatewayError) {
    const fields = error as MerchantGatewayError & {
      code?: unknown;
      status?: unknown;
      requestId?: unknown;
    };
    return {
      class: error.name,
      ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
      ...(typeof fields.status === 'number' ? { status: fields.status } : {}),
      ...(typeof fields.requestId === 'string' ? { requestId: fields.requestId } : {}),
      ...(error.idempotencyKey !== undefined ? { idempotencyKey: error.idempotencyKey } : {}),
      message: error.message,
    };
  }
  return {
    class: error instanceof Error ? error.name : 'Error',
    message: String(error instanceof Error ? error.message : error),
  };
}

/** One audit line: a JSON object on one line, secrets scrubbed. */
export interface AuditEntry {
  tool: string;
  outcome: 'ok' | 'error' | 'refused' | 'declined';
  args: unknown;
  idempotencyKey?: string;
  requestId?: string;
  reason?: string;
  error?: { class: string; code?: string; status?: number };
}

export function auditLine(entry: AuditEntry, secrets: readonly string[]): string {
  return redact(
    JSON.stringify({ audit: 'merchant-gateway-mcp', time: new Date().toISOString(), ...entry }),
    secrets,
  );
}
