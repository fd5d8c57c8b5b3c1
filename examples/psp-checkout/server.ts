// A PSP's own checkout, the server half: the secret key stays here, in `gateway`; the page calls
// this server's route (`gateway.buyer.route`) under /api/wcp, never the service. Each checkout is a
// session (a random token in an HttpOnly cookie) tied to one payment, and `authorize` refuses the
// route's calls for any other payment, so a buyer cannot drive someone else's payment through it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { MerchantGateway } from 'merchant-gateway';

export interface CheckoutServer {
  /** Where it listens, e.g. `http://127.0.0.1:5173`. */
  url: string;
  /** Opens a checkout session for a payment your server created; the URL to send the buyer to. */
  startCheckout(paymentId: string): string;
  close(): Promise<void>;
}

const COOKIE = 'psp_checkout';
// The page loads its own script and calls its own server, nothing else.
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/** Serves the checkout page, its script and the route, on 127.0.0.1 unless `host` says otherwise. */
export async function startCheckoutServer(options: {
  gateway: MerchantGateway;
  port?: number;
  host?: string;
}): Promise<CheckoutServer> {
  const sessions = new Map<string, string>(); // session token → the one payment it may pay
  const route = options.gateway.buyer.route({
    authorize: (request, { paymentId }) => {
      const token = sessionToken(request.headers.get('cookie'));
      return token !== undefined && sessions.get(token) === paymentId;
    },
  });
  // Your bundler does this in your app; here esbuild bundles page.js once, at start.
  const bundled = await build({
    entryPoints: [join(import.meta.dirname, 'page.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0]?.text ?? '';

  const server = createServer((req, res) => {
    void route.node(req, res, () => page(req, res));
  });
  function page(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(script);
      return;
    }
    const checkout = /^\/checkout\/([A-Za-z0-9_-]+)$/.exec(path);
    const paymentId = checkout ? sessions.get(checkout[1] as string) : undefined;
    if (req.method !== 'GET' || !checkout || paymentId === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found\n');
      return;
    }
    res.writeHead(200, {
      ...HTML_HEADERS,
      'set-cookie': `${COOKIE}=${checkout[1]}; HttpOnly; SameSite=Strict; Path=/`,
    });
    res.end(pageHtml(paymentId));
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const address = server.address();
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    startCheckout(paymentId) {
      const token = randomBytes(18).toString('base64url');
      sessions.set(token, paymentId);
      return `${url}/checkout/${token}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The session token of a `Cookie` header, if it has ours. */
function sessionToken(cookie: string | null): string | undefined {
  for (const part of (cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === COOKIE && value) return value;
  }
  return undefined;
}

function pageHtml(paymentId: string): string {
  const id = paymentId.replace(/[^A-Za-z0-9_-]/g, '');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Checkout</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto}button{font:inherit;display:block;margin:.5rem 0}</style>
</head>
<body>
<main id="checkout" data-payment-id="${id}" data-route="/api/wcp">
<h1>Checkout</h1>
<p id="status" role="status">Loading…</p>
<p id="error" role="alert"></p>
<div id="actions"></div>
</main>
<script type="module" src="/page.js"></script>
</body>
</html>
`;
}
