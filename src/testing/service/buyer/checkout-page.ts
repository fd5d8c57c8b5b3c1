/**
 * The checkout page at each payment's `gatewayUrl` (`{prefix}/pay/{id}`), over real HTTP: what a
 * buyer sees, with plain HTML forms (no script) to pay, decline or cancel. No key: a buyer has none.
 */
import { fiatInfo } from '../../state/catalog';
import { isFinalStatus, type PaymentRecord, statusAt } from '../../state/records';
import type { Store } from '../../state/store';
import { readBoundedText } from '../http/request-body';
import { ServiceError } from '../http/responses';
import { changeStatus } from '../resources/lifecycle';
import { payableChains } from './buyer-quotes';
import { checkoutOf } from './checkout';
import { ROUTE_PATH } from './checkout-route';
import { MOCK_WALLET, mockAccount, payAs } from './mock-buyer';

/** The form's `action` values and the status each one moves an open payment to. */
const ACTIONS = { pay: 'processing', decline: 'failed', cancel: 'cancelled' } as const;
type Action = keyof typeof ACTIONS;

const OUTCOMES: Record<string, string> = {
  succeeded: 'Payment succeeded',
  failed: 'Payment failed',
  cancelled: 'Payment cancelled',
  expired: 'Payment expired',
  processing: 'Payment processing',
};

/** Answers `GET` (the page) and `POST` (a form's action) of `/pay/{id}`; `pagePath` is its own path. */
export async function handleCheckoutPage(
  store: Store,
  request: Request,
  id: string,
  pagePath: string,
): Promise<Response> {
  const payment = store.payments.get(id);
  if (!payment) return page(404, notFoundHtml(id));
  if (request.method === 'GET' || request.method === 'HEAD') {
    return page(200, paymentHtml(store, payment, pagePath));
  }
  if (request.method !== 'POST') {
    return page(405, messageHtml('Method not allowed', 'Use the buttons on the payment page.'), {
      allow: 'GET, HEAD, POST',
    });
  }
  const foreign = crossOrigin(request);
  if (foreign) {
    return page(
      403,
      messageHtml(
        'Cross-origin request refused',
        `This page takes its own forms only (${foreign}): nothing changed. Open the payment page and use its buttons.`,
      ),
    );
  }
  // A buyer's form is a few bytes; nobody makes the mock buffer more than 1 MiB without a key.
  const form = await readBoundedText(request);
  if (form === undefined) {
    return page(413, messageHtml('Request too large', 'The form sent more than 1 MiB.'));
  }
  const action = new URLSearchParams(form).get('action');
  if (!action || !Object.hasOwn(ACTIONS, action)) {
    return page(
      400,
      paymentHtml(
        store,
        payment,
        pagePath,
        'Choose pay, decline or cancel: that action is unknown.',
      ),
    );
  }
  const now = Date.now();
  const status = statusAt(payment, now);
  if (status !== 'requires_action') {
    return page(
      409,
      paymentHtml(store, payment, pagePath, `Nothing changed: the payment is already ${status}.`),
    );
  }
  if (action === 'pay') {
    try {
      // The same options and confirm a wallet goes through, signed by the mock's own buyer.
      await payAs(store, payment.id, await mockAccount(store), MOCK_WALLET);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return page(409, paymentHtml(store, payment, pagePath, `Nothing changed: ${error.message}`));
    }
  } else {
    act(store, payment, action as Action, now);
  }
  const checkout = checkoutOf(payment);
  const target = !checkout ? pagePath : action === 'pay' ? checkout.successUrl : checkout.errorUrl;
  return new Response(null, { status: 303, headers: { location: target, ...NO_STORE } });
}

/** Decline and Cancel: the payment goes `failed` or `cancelled` at once. */
function act(store: Store, payment: PaymentRecord, action: Action, now: number): void {
  changeStatus(store, payment, ACTIONS[action], now, {
    reason: action === 'cancel' ? 'cancelled_by_user' : 'declined by the buyer',
  });
}

/**
 * Why a form post comes from another site, or undefined for the page's own: a browser names the
 * site that sent it, and any page a developer visits could otherwise pay or decline their
 * sidecar's payments. `Sec-Fetch-Site` decides when sent (every current browser does); else
 * `Origin`, whose host must be the page's own (the scheme is not compared, so a TLS-terminating
 * proxy in front of the mock still works; `null`, an opaque origin, is refused). A request naming
 * neither (curl, a script) passes: it is no browser acting for someone who visited a page.
 */
export function crossOrigin(request: Request): string | undefined {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) {
    return site === 'same-origin' || site === 'none' ? undefined : `Sec-Fetch-Site is ${site}`;
  }
  const origin = request.headers.get('origin');
  if (origin === null) return undefined;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined; // `null` or garbage
  }
  return host !== undefined && host === new URL(request.url).host
    ? undefined
    : `Origin ${origin.slice(0, 100)}`;
}

const NO_STORE = { 'cache-control': 'no-store' };

// Only the mock's own scripts (files, no inline script) and calls to its own route; the forms
// work without any script.
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
  // Same-origin posts keep their Origin (with no-referrer a browser sends `Origin: null`).
  'referrer-policy': 'same-origin',
  ...NO_STORE,
};

function page(status: number, html: string, headers: Record<string, string> = {}): Response {
  return new Response(html, { status, headers: { ...HEADERS, ...headers } });
}

/** Minor units as a buyer reads them: `1250` with 2 decimals is `12.50`. */
export function formatMinor(value: bigint, decimals: number, trimZeros = false): string {
  if (decimals === 0) return value.toString();
  const digits = value.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  let fraction = digits.slice(-decimals);
  if (trimZeros) fraction = fraction.replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** The fiat amount as a buyer reads it, e.g. `12.50 USD`. */
export function fiatDisplay(payment: PaymentRecord): string {
  return `${formatMinor(payment.fiatMinor, fiatInfo(payment.currency).decimals)} ${payment.currency}`;
}

function paymentHtml(
  store: Store,
  payment: PaymentRecord,
  pagePath: string,
  notice?: string,
): string {
  const now = Date.now();
  const status = statusAt(payment, now);
  const merchant = store.merchants.get(payment.merchantId)?.name ?? payment.merchantId;
  const amount = fiatDisplay(payment);
  const { token } = payment;
  const tokens = `${formatMinor(payment.tokenValue, token.decimals, true)} ${token.symbol} on ${token.network.name}`;
  const expires = new Date(payment.expiresAt * 1000).toISOString();
  const open = status === 'requires_action';
  // No option can be quoted without a crypto settlement, so the page offers no Pay it cannot honour.
  const payable = open && payableChains(store, payment).length > 0;
  const heading = open ? `Pay ${merchant}` : (OUTCOMES[status] ?? `Payment ${status}`);
  // While processing, the page reloads itself one pollInMs later to show the outcome (no script).
  const refresh =
    status === 'processing'
      ? `<meta http-equiv="refresh" content="${Math.max(1, Math.ceil(store.config.pollInMs / 1000))}">`
      : '';
  const rows: [string, string][] = [
    ['Merchant', merchant],
    ['Amount', amount],
    ['Paid in', tokens],
    ['Reference', payment.referenceId],
    ['Status', status],
  ];
  return document(
    `${heading}: ${amount}`,
    `${refresh}`,
    [
      `<h1>${escapeHtml(heading)}</h1>`,
      notice ? `<p role="alert">${escapeHtml(notice)}</p>` : '',
      '<dl>',
      ...rows.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`),
      `<dt>Expires</dt><dd><time datetime="${expires}">${expires.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time></dd>`,
      '</dl>',
      open
        ? [
            `<form method="post" action="${escapeHtml(pagePath)}">`,
            '<fieldset><legend>Your choice</legend>',
            payable
              ? `<button type="submit" name="action" value="pay">Pay ${escapeHtml(amount)}</button>`
              : `<p role="note">${escapeHtml(merchant)} accepts no crypto yet (no settlement in USDC or USDT on Ethereum, Base, OP Mainnet or Arbitrum): this payment cannot be paid here.</p>`,
            '<button type="submit" name="action" value="decline">Decline</button>',
            '<button type="submit" name="action" value="cancel">Cancel payment</button>',
            '</fieldset></form>',
            payable ? walletHtml(payment, pagePath) : '',
          ].join('\n')
        : `<p role="status">${escapeHtml(outcomeSentence(status))}</p>`,
    ].join('\n'),
  );
}

/**
 * *Pay with a browser wallet*: an empty section the page script (the package's browser build of
 * `createCheckout`) fills in, calling the mock's own route; hidden until that script runs.
 */
function walletHtml(payment: PaymentRecord, pagePath: string): string {
  // `{prefix}/pay/{id}` → `{prefix}`: the scripts and the route sit beside the pages.
  const prefix = pagePath.replace(/\/pay\/[^/]*\/?$/, '');
  // The preview's redirects, as the forms' 303s follow them: the script leaves for one once the
  // payment is final (successUrl after succeeded, errorUrl after any other end).
  const checkout = checkoutOf(payment);
  const redirects = checkout
    ? ` data-success-url="${escapeHtml(checkout.successUrl)}" data-error-url="${escapeHtml(checkout.errorUrl)}"`
    : '';
  return [
    `<section id="wallet-checkout" hidden data-payment-id="${escapeHtml(payment.id)}" data-route="${escapeHtml(`${prefix}${ROUTE_PATH}`)}"${redirects}>`,
    '<h2>Pay with a browser wallet</h2>',
    '</section>',
    `<script type="module" src="${escapeHtml(`${prefix}/pay/assets/wallet-page.js`)}"></script>`,
  ].join('\n');
}

function outcomeSentence(status: string): string {
  if (status === 'processing')
    return 'The payment is being confirmed; this page updates by itself.';
  if (isFinalStatus(status as PaymentRecord['status']))
    return `This payment is ${status}. Nothing more to do here.`;
  return `This payment is ${status}.`;
}

function notFoundHtml(id: string): string {
  return messageHtml(
    'Payment not found',
    `There is no payment ${id}. Check the link you were given.`,
  );
}

function messageHtml(heading: string, text: string): string {
  return document(heading, '', `<h1>${escapeHtml(heading)}</h1>\n<p>${escapeHtml(text)}</p>`);
}

function document(title: string, head: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}<title>${escapeHtml(title)} (merchant-gateway mock)</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}dt{font-weight:600}dd{margin:0 0 .5rem}button{font:inherit;margin:.25rem .5rem .25rem 0;padding:.5rem 1rem}</style>
</head>
<body>
<main>
${main}
<p><small>The merchant-gateway mock's checkout: no money moves.</small></p>
</main>
</body>
</html>
`;
}

/** User data (a merchant's name, a reference) as HTML text or attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
