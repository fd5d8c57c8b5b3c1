import { configureClient, describeClient, env, type ResolvedOptions } from './client-config';
import type { ClientOptions } from './client-options';
import { HoldLimit } from './follow/hold-limit';
import { Buyer } from './resources/buyer';
import { LegacyPayments } from './resources/legacy-payments';
import { Merchants } from './resources/merchants';
import { PartnerPayments } from './resources/partner-payments';
import { Payments } from './resources/payments';
import { Refunds } from './resources/refunds';
import { Settlements } from './resources/settlements';
import { WebhookVerificationError } from './webhooks/errors';
import { Webhooks } from './webhooks/webhooks';

export type { ClientOptions } from './client-options';

/**
 * The client of the merchant payment gateway.
 *
 * @example
 * ```ts
 * const gateway = new MerchantGateway({ baseUrl: 'https://gateway.example', apiKey: 'sk_…' });
 * const merchant = await gateway.merchants.create({ merchantName: 'Acme', merchantEmail: 'pay@acme.io' });
 * ```
 * @throws {ConfigurationError} when the auth scheme, base URL or browser guard is not satisfied.
 */
export class MerchantGateway {
  /** Create, update, read, list and delete merchants. */
  readonly merchants: Merchants;
  /** Register, list, change and delete crypto settlement destinations. */
  readonly settlements: Settlements;
  /** Create payments, read them, follow them to a final status and list them. */
  readonly payments: Payments;
  /** List the payments of all your merchants, or of the ones you name, in one list. */
  readonly partnerPayments: PartnerPayments;
  /** @deprecated The path-based list of a merchant's payments. Use `payments.list` instead. */
  readonly legacyPayments: LegacyPayments;
  /** Refund succeeded payments, in full. */
  readonly refunds: Refunds;
  /** The buyer's side (the Gateway API): read, quote, sign and confirm a payment as its buyer. */
  readonly buyer: Buyer;

  readonly #options: ClientOptions;
  readonly #resolved: ResolvedOptions;
  #webhooks: Webhooks | undefined;

  constructor(given: ClientOptions = {}) {
    const parts = configureClient(given);
    const { options, resolved } = parts;
    // What follows learn, per client; the buyer entry's client has none (client-config.ts).
    const context = { ...parts.context, holdLimit: new HoldLimit() };
    this.#options = options;
    this.#resolved = resolved;
    this.merchants = new Merchants(context);
    this.settlements = new Settlements(context);
    this.payments = new Payments(context);
    this.partnerPayments = new PartnerPayments(context);
    this.legacyPayments = new LegacyPayments(context);
    this.refunds = new Refunds(context);
    this.buyer = new Buyer(context);
  }

  /**
   * Receives the service's webhooks with the `webhookSecret` option (else
   * `MERCHANT_GATEWAY_WEBHOOK_SECRET`): `unwrap(body, headers)` verifies a delivery and returns
   * its typed event. Made on first use: a client that receives none needs no secret.
   * @throws {WebhookVerificationError} `invalid_secret` when no secret is set or one is malformed.
   */
  get webhooks(): Webhooks {
    if (this.#webhooks !== undefined) return this.#webhooks;
    // Own property only: an inherited one would be a polluted Object.prototype.
    const own = Object.hasOwn(this.#options, 'webhookSecret')
      ? this.#options.webhookSecret
      : undefined;
    const secret = own ?? env('MERCHANT_GATEWAY_WEBHOOK_SECRET');
    if (secret === undefined) {
      throw new WebhookVerificationError(
        'invalid_secret',
        "no webhook secret: pass the webhookSecret option or set MERCHANT_GATEWAY_WEBHOOK_SECRET (the endpoint's whsec_… secret)",
      );
    }
    this.#webhooks = new Webhooks({ secret });
    return this.#webhooks;
  }

  /** The resolved base URL, without a trailing slash. */
  get baseUrl(): string {
    return this.#resolved.baseUrl;
  }

  /** A new client with some options overridden; this one is unchanged. */
  withOptions(overrides: ClientOptions): MerchantGateway {
    return new MerchantGateway({ ...this.#options, ...overrides });
  }

  /** What `JSON.stringify` and `util.inspect` show: the configuration with every key as `***`. */
  toJSON(): Record<string, unknown> {
    return describeClient(this.#resolved);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `MerchantGateway ${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}
