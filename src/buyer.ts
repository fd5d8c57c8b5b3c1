/**
 * merchant-gateway/buyer: the buyer's calls alone (the Gateway API), for wallets, web checkouts
 * and PSPs' checkout backends: the client, its types, schemas and errors.
 * @packageDocumentation
 */

export * from './buyer-api';
export type { BuyerClientOptions } from './buyer-client';
export { BuyerClient } from './buyer-client';
export type {
  Checkout,
  CheckoutAction,
  CheckoutClient,
  CheckoutError,
  CheckoutSnapshot,
  CheckoutState,
  CheckoutWallet,
  CreateCheckoutOptions,
} from './checkout/controller-types';
export { createCheckout } from './checkout/create-checkout';
export { CheckoutStateError } from './checkout/state-error';
export type { ServiceTypedData } from './checkout/typed-data';
export { walletFromAccount } from './checkout/wallet-account';
export type { CheckoutWalletOptions } from './checkout/wallet-chains';
export type { Eip1193Provider } from './checkout/wallet-eip1193';
export { walletFromEip1193 } from './checkout/wallet-eip1193';
