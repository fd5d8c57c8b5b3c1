/**
 * How an operation authenticates and fails, as the published contract declares it; its own module
 * so the helpers the router uses (auth, faults) need not import the router:
 * - `errors`: `shared` for the payment operations whose errors take any code of one shared list
 *   (`/v1/payments`, `/v1/payments/{id}…`, `/v1/gateway/…`), `merchant` for those that name their
 *   codes per status (merchant management, settlements, refunds, the lists);
 * - `auth`: `key` (`Api-Key` only), `app` (`Api-Key`, or `App-Id` with `Client-Id`: the gateway
 *   calls a wallet makes), `legacy` (`X-Api-Key`, or `Api-Key`);
 * - `versioned`: whether it takes `WCP-Version` (merchant management does not, and ignores it).
 */
export interface Operation {
  errors: 'shared' | 'merchant';
  auth: 'key' | 'app' | 'legacy';
  versioned: boolean;
}
