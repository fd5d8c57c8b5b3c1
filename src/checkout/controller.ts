/**
 * The checkout's state machine: which actions each state takes (ACCEPTS), and the flows that move
 * between states. The snapshot is replaced, never changed, so a UI sees a new object per change.
 */
import { RequestValidationError } from '../core/errors/base';
import { sleep } from '../core/timers';
import type { CollectData, PaymentOption } from '../schemas/buyer';
import type { PaymentStatusResult } from '../schemas/payment-view';
import { collectedFields } from './collected-data';
import type {
  Checkout,
  CheckoutAction,
  CheckoutError,
  CheckoutSnapshot,
  CheckoutState,
  CheckoutWallet,
} from './controller-types';
import { CheckoutStateError } from './state-error';
import { type CheckoutTransport, type Failure, failureOf } from './transport';
import { walletError } from './wallet-errors';

/** The actions each state takes; any other is a CheckoutStateError. */
const ACCEPTS: Readonly<Record<CheckoutState, readonly CheckoutAction[]>> = {
  loading: ['start'],
  ready_for_wallet: ['connect', 'cancel'],
  connecting_wallet: [],
  loading_options: [],
  options_ready: ['select', 'refreshOptions', 'back', 'cancel'],
  no_options: ['refreshOptions', 'back', 'cancel'],
  option_selected: ['select', 'pay', 'refreshOptions', 'back', 'cancel'],
  information_capture: ['submitInformation', 'back', 'cancel'],
  awaiting_wallet: [],
  confirming: [],
  succeeded: [],
  failed: [],
  expired: [],
  cancelled: [],
  invalid_payment: [],
  sanctioned_user: [],
};

/** Final payment statuses and their states (an unknown final status is `failed`). */
const FINAL: Readonly<Record<string, CheckoutState>> = {
  succeeded: 'succeeded',
  failed: 'failed',
  expired: 'expired',
  cancelled: 'cancelled',
};

/** Error codes that end a checkout wherever they come from. */
const ENDS: Readonly<Record<string, CheckoutState>> = {
  payment_not_found: 'invalid_payment',
  payment_expired: 'expired',
  sanctioned_user: 'sanctioned_user',
};

/** How long the service may hold a confirm or a status read: the route's own bound. */
const HOLD_MS = 30_000;

const KEYS = [
  'state',
  'payment',
  'options',
  'selectedOption',
  'collectData',
  'accounts',
  'error',
  'quoteExpired',
  'status',
] as const;

type Patch = { -readonly [K in keyof CheckoutSnapshot]?: CheckoutSnapshot[K] };

const shown = ({ code, message }: Failure): CheckoutError => ({ code, message });

export class CheckoutController implements Checkout {
  #snapshot: CheckoutSnapshot = Object.freeze({
    state: 'loading',
    payment: null,
    options: [],
    selectedOption: null,
    collectData: null,
    accounts: [],
    error: null,
    quoteExpired: false,
    status: null,
  });
  readonly #listeners = new Set<{ listener: () => void }>();
  readonly #abort = new AbortController();
  readonly #transport: CheckoutTransport;
  readonly #wallet: CheckoutWallet;
  #busy: CheckoutAction | undefined;
  #started: Promise<void> | undefined;
  /** The options answer's own `collectData` (every option's), beside an option's own. */
  #formForAll: CollectData | null = null;
  #collected: { fields: { id: string; value: string }[] } | undefined;

  constructor(transport: CheckoutTransport, wallet: CheckoutWallet) {
    this.#transport = transport;
    this.#wallet = wallet;
  }

  readonly getSnapshot = (): CheckoutSnapshot => this.#snapshot;

  readonly subscribe = (listener: () => void): (() => void) => {
    const entry = { listener };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  };

  readonly destroy = (): void => {
    this.#abort.abort();
    this.#listeners.clear();
  };

  readonly start = (): Promise<void> => {
    if (this.#started !== undefined) return this.#started;
    const started = this.#run('start', () => this.#load());
    this.#started = started;
    // A read that failed leaves `loading`: start() may try again.
    const retry = () => {
      if (this.#snapshot.state === 'loading') this.#started = undefined;
    };
    started.then(retry, retry);
    return started;
  };

  readonly connect = (): Promise<void> => this.#run('connect', () => this.#connect());

  readonly select = (optionId: string): Promise<void> =>
    this.#run('select', async () => {
      const option = this.#snapshot.options.find((offered) => offered.id === optionId);
      if (option === undefined) {
        throw new RequestValidationError('checkout.select', [
          {
            field: 'optionId',
            message: 'must be the id of one of the options offered (snapshot.options)',
          },
        ]);
      }
      this.#collected = undefined;
      const collectData = option.collectData ?? this.#formForAll;
      this.#set({
        state: collectData === null ? 'option_selected' : 'information_capture',
        selectedOption: option,
        collectData,
        error: null,
        quoteExpired: false,
      });
    });

  readonly submitInformation = (values: Record<string, string>): Promise<void> =>
    this.#run('submitInformation', async () => {
      this.#collected = { fields: collectedFields(values, this.#snapshot.collectData) };
      this.#set({ state: 'option_selected', error: null });
    });

  readonly pay = (): Promise<void> => this.#run('pay', () => this.#pay());

  readonly back = (): Promise<void> =>
    this.#run('back', async () => {
      const { state, options } = this.#snapshot;
      this.#collected = undefined;
      const patch: Patch = { selectedOption: null, error: null, quoteExpired: false };
      if (state === 'option_selected' || state === 'information_capture') {
        this.#set({
          ...patch,
          state: options.length > 0 ? 'options_ready' : 'no_options',
          collectData: this.#formForAll,
        });
      } else {
        this.#formForAll = null;
        this.#set({
          ...patch,
          state: 'ready_for_wallet',
          accounts: [],
          options: [],
          collectData: null,
        });
      }
    });

  readonly refreshOptions = (): Promise<void> =>
    this.#run('refreshOptions', async () => {
      if (this.#snapshot.selectedOption !== null) return this.#requote(false);
      const ids = this.#snapshot.options.map((option) => option.id);
      const fresh = await this.#options(ids.length > 0 ? ids : undefined, this.#snapshot.state);
      if (fresh !== undefined) this.#offer(fresh);
    });

  readonly cancel = (): Promise<void> =>
    this.#run('cancel', async () => {
      try {
        await this.#transport.cancel(this.#abort.signal);
      } catch (error) {
        const failure = failureOf(error);
        if (this.#ended(failure)) return;
        this.#set({ error: shown(failure) });
        // The payment may be final already, or cancelled by a request whose answer was lost.
        if (failure.unknownOutcome || failure.code === 'invalid_state')
          await this.#follow(shown(failure));
        return;
      }
      this.#set({ state: 'cancelled', status: 'cancelled', error: null });
    });

  /** Runs an action the state takes, one at a time; failures land in the snapshot. */
  async #run(action: CheckoutAction, body: () => Promise<void>): Promise<void> {
    const { state } = this.#snapshot;
    if (this.#abort.signal.aborted)
      throw new CheckoutStateError(action, state, 'the checkout was destroyed');
    if (this.#busy !== undefined) {
      throw new CheckoutStateError(action, state, `${this.#busy}() is still running`);
    }
    if (!ACCEPTS[state].includes(action)) {
      const taken = ACCEPTS[state];
      throw new CheckoutStateError(
        action,
        state,
        taken.length === 0 ? 'it takes no action there' : `it takes ${taken.join(', ')} there`,
      );
    }
    this.#busy = action;
    try {
      await body();
    } catch (error) {
      // A destroyed checkout's flows end quietly: nobody is listening.
      if (!this.#abort.signal.aborted) throw error;
    } finally {
      this.#busy = undefined;
    }
  }

  /** A new snapshot when something changed, then every listener. */
  #set(patch: Patch): void {
    if (this.#abort.signal.aborted) return;
    const next = { ...this.#snapshot, ...patch };
    if (KEYS.every((key) => next[key] === this.#snapshot[key])) return;
    this.#snapshot = Object.freeze(next);
    for (const { listener } of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        // One listener's bug neither stops the others nor the payment.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  /** A failure that ends the checkout (unknown payment, expired, sanctioned) does so. */
  #ended(failure: Failure): boolean {
    const end = ENDS[failure.code];
    if (end === undefined) return false;
    this.#set({
      state: end,
      error: shown(failure),
      ...(end === 'expired' ? { status: 'expired' } : {}),
    });
    return true;
  }

  /** Where an open payment leaves the buyer: the step they were at. */
  #openState(): CheckoutState {
    const { selectedOption, accounts, options } = this.#snapshot;
    if (selectedOption !== null) {
      const capture = this.#snapshot.collectData !== null && this.#collected === undefined;
      return capture ? 'information_capture' : 'option_selected';
    }
    if (accounts.length === 0) return 'ready_for_wallet';
    return options.length > 0 ? 'options_ready' : 'no_options';
  }

  /** Moves to where a read status puts the checkout; true when the payment needs no more reads. */
  #apply(result: PaymentStatusResult, stillOpen: CheckoutError | null): boolean {
    const { status } = result;
    if (result.isFinal || FINAL[status] !== undefined) {
      this.#set({ state: FINAL[status] ?? 'failed', status, error: null });
      return true;
    }
    if (status === 'requires_action') {
      this.#set({ state: this.#openState(), status, error: stillOpen });
      return true;
    }
    this.#set({ state: 'confirming', status, error: null });
    return false;
  }

  async #load(): Promise<void> {
    let payment: Awaited<ReturnType<CheckoutTransport['get']>>;
    try {
      payment = await this.#transport.get(this.#abort.signal);
    } catch (error) {
      const failure = failureOf(error);
      if (!this.#ended(failure)) this.#set({ error: shown(failure) });
      return;
    }
    const state =
      payment.status === 'requires_action'
        ? 'ready_for_wallet'
        : (FINAL[payment.status] ?? 'confirming');
    this.#set({ payment, status: payment.status, error: null, state });
    if (state === 'confirming') await this.#follow(null);
  }

  /**
   * Reads the status (held) until the payment is final or open again; outlives failures. After a
   * call whose outcome is unknown (`stillOpen` set) the first read is not held: a payment the
   * call did not reach is still open, and a held read would wait on it.
   */
  async #follow(stillOpen: CheckoutError | null): Promise<void> {
    const { signal } = this.#abort;
    let hold = stillOpen === null ? HOLD_MS : 0;
    for (let failures = 0; !signal.aborted; ) {
      const began = Date.now();
      let result: PaymentStatusResult;
      try {
        result = await this.#transport.status(hold, signal);
      } catch (error) {
        const failure = failureOf(error);
        if (signal.aborted || this.#ended(failure)) return;
        this.#set({ state: 'confirming', error: shown(failure) });
        failures += 1;
        await sleep(Math.min(30_000, 500 * 2 ** failures), signal);
        continue;
      }
      failures = 0;
      hold = HOLD_MS;
      if (this.#apply(result, stillOpen)) return;
      // A service that answered before its hold without a change: read again after pollInMs.
      const pause = Math.min(Math.max(result.pollInMs ?? 1000, 100), 30_000) - (Date.now() - began);
      if (pause > 0) await sleep(pause, signal);
    }
  }

  async #connect(): Promise<void> {
    this.#set({ state: 'connecting_wallet', error: null });
    let accounts: string[];
    try {
      accounts = await this.#wallet.accounts();
      if (
        !Array.isArray(accounts) ||
        accounts.length === 0 ||
        accounts.some((a) => typeof a !== 'string')
      ) {
        throw new Error('the wallet gave no CAIP-10 accounts');
      }
    } catch (error) {
      if (this.#abort.signal.aborted) return;
      this.#set({ state: 'ready_for_wallet', error: walletError(error, 'wallet_error') });
      return;
    }
    this.#set({ accounts: [...accounts] });
    const fresh = await this.#options(undefined, 'ready_for_wallet');
    if (fresh !== undefined) this.#offer(fresh);
    else if (this.#snapshot.state === 'ready_for_wallet') this.#set({ accounts: [] });
  }

  /** Shows the options offered, none selected. */
  #offer(options: PaymentOption[]): void {
    this.#set({
      state: options.length > 0 ? 'options_ready' : 'no_options',
      options,
      selectedOption: null,
      collectData: this.#formForAll,
    });
  }

  /**
   * Asks for options for the wallet's accounts (renewing `refresh`): those for its accounts, or
   * undefined when the checkout went elsewhere (back to `fallback` with the error, or an end).
   */
  async #options(
    refresh: string[] | undefined,
    fallback: CheckoutState,
  ): Promise<PaymentOption[] | undefined> {
    const accounts = this.#snapshot.accounts.map((account) => account.toLowerCase());
    this.#set({ state: 'loading_options', error: null });
    let answer: Awaited<ReturnType<CheckoutTransport['options']>>;
    try {
      answer = await this.#transport.options(
        [...this.#snapshot.accounts],
        refresh,
        this.#abort.signal,
      );
    } catch (error) {
      const failure = failureOf(error);
      if (this.#ended(failure)) return undefined;
      this.#set({ state: fallback, error: shown(failure) });
      if (failure.code === 'invalid_state') await this.#follow(shown(failure));
      return undefined;
    }
    const { info } = answer;
    if (info !== undefined && info !== null) {
      this.#set({ payment: info, status: info.status });
      if (info.status !== 'requires_action') {
        const final = FINAL[info.status];
        this.#set({ state: final ?? 'confirming' });
        if (final === undefined) await this.#follow(null);
        return undefined;
      }
    }
    this.#formForAll = answer.collectData ?? null;
    // Only the wallet's own accounts are offered, whatever else the answer holds.
    return answer.options.filter((option) => accounts.includes(option.account.toLowerCase()));
  }

  /** Renews the selected option's quote; `expired` says it ran out (the buyer reviews it). */
  async #requote(expired: boolean): Promise<void> {
    const selected = this.#snapshot.selectedOption as PaymentOption;
    const fresh = await this.#options([selected.id], 'option_selected');
    if (fresh === undefined) return;
    const again =
      fresh.find((option) => option.id === selected.id) ??
      fresh.find(
        (option) =>
          option.account === selected.account && option.amount.unit === selected.amount.unit,
      );
    if (again === undefined) {
      this.#collected = undefined;
      this.#offer(fresh);
      this.#set({
        quoteExpired: expired,
        error: {
          code: 'no_option',
          message: 'the selected option is no longer offered: choose another',
        },
      });
      return;
    }
    const collectData = again.collectData ?? this.#formForAll;
    const capture = collectData !== null && this.#collected === undefined;
    this.#set({
      state: capture ? 'information_capture' : 'option_selected',
      options: fresh,
      selectedOption: again,
      collectData,
      quoteExpired: expired,
    });
  }

  async #pay(): Promise<void> {
    const option = this.#snapshot.selectedOption as PaymentOption;
    const { signal } = this.#abort;
    if (
      option.expiresAt !== undefined &&
      option.expiresAt !== null &&
      option.expiresAt * 1000 <= Date.now()
    ) {
      return this.#requote(true);
    }
    this.#set({ state: 'awaiting_wallet', error: null, quoteExpired: false });
    let signed: Awaited<ReturnType<typeof import('./sign').signOption>>;
    try {
      // The checks load with the first payment, as buyer.pay's do.
      const { signOption } = await import('./sign');
      signed = await signOption(option, this.#transport, this.#wallet, signal);
    } catch (error) {
      const failure = failureOf(error);
      if (signal.aborted || this.#ended(failure)) return;
      this.#set({ state: 'option_selected', error: shown(failure) });
      return;
    }
    if ('refused' in signed) {
      this.#set({ state: 'option_selected', error: signed.refused });
      return;
    }
    const { results } = signed;
    this.#set({ state: 'confirming' });
    let result: PaymentStatusResult;
    try {
      const collectedData = this.#collected;
      result = await this.#transport.confirm(
        { optionId: option.id, results, ...(collectedData === undefined ? {} : { collectedData }) },
        HOLD_MS,
        signal,
      );
    } catch (error) {
      const failure = failureOf(error);
      if (signal.aborted || this.#ended(failure)) return;
      if (failure.code === 'quote_expired') return this.#requote(true);
      this.#set({ error: shown(failure) });
      // Never a second confirm: what happened is read from the status.
      if (failure.unknownOutcome || failure.code === 'invalid_state')
        return this.#follow(shown(failure));
      this.#set({ state: 'option_selected' });
      return;
    }
    if (!this.#apply(result, null)) await this.#follow(null);
  }
}
