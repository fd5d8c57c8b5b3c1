// Why: one loopback server where the SDK and each peer SDK hit a route shaped like its own API, answering bodies of the same size, so the per-call and cold-start tables compare clients, not servers.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { paymentCreated, paymentView } from '../scripts/stub-gateway.mjs';

// Every POST answer is padded to one size and every GET answer to another (the openai and
// anthropic answers' shapes are the longest of the POSTs; our payment view sets the GET size).
const POST_BYTES = 320;
const view = JSON.stringify(paymentView());
const ours = {
  post: (() => {
    // Padded in a real field: a longer gateway URL path, as a longer payment id would make it.
    const body = paymentCreated('pay_stub_1');
    const fill = POST_BYTES - Buffer.byteLength(JSON.stringify(body));
    return JSON.stringify({ ...body, gatewayUrl: `${body.gatewayUrl}${'x'.repeat(fill)}` });
  })(),
  get: view,
};

/** `body` as JSON, with a filler string in `field` so it is exactly as long as `like`. */
function sized(body, field, like) {
  const bare = JSON.stringify({ ...body, [field]: '' });
  const fill = Math.max(0, Buffer.byteLength(like) - Buffer.byteLength(bare));
  return JSON.stringify({ ...body, [field]: 'x'.repeat(fill) });
}

const created = 1_763_800_000;
// Stripe answers a create and a read of a PaymentIntent with the same object.
const stripeIntent = {
  id: 'pi_stub',
  object: 'payment_intent',
  amount: 100,
  currency: 'usd',
  status: 'requires_payment_method',
  livemode: false,
  metadata: { referenceId: 'order-1' },
};

/** Route key → [status, body]. Each peer's body carries the fields its SDK reads. */
export const bodies = {
  'sdk POST': [201, ours.post],
  'sdk GET': [200, ours.get],
  'openai POST': [
    200,
    JSON.stringify({
      id: 'chatcmpl_stub',
      object: 'chat.completion',
      created,
      model: 'gpt-stub',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: '',
            refusal: null,
          },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 8, completion_tokens: 8, total_tokens: 16 },
    }),
  ],
  'openai GET': [
    200,
    sized({ id: 'gpt-stub', object: 'model', created, owned_by: 'stub' }, 'description', ours.get),
  ],
  'anthropic POST': [
    200,
    JSON.stringify({
      id: 'msg_stub',
      type: 'message',
      role: 'assistant',
      model: 'claude-stub',
      content: [{ type: 'text', text: '' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 8, output_tokens: 8 },
    }),
  ],
  'anthropic GET': [
    200,
    sized(
      { id: 'claude-stub', type: 'model', created_at: '2026-01-01T00:00:00Z' },
      'display_name',
      ours.get,
    ),
  ],
  'stripe POST': [200, sized(stripeIntent, 'description', ours.post)],
  'stripe GET': [200, sized(stripeIntent, 'description', ours.get)],
};
// The openai and anthropic POST answers have no free-text field of their own to pad at the top
// level, so they are padded in their message text to the same size.
for (const [key, field] of [
  ['openai POST', (b, s) => (b.choices[0].message.content = s)],
  ['anthropic POST', (b, s) => (b.content[0].text = s)],
]) {
  const body = JSON.parse(bodies[key][1]);
  field(body, '');
  const fill = POST_BYTES - Buffer.byteLength(JSON.stringify(body));
  field(body, 'x'.repeat(Math.max(0, fill)));
  bodies[key][1] = JSON.stringify(body);
}

/** Which route a request is, by method and path; undefined when none. */
function route(method, path) {
  const peer = path.startsWith('/openai/')
    ? 'openai'
    : path.startsWith('/anthropic/')
      ? 'anthropic'
      : path.startsWith('/v1/payment_intents')
        ? 'stripe'
        : path === '/v1/payments' || path.startsWith('/v1/gateway/payment/')
          ? 'sdk'
          : undefined;
  return peer === undefined ? undefined : `${peer} ${method}`;
}

/** Starts the server on a free loopback port; counts request bytes per route for the report. */
export async function startPeerServer() {
  const requestBytes = {};
  const server = createServer((req, res) => {
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
    });
    req.on('end', () => {
      const key = route(req.method, new URL(req.url ?? '/', 'http://stub').pathname);
      const answer = key === undefined ? undefined : bodies[key];
      if (key !== undefined) requestBytes[key] = size;
      const [status, body] = answer ?? [404, '{"error":"not stubbed"}'];
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-request-id': 'req_stub',
        'request-id': 'req_stub',
      });
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requestBytes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run directly (as the benchmarks do, so its CPU is not the client's): prints its URL, then on
// each stdin line prints the request sizes seen so far as JSON; exits when stdin closes.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startPeerServer();
  process.stdout.write(`${server.url}\n`);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', () => {
    const responseBytes = Object.fromEntries(
      Object.entries(bodies).map(([k, [, b]]) => [k, Buffer.byteLength(b)]),
    );
    process.stdout.write(
      `${JSON.stringify({ requestBytes: server.requestBytes, responseBytes })}\n`,
    );
  });
  process.stdin.on('end', () => server.close().then(() => process.exit(0)));
}
