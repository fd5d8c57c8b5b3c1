// One webhook receiver process of test/durable/webhook-guard.test.ts: an HTTP server on 127.0.0.1
// that runs each delivered event through the guard on the shared PostgreSQL, as a replica in
// production would. The handler's effect (one row in `effects`, the order's status) is written
// with the guard's transaction client, so it commits with the guard's record or not at all.
// Answers 200 with the guard's outcome, 500 when the handler threw (the service then redelivers).
//
// Two kinds of event ids misbehave once, told by a row the test put in `misbehave` (taken outside
// the transaction, so taking it survives the failure): 'throw' makes the handler throw; 'hang'
// makes it write its effect, log `hanging`, and never finish (the test then SIGKILLs the process).
import { createServer } from 'node:http';
import { createWebhookGuard, postgresStore } from 'merchant-gateway/webhooks';
import pg from 'pg';

interface Snapshot {
  payment_id: string;
  payment_state_version: number;
  status: string;
}

const name = process.env.RECEIVER_NAME ?? 'receiver';
const log = (event: string, fields: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ at: Date.now(), role: name, event, ...fields })}\n`);

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 6 });
pool.on('error', () => {});
const guard = createWebhookGuard({ store: postgresStore({ pool }) });
// Its own connection, not the pool's: a handler holding a pooled client must not wait for another.
const side = new pg.Client({ connectionString: process.env.DATABASE_URL });
side.on('error', () => {});

async function misbehaviour(eventId: string): Promise<string | undefined> {
  const { rows } = await side.query<{ kind: string }>(
    'DELETE FROM misbehave WHERE event_id = $1 RETURNING kind',
    [eventId],
  );
  return rows[0]?.kind;
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id: string;
      type: string;
      data: Snapshot;
    };
    guard
      .handle(event, async (e, { client }) => {
        const { payment_id: paymentId, payment_state_version: version, status } = e.data;
        const odd = await misbehaviour(e.id);
        if (odd === 'throw') throw new Error('the handler failed once');
        await client.query(
          'INSERT INTO effects (event_id, payment_id, version, status, receiver) VALUES ($1, $2, $3, $4, $5)',
          [e.id, paymentId, version, status, name],
        );
        // A naive handler: it trusts the guard to never hand it an older snapshot.
        await client.query(
          `INSERT INTO orders (payment_id, status, version) VALUES ($1, $2, $3)
           ON CONFLICT (payment_id) DO UPDATE SET status = excluded.status, version = excluded.version`,
          [paymentId, status, version],
        );
        if (odd === 'hang') {
          log('hanging', { eventId: e.id });
          await new Promise(() => {});
        }
      })
      .then(
        (outcome) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ outcome }));
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: error instanceof Error ? error.message : 'error' }));
        },
      );
  });
});

await side.connect();
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  log('listening', { url: `http://127.0.0.1:${port}/` });
});

process.on('SIGTERM', () => {
  server.close();
  void Promise.allSettled([pool.end(), side.end()]).finally(() => process.exit(0));
});
