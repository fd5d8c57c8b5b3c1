// A PSP's own checkout, the page half: the controller from merchant-gateway/buyer drives the
// payment through this site's route (/api/wcp; no key here), the buyer's own wallet signs. The page
// reads the controller as any store: subscribe() says something changed, getSnapshot() says what
// (the contract React's useSyncExternalStore, Vue or Svelte stores use too).
import { createCheckout, walletFromEip1193 } from 'merchant-gateway/buyer';

const main = document.getElementById('checkout');
const status = document.getElementById('status');
const error = document.getElementById('error');
const actions = document.getElementById('actions');

if (!window.ethereum) {
  status.textContent = 'No browser wallet found: install a wallet extension to pay.';
} else {
  const checkout = createCheckout({
    paymentId: main.dataset.paymentId,
    route: main.dataset.route,
    wallet: walletFromEip1193(window.ethereum),
  });
  checkout.subscribe(() => render(checkout.getSnapshot()));
  render(checkout.getSnapshot());
  checkout.start();

  function render(snapshot) {
    status.dataset.state = snapshot.state;
    status.textContent = `State: ${snapshot.state}`;
    error.textContent = snapshot.error ? `${snapshot.error.code}: ${snapshot.error.message}` : '';
    actions.replaceChildren();
    switch (snapshot.state) {
      case 'ready_for_wallet':
        button('Connect wallet', () => checkout.connect());
        break;
      case 'options_ready':
        for (const option of snapshot.options) {
          button(`Pay with ${amountText(option)}`, () => checkout.select(option.id));
        }
        break;
      case 'option_selected':
        button(`Pay ${amountText(snapshot.selectedOption)}`, () => checkout.pay());
        button('Back', () => checkout.back());
        break;
    }
  }

  function button(label, run) {
    const element = document.createElement('button');
    element.textContent = label;
    // A refused action (a CheckoutStateError) changes nothing: show why.
    element.onclick = () => run().catch((reason) => (error.textContent = reason.message));
    actions.append(element);
  }
}

/** `12.5 USDC on Base`: the option's amount in major units. */
function amountText(option) {
  const { value, display } = option.amount;
  const major = Number(value) / 10 ** display.decimals;
  return `${major} ${display.assetSymbol}${display.networkName ? ` on ${display.networkName}` : ''}`;
}
