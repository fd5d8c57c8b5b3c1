/** The checkout controller's public types: its states, snapshot, wallet seam and options. */
import type { RequestOptions } from '../core/http/spec';
import type {
  BuyerAction,
  BuyerPollParams,
  CollectData,
  ConfirmPaymentParams,
  FetchActionsParams,
  GatewayCancellation,
  PaymentOption,
  PaymentOptions,
  PaymentOptionsParams,
} from '../schemas/buyer';
import type { PaymentStatus, PaymentStatusResult, PaymentView } from '../schemas/payment-view';
import type { ServiceTypedData } from './typed-data';

/**
 * Where a checkout stands. `loading` until `start()` has read the payment; then the wallet
 * (`ready_for_wallet`, `connecting_wallet`), the options (`loading_options`, `options_ready`,
 * `no_options`, `option_selected`), compliance data (`information_capture`), the approval
 * (`awaiting_wallet`: the wallet is asked to sign; `confirming`: the confirm is sent and the
 * status followed), and the six terminal states.
 */
export type CheckoutState =
  | 'loading'
  | 'ready_for_wallet'
  | 'connecting_wallet'
  | 'loading_options'
  | 'options_ready'
  | 'no_options'
  | 'option_selected'
  | 'information_capture'
  | 'awaiting_wallet'
  | 'confirming'
  | 'succeeded'
  | 'failed'
  | 'expired'
  | 'cancelled'
  | 'invalid_payment'
  | 'sanctioned_user';

/** The controller's methods that act, as a `CheckoutStateError` names them. */
export type CheckoutAction =
  | 'start'
  | 'connect'
  | 'select'
  | 'submitInformation'
  | 'pay'
  | 'back'
  | 'refreshOptions'
  | 'cancel';

/**
 * What went wrong last, for the page to show: `code` is the service's or the route's error code
 * (`quote_expired`, `not_found`, `upstream_error`, …), a `PayError` reason (`action_mismatch`,
 * `account_mismatch`, …), `user_rejected` (the buyer said no in the wallet), or
 * `connection_error`, `invalid_response` and `wallet_error` for what the SDK saw itself.
 */
export interface CheckoutError {
  code: string;
  message: string;
}

/**
 * Everything a page shows, as plain data: it survives `JSON.parse(JSON.stringify(snapshot))`.
 * The same object until something changes, as React's `useSyncExternalStore` needs.
 */
export interface CheckoutSnapshot {
  readonly state: CheckoutState;
  /** The payment as its buyer sees it; null until `start()` has read it. */
  readonly payment: PaymentView | null;
  /** The options offered for the wallet's accounts (only those accounts'). */
  readonly options: readonly PaymentOption[];
  readonly selectedOption: PaymentOption | null;
  /** The form the service asks the buyer to fill before confirming, when it asks. */
  readonly collectData: CollectData | null;
  /** The wallet's CAIP-10 accounts, once connected. */
  readonly accounts: readonly string[];
  readonly error: CheckoutError | null;
  /**
   * True when the selected option's quote ran out and was renewed: the page shows the new
   * amount and the buyer pays again. False again on the next `select` or `pay`.
   */
  readonly quoteExpired: boolean;
  /** The payment's status as last read (`requires_action`, `processing`, …); null before. */
  readonly status: PaymentStatus | null;
}

/**
 * What the controller signs with. `accounts()` gives CAIP-10 ids (`eip155:8453:0xab…`);
 * `signTypedData(account, typedData)` signs for one of them the action's EIP-712 typed data as
 * the service gave it (`EIP712Domain` included) and resolves the 0x-prefixed signature. A
 * rejection with `code: 4001` (EIP-1193's user rejection) is the buyer saying no.
 * `walletFromAccount` and `walletFromEip1193` make one.
 */
export interface CheckoutWallet {
  accounts(): Promise<string[]>;
  signTypedData(account: string, typedData: ServiceTypedData): Promise<string>;
}

/**
 * The buyer's calls the controller makes: a `BuyerClient`, or a main client's `gateway.buyer`
 * (an interface of its own, so this room does not import resources/).
 */
export interface CheckoutClient {
  get(paymentId: string, options?: RequestOptions): PromiseLike<PaymentView>;
  status(
    paymentId: string,
    poll?: BuyerPollParams,
    options?: RequestOptions,
  ): PromiseLike<PaymentStatusResult>;
  options(
    paymentId: string,
    params: PaymentOptionsParams,
    options?: RequestOptions,
  ): PromiseLike<PaymentOptions>;
  fetchActions(
    paymentId: string,
    params: FetchActionsParams,
    options?: RequestOptions,
  ): PromiseLike<BuyerAction[]>;
  confirm(
    paymentId: string,
    params: ConfirmPaymentParams,
    poll?: BuyerPollParams,
    options?: RequestOptions,
  ): PromiseLike<PaymentStatusResult>;
  cancel(paymentId: string, options?: RequestOptions): PromiseLike<GatewayCancellation>;
}

interface CheckoutBase {
  /** The payment to pay (its id in `gatewayUrl`). */
  paymentId: string;
  wallet: CheckoutWallet;
  /** Aborting it is `destroy()`. */
  signal?: AbortSignal | undefined;
}

/**
 * Options of `createCheckout`: the payment, the wallet, and one way to reach the service:
 * `route`, the URL of a `gateway.buyer.route(…)` on the PSP's server (`'/api/wcp'`, relative in
 * a page: no credentials in the page), or `client`, a `BuyerClient` with a wallet's own
 * credentials.
 */
export type CreateCheckoutOptions = CheckoutBase &
  ({ route: string; client?: undefined } | { client: CheckoutClient; route?: undefined });

/**
 * A checkout of one payment: a store a UI subscribes to, and the actions a buyer takes. Every
 * method is bound (pass `checkout.subscribe` as it is). An action that does not apply in the
 * current state rejects with a `CheckoutStateError` and changes nothing; any other failure
 * resolves, with the snapshot's `error` saying what happened.
 */
export interface Checkout {
  /** The current snapshot: the same object until something changes. */
  getSnapshot(): CheckoutSnapshot;
  /** Calls `listener` after each change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** Reads the payment (`loading` → where it stands); again after a failed read. */
  start(): Promise<void>;
  /** Stops every request, wait and listener; later actions reject. */
  destroy(): void;
  /** Asks the wallet for its accounts, then the options for them. */
  connect(): Promise<void>;
  /** Chooses an option by id (from `options`). */
  select(optionId: string): Promise<void>;
  /** The `collectData` form's values by field id, sent with the confirm. */
  submitInformation(values: Record<string, string>): Promise<void>;
  /** Signs the selected option's actions (checked first), confirms once, follows to the end. */
  pay(): Promise<void>;
  /** One step back: from an option to the options, from the options to the wallet. */
  back(): Promise<void>;
  /** Asks for the options again, renewing their quotes. */
  refreshOptions(): Promise<void>;
  /** Cancels the payment as its buyer (the route must allow it: `allowCancel`). */
  cancel(): Promise<void>;
}
