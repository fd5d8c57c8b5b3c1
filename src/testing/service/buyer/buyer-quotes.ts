/**
 * The buyer's options: quotes for a payment, one per buyer account and settlement token, each with
 * the EIP-712 typed data its signature must cover. Kept beside the payment records (like
 * cancellations), so `reset()` forgets them with the payments.
 */

import { SIGN_TYPED_DATA_METHOD } from '../../../rules/buyer-inputs';
import { chainOf } from '../../../rules/settlements';
import { type Eip712Facts, fiatToToken, findToken, type Token } from '../../state/catalog';
import { type PaymentRecord, statusAt } from '../../state/records';
import type { Store } from '../../state/store';
import { tokenAmountOf } from '../resources/payments';
import type { TypedDataJson } from './buyer-crypto';

/** The most quotes a payment keeps (the newest): a wallet polling options never grows the mock. */
const QUOTES_PER_PAYMENT = 64;

export interface Quote {
  id: string;
  /** The CAIP-10 account as the buyer sent it. */
  account: string;
  /** Its address. */
  address: `0x${string}`;
  token: Token;
  /** How the token is signed for, and its EIP-712 domain. */
  facts: Eip712Facts;
  /** The settlement destination's address, on the token's chain. */
  destination: `0x${string}`;
  /** Amount in the token's smallest unit. */
  value: bigint;
  /** Epoch milliseconds after which a confirm is `quote_expired`. */
  expiresAtMs: number;
  /**
   * 32 random bytes, this quote's alone: EIP-3009's bytes32 nonce, and the permit's uint256 nonce,
   * so no two quotes share typed data (and no signature pays two payments).
   */
  nonce: `0x${string}`;
  /** The opaque `data` of its `build` action, for tokens signed through `fetch`. */
  build?: string;
}

const quotes = new WeakMap<PaymentRecord, Map<string, Quote>>();

export function findQuote(payment: PaymentRecord, optionId: string): Quote | undefined {
  return quotes.get(payment)?.get(optionId);
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const isAddress = (value: string): value is `0x${string}` => ADDRESS.test(value);

type Payable = [Token, Eip712Facts, `0x${string}`];

/**
 * The settlements a payment's merchant is paid through, as `[token, facts, destination]`: its
 * crypto settlements in an ERC-20 of the catalog, and nothing else (the contract's rule: a
 * merchant without one gets no option, never a stand-in destination).
 */
function payableSettlements(store: Store, payment: PaymentRecord): Payable[] {
  const crypto = store.merchants.get(payment.merchantId)?.crypto ?? [];
  return crypto.flatMap((settlement): Payable[] => {
    const token = findToken(settlement.asset);
    const destination = settlement.destination.split(':').at(-1) ?? '';
    return token?.eip712 && isAddress(destination) ? [[token, token.eip712, destination]] : [];
  });
}

/** The chains (CAIP-2) a payment can be paid on: where the buyer's accounts must be. */
export function payableChains(store: Store, payment: PaymentRecord): string[] {
  return [...new Set(payableSettlements(store, payment).map(([token]) => token.network.id))];
}

/**
 * New quotes for `accounts` (CAIP-10): one per account and settlement on the account's chain, none
 * for an account on another chain or namespace, and none once the payment is no longer open.
 */
export function quoteOptions(
  store: Store,
  payment: PaymentRecord,
  accounts: readonly string[],
  now: number,
): Quote[] {
  if (statusAt(payment, now) !== 'requires_action') return [];
  const settlements = payableSettlements(store, payment);
  const expiresAtMs = Math.min(now + store.config.quoteWindowMs, payment.expiresAt * 1000);
  const made: Quote[] = [];
  for (const account of accounts) {
    const address = account.split(':')[2] ?? '';
    if (!account.startsWith('eip155:') || !isAddress(address)) continue;
    for (const [token, facts, destination] of settlements) {
      if (token.network.id !== chainOf(account)) continue;
      const id = store.rng.id('opt');
      made.push({
        id,
        account,
        address,
        token,
        facts,
        destination,
        value: fiatToToken(payment.fiatMinor, payment.currency, token),
        expiresAtMs,
        nonce: store.rng.hex(64) as `0x${string}`,
        ...(facts.scheme === 'eip2612' ? { build: `eip2612-permit:${id}` } : {}),
      });
    }
  }
  const kept = quotes.get(payment) ?? new Map<string, Quote>();
  quotes.set(payment, kept);
  for (const quote of made) kept.set(quote.id, quote);
  for (const id of kept.keys()) {
    if (kept.size <= QUOTES_PER_PAYMENT) break;
    kept.delete(id);
  }
  return made;
}

/** The quote's end in epoch seconds, as published: never later than the mock's own deadline. */
function quoteExpiresAt(quote: Quote): number {
  return Math.floor(quote.expiresAtMs / 1000);
}

const hex = (value: bigint | number) => `0x${value.toString(16)}`;

const DOMAIN_TYPES = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];

/**
 * The EIP-712 typed data a quote's signature covers, in the token's own domain: EIP-3009's
 * `ReceiveWithAuthorization` (USDC) or EIP-2612's `Permit` (USDT), from the buyer's account to the
 * settlement's destination, for the quote's amount, valid until the quote's end. Numbers are hex
 * strings, as the contract's example writes them.
 */
export function typedDataOf(quote: Quote): TypedDataJson {
  const { token, facts } = quote;
  const domain = {
    name: facts.name,
    version: facts.version,
    chainId: hex(BigInt(token.network.id.split(':')[1] ?? '0')),
    verifyingContract: token.asset.split(':').at(-1) ?? '',
  };
  const deadline = hex(quoteExpiresAt(quote));
  if (facts.scheme === 'eip2612') {
    return {
      domain,
      types: {
        EIP712Domain: DOMAIN_TYPES,
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      message: {
        owner: quote.address,
        spender: quote.destination,
        value: hex(quote.value),
        nonce: hex(BigInt(quote.nonce)),
        deadline,
      },
    };
  }
  return {
    domain,
    types: {
      EIP712Domain: DOMAIN_TYPES,
      ReceiveWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'ReceiveWithAuthorization',
    message: {
      from: quote.address,
      to: quote.destination,
      value: hex(quote.value),
      validAfter: '0x0',
      validBefore: deadline,
      nonce: quote.nonce,
    },
  };
}

/** The `walletRpc` action that asks the wallet to sign the quote's typed data. */
export function signAction(quote: Quote) {
  return {
    type: 'walletRpc',
    data: {
      chain_id: quote.token.network.id,
      method: SIGN_TYPED_DATA_METHOD,
      params: [quote.address, JSON.stringify(typedDataOf(quote))],
    },
  };
}

/** A `PaymentOption`: a USDC quote carries its signing action, a USDT quote a `build` action. */
export function optionJson(quote: Quote, pollInMs: number) {
  return {
    id: quote.id,
    account: quote.account,
    amount: tokenAmountOf(quote.token, quote.value),
    // The mock settles one pollInMs after a confirm.
    etaS: Math.ceil(pollInMs / 1000),
    expiresAt: quoteExpiresAt(quote),
    actions:
      quote.build === undefined
        ? [signAction(quote)]
        : [{ type: 'build', data: { data: quote.build } }],
  };
}

/**
 * The authorizations a confirm has spent, per store and generation (a `reset()` starts afresh):
 * token, owner and nonce, as a token contract keeps `authorizationState` (EIP-3009) or bumps
 * `nonces(owner)` (EIP-2612), so one signed authorization never pays twice.
 */
const spent = new WeakMap<Store, { generation: number; keys: Set<string> }>();

function spentKeys(store: Store): Set<string> {
  let entry = spent.get(store);
  if (entry?.generation !== store.generation) {
    entry = { generation: store.generation, keys: new Set() };
    spent.set(store, entry);
  }
  return entry.keys;
}

/** The token, owner and nonce the quote's typed data authorizes, read from what is signed. */
function authorizationKey(quote: Quote): string {
  const { message } = typedDataOf(quote);
  const owner = String(message.owner ?? message.from).toLowerCase();
  return `${quote.token.asset}|${owner}|${BigInt(String(message.nonce))}`;
}

/** Whether a confirm already spent the quote's (token, owner, nonce). */
export function isSpent(store: Store, quote: Quote): boolean {
  return spentKeys(store).has(authorizationKey(quote));
}

/** Marks the quote's (token, owner, nonce) spent: no later confirm may use it. */
export function spend(store: Store, quote: Quote): void {
  spentKeys(store).add(authorizationKey(quote));
}

/** Forgets a payment's quotes (once it is no longer open, none can be confirmed). */
export function dropQuotes(payment: PaymentRecord): void {
  quotes.delete(payment);
}
