// A worker process: takes follow jobs, follows their payments with one `payments.follower()`, and
// when a payment is final records the outcome on its order and completes the job. Run two or more:
// each job is held by one worker at a time, and a worker that dies loses nothing.
//
// A held job is refreshed (pg-boss heartbeat) every few seconds. A worker killed without a word
// stops refreshing; pg-boss takes its jobs back after FOLLOW_HEARTBEAT_SECONDS and another worker
// takes them, reads each payment's status afresh and finishes the order. A worker that finds a job
// no longer refreshable (taken back after a long stall) stops following that payment, so two
// living workers never follow one payment.
import { setTimeout as sleep } from 'node:timers/promises';
import { MerchantGateway, PollTimeoutError } from 'merchant-gateway';
import type { JobAttempt } from 'pg-boss';
import { readConfig } from './config';
import { connect, type FollowJob, log, recordOutcome } from './db';
import { contextOf, startTracing } from './tracing';

// Jobs fetched at once, and the wait when the queue had fewer: the fetch is one indexed query.
const FETCH_BATCH = 50;
const IDLE_POLL_MS = 500;

interface Held {
  job: JobAttempt;
  orderId: string;
  /** Set once the payment is final and its write or completion is still to succeed. */
  outcome?: string;
  /** The order's trace, from the job: the outcome's span joins it. */
  traceparent?: string | undefined;
}

const config = readConfig();
const name = process.env.WORKER_NAME ?? `worker-${process.pid}`;
const { telemetry, tracer } = startTracing(name);
// MERCHANT_GATEWAY_BASE_URL and MERCHANT_GATEWAY_API_KEY from the environment.
const gateway = new MerchantGateway({ telemetry });
const { boss, pool } = await connect(config, name);
/** The payments this worker follows, by payment id: exactly the jobs it holds. */
const held = new Map<string, Held>();
let stopping = false;

const follower = gateway.payments.follower({
  maxHeldReads: config.maxHeldReads,
  sweepIntervalMs: config.sweepIntervalMs,
  onError(error, paymentId, { left }) {
    log(name, 'follow_error', { paymentId, message: error.message });
    const entry = paymentId === undefined ? undefined : held.get(paymentId);
    // A failed read or sweep is retried by the follower itself: the payment is still followed.
    if (paymentId === undefined || entry === undefined || !left) return;
    // The payment left the follower. Not final after the follower's 15 minutes: back to the
    // queue, to be followed afresh. A permanent answer (404: no such payment) is not retried.
    if (error instanceof PollTimeoutError) void giveBack(paymentId, entry);
    else void drop(paymentId, entry, error.message);
  },
});

async function takeJobs(): Promise<void> {
  while (!stopping) {
    const room = config.workerCapacity - held.size;
    const batchSize = Math.min(room, FETCH_BATCH);
    let jobs: { id: string; retryCount: number; data: FollowJob }[] = [];
    try {
      if (batchSize > 0) jobs = await boss.fetch<FollowJob>(config.queue, { batchSize });
    } catch (error) {
      log(name, 'fetch_error', { message: (error as Error).message });
    }
    for (const job of jobs) {
      const { orderId, paymentId, merchantId } = job.data;
      const entry: Held = {
        job: { id: job.id, retryCount: job.retryCount },
        orderId,
        traceparent: job.data.traceparent,
      };
      held.set(paymentId, entry);
      log(name, 'took', { paymentId, orderId, jobId: job.id, retryCount: job.retryCount });
      try {
        // Added by id, the follower's first read tells the current status, final or not.
        follower.add({ paymentId, merchantId });
      } catch (error) {
        await drop(paymentId, entry, (error as Error).message); // a malformed id: not retried
      }
    }
    if (jobs.length < batchSize || batchSize === 0) await sleep(IDLE_POLL_MS);
  }
}

/** Refreshes every held job; one that can no longer be refreshed was taken back: let it go. */
async function heartbeat(): Promise<void> {
  while (!stopping) {
    await sleep((config.heartbeatSeconds * 1000) / 3);
    const entries = [...held.entries()];
    if (entries.length === 0) continue;
    try {
      const result = (await boss.touch(
        config.queue,
        entries.map(([, entry]) => entry.job),
      )) as { settled?: string[] };
      const refreshed = new Set(result.settled ?? entries.map(([, entry]) => entry.job.id));
      for (const [paymentId, entry] of entries) {
        if (refreshed.has(entry.job.id) || held.get(paymentId) !== entry) continue;
        held.delete(paymentId);
        follower.remove(paymentId);
        log(name, 'released', { paymentId, orderId: entry.orderId, reason: 'claim lost' });
      }
    } catch (error) {
      log(name, 'heartbeat_error', { message: (error as Error).message });
    }
    // Outcomes whose write or completion failed (the database was away) are tried again.
    for (const [paymentId, entry] of held) {
      if (entry.outcome !== undefined) await settle(paymentId, entry, entry.outcome);
    }
  }
}

/** Records a final status on its order, then completes the job (only if this worker still holds it). */
async function settle(paymentId: string, entry: Held, status: string): Promise<void> {
  entry.outcome = status;
  try {
    const wrote = await traced(paymentId, entry, status);
    await boss.complete(config.queue, entry.job);
    if (held.get(paymentId) === entry) held.delete(paymentId);
    log(name, wrote ? 'recorded' : 'already_recorded', {
      paymentId,
      orderId: entry.orderId,
      status,
    });
  } catch (error) {
    log(name, 'settle_error', { paymentId, message: (error as Error).message });
  }
}

/**
 * The outcome's write under its span, which continues the order's trace begun in the web process.
 * The span ends (and is written out) before the job completes: a worker killed in between leaves
 * the job to another, which writes the span again, so no order's trace lacks its outcome.
 */
function traced(paymentId: string, entry: Held, status: string): Promise<boolean> {
  const attributes = {
    'order.id': entry.orderId,
    'merchant_gateway.payment.id': paymentId,
    'merchant_gateway.payment.status': status,
  };
  return tracer.startActiveSpan(
    'order.outcome',
    { attributes },
    contextOf(entry.traceparent),
    async (span) => {
      try {
        return await recordOutcome(pool, entry.orderId, status);
      } finally {
        span.end();
      }
    },
  );
}

/** Hands a job back to the queue at once (it counts as one retry), for another worker to take. */
async function giveBack(paymentId: string, entry: Held): Promise<void> {
  if (held.get(paymentId) !== entry) return;
  held.delete(paymentId);
  follower.remove(paymentId);
  try {
    await boss.fail(config.queue, entry.job, { reason: 'given back' });
  } catch (error) {
    log(name, 'give_back_error', { paymentId, message: (error as Error).message });
  }
  log(name, 'released', { paymentId, orderId: entry.orderId, reason: 'given back' });
}

/** Ends a job that no worker can finish (the gateway does not know its payment): for an operator. */
async function drop(paymentId: string, entry: Held, reason: string): Promise<void> {
  if (held.get(paymentId) !== entry) return;
  held.delete(paymentId);
  follower.remove(paymentId);
  try {
    await boss.cancel(config.queue, entry.job);
  } catch (error) {
    log(name, 'drop_error', { paymentId, message: (error as Error).message });
  }
  log(name, 'released', { paymentId, orderId: entry.orderId, reason });
}

async function follow(): Promise<void> {
  for await (const change of follower) {
    if (!change.isFinal) continue;
    const entry = held.get(change.paymentId);
    if (entry !== undefined) await settle(change.paymentId, entry, change.status);
  }
}

// A deploy stops workers with SIGTERM: their jobs go back at once instead of after a heartbeat.
async function stop(): Promise<void> {
  stopping = true;
  follower.close();
  await Promise.all(
    [...held].map(([paymentId, entry]) =>
      entry.outcome === undefined
        ? giveBack(paymentId, entry)
        : settle(paymentId, entry, entry.outcome),
    ),
  );
  await boss.stop({ graceful: true, timeout: 5000 });
  await pool.end();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

log(name, 'started', { queue: config.queue, capacity: config.workerCapacity });
void takeJobs();
void heartbeat();
await follow();
if (!stopping) {
  // The follower ended on its own (the gateway refused the key): a process manager restarts the
  // worker, and its jobs go to the others meanwhile.
  log(name, 'follower_ended', {});
  process.exit(1);
}
