import { ConfigurationError } from '../core/errors/base';
import { loadOnce } from '../core/load-once';
import { REDACTED } from '../rules/headers';
import { WEBHOOK_TOLERANCE_SECONDS, webhookSecretBase64 } from '../rules/webhook-secret';
import { createWebhookGuard } from './create-guard';
import { WebhookVerificationError } from './errors';
import type { WebhookEvent } from './events';
import type { WebhookGuard, WebhookGuardOptions } from './guard';
// Types only: the signer's code loads with the verifier.
import type { WebhookBody } from './signature';
import type { VerifyKey, WebhookHeaders } from './verify';

export type { WebhookBody, WebhookHeaders };

// The verifier and the event schemas load on the first verification (a feature's edge): a client
// that never receives webhooks does not run or ship them.
const loadVerifier = loadOnce(() => import('./verify'));
type Verifier = Awaited<ReturnType<typeof loadVerifier>>;

/** Options of `Webhooks`. */
export interface WebhooksOptions {
  /**
   * The endpoint's signing secret, `whsec_…` (the service's dashboard shows it; its bare base64,
   * without `whsec_`, is taken too, as the reference libraries take it), or several
   * during a rotation (the old one stays valid 24 hours beside the new): a delivery verifies when
   * it matches any. A string may list several, separated by commas or spaces.
   */
  secret: string | readonly string[];
  /**
   * How far a delivery's `webhook-timestamp` may be from this clock, in seconds, either way.
   * `Infinity` turns the check off: for deliveries replayed from storage, and test vectors.
   * @default 300
   */
  toleranceSeconds?: number | undefined;
  /**
   * The largest body taken, in bytes: past it, `payload_too_large`, and the rest of a
   * `Request`'s body is not read. The service's events are a few KB.
   * @default 1048576 (1 MiB)
   */
  maxBodyBytes?: number | undefined;
}

/** The default `maxBodyBytes`: 1 MiB. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Each secret of a `secret` option: a string split on commas and spaces (a secret has neither),
 * an array's items likewise. Non-strings are kept, for `keyBytesOf` to refuse.
 */
export function webhookSecrets(secret: unknown): unknown[] {
  if (typeof secret === 'string') return secret.split(/[\s,]+/).filter((s) => s !== '');
  if (Array.isArray(secret))
    return secret.flatMap((s: unknown) => (typeof s === 'string' ? webhookSecrets(s) : [s]));
  return secret === undefined || secret === null ? [] : [secret];
}

/**
 * The secrets, checked: each base64 after `whsec_`, or bare base64 as the reference libraries
 * (standardwebhooks, svix) take it (decoded with the receiver).
 */
function checkedSecrets(secrets: readonly unknown[]): string[] {
  if (secrets.length === 0) {
    throw new WebhookVerificationError(
      'invalid_secret',
      "no secret: pass { secret: 'whsec_…' }, the endpoint's signing secret",
    );
  }
  return secrets.map((secret, i) => {
    if (typeof secret === 'string' && webhookSecretBase64(secret) !== undefined) return secret;
    throw new WebhookVerificationError(
      'invalid_secret',
      `${secrets.length === 1 ? 'the secret' : `secret ${i + 1} of ${secrets.length}`} is not base64 of at least one byte after whsec_ (the dashboard shows it so; a bare base64 secret is taken too)`,
    );
  });
}

/**
 * Receives the service's webhooks: verifies each delivery's signature and timestamp, and parses
 * its event. Holds no API key: usable where no client is (an edge function, a Worker, a queue
 * consumer), from `merchant-gateway/webhooks`; a client's `gateway.webhooks` is one with the
 * client's `webhookSecret`.
 *
 * @example
 * ```ts
 * const webhooks = new Webhooks({ secret: process.env.WEBHOOK_SECRET! });
 * const event = await webhooks.unwrap(rawBody, req.headers); // or unwrap(request)
 * ```
 * @throws {WebhookVerificationError} `invalid_secret` when a secret is missing or malformed.
 * @throws {ConfigurationError} when `toleranceSeconds` is not a number from 0 to Infinity.
 */
export class Webhooks {
  /** Seconds a delivery's timestamp may be off, either way (`Infinity`: not checked). */
  readonly toleranceSeconds: number;
  /** The largest body taken, in bytes. */
  readonly maxBodyBytes: number;
  readonly #secrets: readonly string[];
  /** The verifier and the secrets' keys, once loaded: later deliveries take them without a wait. */
  #ready: { verifier: Verifier; keys: VerifyKey[] } | undefined;

  constructor(options: WebhooksOptions) {
    const given = (typeof options === 'object' && options !== null ? options : {}) as Partial<
      Record<keyof WebhooksOptions, unknown>
    >;
    // Own properties only: a polluted Object.prototype gives no secret.
    const secret = Object.hasOwn(given, 'secret') ? given.secret : undefined;
    const tolerance = Object.hasOwn(given, 'toleranceSeconds') ? given.toleranceSeconds : undefined;
    const maxBody = Object.hasOwn(given, 'maxBodyBytes') ? given.maxBodyBytes : undefined;
    const secrets = checkedSecrets(webhookSecrets(secret));
    this.#secrets = secrets;
    const seconds = tolerance ?? WEBHOOK_TOLERANCE_SECONDS;
    if (typeof seconds !== 'number' || !(seconds >= 0)) {
      throw new ConfigurationError(
        'toleranceSeconds must be a number of seconds from 0 up (Infinity turns the check off)',
      );
    }
    this.toleranceSeconds = seconds;
    const bytes = maxBody ?? MAX_BODY_BYTES;
    if (typeof bytes !== 'number' || !(Number.isSafeInteger(bytes) && bytes >= 1)) {
      throw new ConfigurationError(
        'maxBodyBytes must be a whole number of bytes, at least 1 (default 1048576, 1 MiB)',
      );
    }
    this.maxBodyBytes = bytes;
  }

  /**
   * Verifies a delivery and returns its event, typed by `type` (`switch (event.type)` narrows it).
   * Pass the raw body as received with its headers, or a Fetch `Request` alone: its headers and
   * timestamp are judged before its body is read, and the body is read once, at most
   * `maxBodyBytes`. An event of a type the SDK does not know yet comes as an
   * `UnknownWebhookEvent`.
   *
   * @throws {WebhookVerificationError} when the delivery fails verification or is not an event:
   *   answer 400 and do not act on it.
   */
  unwrap(request: Request): Promise<WebhookEvent>;
  unwrap(body: WebhookBody, headers: WebhookHeaders): Promise<WebhookEvent>;
  async unwrap(body: WebhookBody | Request, headers?: WebhookHeaders): Promise<WebhookEvent> {
    const { verifier, keys } = this.#ready ?? (await this.#load());
    // A Fetch `Request` alone is told apart, and read, by the verifier.
    return verifier.unwrapDelivery(keys, body, headers, this);
  }

  /**
   * Verifies a delivery's signature and timestamp only (the body is not parsed).
   *
   * @throws {WebhookVerificationError} when it fails: answer 400 and do not act on it.
   */
  async verifySignature(body: WebhookBody, headers: WebhookHeaders): Promise<void> {
    const { verifier, keys } = this.#ready ?? (await this.#load());
    await verifier.verifyDelivery(keys, body, headers, this);
  }

  /** Loads the verifier (again after a failed load) and makes each secret's key, once. */
  async #load(): Promise<{ verifier: Verifier; keys: VerifyKey[] }> {
    const verifier = await loadVerifier();
    this.#ready ??= { verifier, keys: verifier.webhookKeys(this.#secrets) };
    return this.#ready;
  }

  /**
   * Exactly once on top of the service's at least once: `guard.handle(event, fn)` runs `fn` at most
   * once per event id, never for a snapshot older than one handled, and counts an event handled
   * only when `fn` resolves (docs/webhooks.md, "The guard"). The guard keeps no secret; it is the same as
   * `createWebhookGuard(options)`.
   * @example
   * ```ts
   * const guard = gateway.webhooks.guard({ store: postgresStore({ pool }) });
   * const event = await gateway.webhooks.unwrap(rawBody, req.headers);
   * await guard.handle(event, async (event, { client }) => {
   *   await client.query('UPDATE orders SET status = $1 WHERE payment_id = $2', [...]);
   * }); // 'handled' | 'duplicate' | 'stale': answer 2xx; a throw: answer 5xx
   * ```
   */
  guard<Context = undefined>(options?: WebhookGuardOptions<Context>): WebhookGuard<Context> {
    return createWebhookGuard(options);
  }

  /** What `JSON.stringify` and `util.inspect` show: the secrets as `***`. */
  toJSON(): Record<string, unknown> {
    const tolerance = this.toleranceSeconds;
    return {
      secret: this.#secrets.map(() => REDACTED),
      toleranceSeconds: Number.isFinite(tolerance) ? tolerance : String(tolerance),
      maxBodyBytes: this.maxBodyBytes,
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Webhooks ${JSON.stringify(this.toJSON())}`;
  }
}
