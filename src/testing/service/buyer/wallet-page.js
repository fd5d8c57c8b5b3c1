// The mock's checkout page, *Pay with a browser wallet*: createCheckout through the mock's own
// route, with the page's injected wallet (window.ethereum), every state shown as plain DOM.
// Plain JavaScript (the SDK's TypeScript program has no DOM types): the build bundles it with the
// controller into dist/browser/, which the mock serves under its page's `script-src 'self'`.
import { createCheckout, walletFromEip1193 } from '../../../checkout/browser';

const LABELS = {
  loading: 'Loading the payment…',
  ready_for_wallet: 'Connect a wallet to see how you can pay.',
  connecting_wallet: 'Waiting for your wallet…',
  loading_options: 'Finding ways to pay from your accounts…',
  options_ready: 'Choose how to pay.',
  no_options: 'None of your accounts can pay this payment.',
  option_selected: 'Ready to pay.',
  information_capture: 'The merchant needs a few details first.',
  awaiting_wallet: 'Sign the payment in your wallet…',
  confirming: 'Confirming the payment…',
  succeeded: 'Payment succeeded.',
  failed: 'Payment failed.',
  expired: 'The payment expired.',
  cancelled: 'The payment was cancelled.',
  invalid_payment: 'This payment cannot be paid here.',
  sanctioned_user: 'This account cannot pay.',
};

const FINAL = ['succeeded', 'failed', 'expired', 'cancelled', 'invalid_payment', 'sanctioned_user'];

const section = document.getElementById('wallet-checkout');
if (section) start(section);

/** @param {HTMLElement} section */
function start(section) {
  const provider = /** @type {{ ethereum?: unknown }} */ (window).ethereum;
  section.hidden = false;
  if (!provider) {
    section.append(
      paragraph(
        'note',
        'No browser wallet found (window.ethereum): install a wallet extension, or use the buttons above.',
      ),
    );
    return;
  }
  const checkout = createCheckout({
    paymentId: section.dataset.paymentId ?? '',
    route: section.dataset.route ?? '',
    wallet: walletFromEip1193(provider),
  });
  const view = build(section, checkout);
  view.successUrl = section.dataset.successUrl;
  view.errorUrl = section.dataset.errorUrl;
  checkout.subscribe(() => render(view, checkout.getSnapshot()));
  render(view, checkout.getSnapshot());
  checkout.start().catch(view.fail);
}

function build(section, checkout) {
  const state = paragraph('status', '');
  state.dataset.checkout = 'state';
  const error = paragraph('alert', '');
  error.dataset.checkout = 'error';
  const options = document.createElement('div');
  options.dataset.checkout = 'options';
  const information = document.createElement('form');
  information.dataset.checkout = 'information';
  const buttons = document.createElement('p');
  const fail = (reason) => {
    error.textContent = `${reason?.name ?? 'Error'}: ${reason?.message ?? String(reason)}`;
  };
  const act = (run) => () => {
    run().catch(fail);
  };
  const button = (name, label, run) => {
    const element = document.createElement('button');
    element.type = 'button';
    element.dataset.checkout = name;
    element.textContent = label;
    element.addEventListener('click', act(run));
    buttons.append(element);
    return element;
  };
  const view = {
    state,
    error,
    options,
    information,
    fail,
    checkout,
    connect: button('connect', 'Connect wallet', () => checkout.connect()),
    pay: button('pay', 'Pay with wallet', () => checkout.pay()),
    back: button('back', 'Back', () => checkout.back()),
    refresh: button('refresh', 'Refresh quotes', () => checkout.refreshOptions()),
  };
  information.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(information));
    checkout.submitInformation(values).catch(fail);
  });
  section.append(state, error, options, information, buttons);
  return view;
}

function render(view, snapshot) {
  // With the preview's redirects the buyer goes back to the shop once the payment is final, as
  // after the simulated forms.
  const leaveFor =
    snapshot.state === 'succeeded'
      ? view.successUrl
      : FINAL.includes(snapshot.state)
        ? view.errorUrl
        : undefined;
  if (leaveFor && !view.left) {
    view.left = true;
    window.location.assign(leaveFor);
  }
  view.state.dataset.state = snapshot.state;
  view.state.textContent = `${LABELS[snapshot.state] ?? ''} (state: ${snapshot.state})`;
  view.error.textContent = snapshot.error
    ? `${snapshot.error.code}: ${snapshot.error.message}`
    : '';
  const is = (...states) => states.includes(snapshot.state);
  // Once the wallet's confirm is sent, the simulated buttons would only answer 409: out of the way.
  const simulated = document.querySelector('main > form');
  if (simulated) simulated.hidden = is('confirming', ...FINAL);
  view.connect.hidden = !is('ready_for_wallet', 'no_options');
  view.pay.hidden = !is('option_selected');
  view.back.hidden = !is('option_selected', 'information_capture');
  view.refresh.hidden = !is('options_ready', 'option_selected') && !snapshot.quoteExpired;
  const selected = snapshot.selectedOption;
  view.pay.textContent = selected ? `Pay ${amountText(selected)}` : 'Pay with wallet';
  renderOptions(view, snapshot, is('options_ready', 'option_selected'));
  renderInformation(view, snapshot, is('information_capture'));
}

function renderOptions(view, snapshot, shown) {
  view.options.replaceChildren();
  if (!shown) return;
  for (const option of snapshot.options ?? []) {
    const element = document.createElement('button');
    element.type = 'button';
    element.dataset.optionId = option.id;
    element.textContent = `${amountText(option)} from ${option.account}`;
    element.setAttribute('aria-pressed', String(snapshot.selectedOption?.id === option.id));
    element.addEventListener('click', () => {
      view.checkout.select(option.id).catch(view.fail);
    });
    view.options.append(element);
  }
}

function renderInformation(view, snapshot, shown) {
  view.information.replaceChildren();
  view.information.hidden = !shown;
  if (!shown) return;
  const fields = snapshot.collectData?.fields ?? [];
  for (const field of fields) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.name = field.id;
    input.required = field.required;
    input.type = field.type === 'date' || field.type === 'checkbox' ? field.type : 'text';
    label.append(`${field.name} `, input);
    view.information.append(label);
  }
  if (fields.length === 0 && snapshot.collectData?.url) {
    view.information.append(paragraph('note', `Give your details at ${snapshot.collectData.url}`));
  }
  const submit = document.createElement('button');
  submit.textContent = 'Send details';
  view.information.append(submit);
}

/** `12.5 USDC on Base`, from the option's amount display. */
function amountText(option) {
  const { value, display } = option.amount;
  const decimals = display.decimals;
  const digits = value.padStart(decimals + 1, '0');
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals);
  const fraction = decimals === 0 ? '' : digits.slice(-decimals).replace(/0+$/, '');
  const network = display.networkName ? ` on ${display.networkName}` : '';
  return `${fraction ? `${whole}.${fraction}` : whole} ${display.assetSymbol}${network}`;
}

function paragraph(role, text) {
  const element = document.createElement('p');
  element.setAttribute('role', role);
  element.textContent = text;
  return element;
}
