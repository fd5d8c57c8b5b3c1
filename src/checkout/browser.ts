/**
 * The browser build of the checkout controller (`dist/browser/checkout.js`): `createCheckout` and
 * both wallet adapters with ky and zod bundled in, no bare import, for a page served without a
 * bundler (the mock's checkout page loads it under `script-src 'self'`).
 */
export { createCheckout } from './create-checkout';
export { CheckoutStateError } from './state-error';
export { walletFromAccount } from './wallet-account';
export { walletFromEip1193 } from './wallet-eip1193';
