import { configureClient, describeClient, type ResolvedOptions } from './client-config';
import type { ClientOptions } from './client-options';
import { Buyer } from './resources/buyer';

/**
 * Options of {@link BuyerClient}: the main client's, without the partner's `merchantId` and
 * `legacyApiKey`. A wallet or a browser uses `appId` + `clientId` (allowed there without any
 * flag); a PSP's checkout backend may use its `apiKey` (refused in a browser unless
 * `dangerouslyAllowBrowser: true`).
 */
export interface BuyerClientOptions
  extends Omit<ClientOptions, 'merchantId' | 'legacyApiKey' | 'webhookSecret'> {}

/**
 * The buyer's side of the service alone (`merchant-gateway/buyer`): what a wallet, a web
 * checkout or a PSP's checkout backend needs to pay a payment, in a small bundle. The same
 * methods as `gateway.buyer` of the main client, on the same transport (retries, timeouts,
 * redaction, validation).
 *
 * @example
 * ```ts
 * import { BuyerClient } from 'merchant-gateway/buyer';
 * const buyer = new BuyerClient({ baseUrl: 'https://gateway.example', appId: 'app_…', clientId: 'client_…' });
 * const view = await buyer.get('pay_123');
 * ```
 * @throws {ConfigurationError} when the auth scheme, base URL or browser guard is not satisfied.
 */
export class BuyerClient extends Buyer {
  readonly #options: BuyerClientOptions;
  readonly #resolved: ResolvedOptions;

  constructor(given: BuyerClientOptions = {}) {
    const { options, resolved, context } = configureClient(given);
    super(context);
    this.#options = options;
    this.#resolved = resolved;
  }

  /** The resolved base URL, without a trailing slash. */
  get baseUrl(): string {
    return this.#resolved.baseUrl;
  }

  /** A new client with some options overridden; this one is unchanged. */
  withOptions(overrides: BuyerClientOptions): BuyerClient {
    return new BuyerClient({ ...this.#options, ...overrides });
  }

  /** What `JSON.stringify` and `util.inspect` show: the configuration with every key as `***`. */
  toJSON(): Record<string, unknown> {
    return describeClient(this.#resolved);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `BuyerClient ${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}
