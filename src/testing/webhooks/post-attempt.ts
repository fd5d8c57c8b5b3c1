/**
 * One delivery attempt as the service makes it: a POST of the event's body, signed afresh (a new
 * timestamp, the same `webhook-id`), redirects not followed, the answer's body never read, and any
 * 2xx within the timeout an acknowledgement.
 */
import { signWebhook } from '../../webhooks/signature';
import type { PaymentEvent } from '../state/events';
import type { MockWebhookEndpoint } from '../types';
import { unrefTimer } from './retry-schedule';
import type { WebhookFetch } from './sender-options';

/** What one attempt got: the receiver's status (null when none came) and why it failed, if it did. */
export interface AttemptOutcome {
  status: number | null;
  error: string | null;
}

export interface AttemptInput {
  endpoint: MockWebhookEndpoint;
  event: PaymentEvent;
  fetch: WebhookFetch;
  timeoutMs: number;
  /** Aborted by the caller to stop the attempt (a reset, a close, the endpoint removed). */
  abort: AbortController;
  /** Whether an abort was the sender stopping (else it is the timeout). */
  stopped: () => boolean;
}

/** The `webhook-id` of an event: `msg_` and the event id's own characters, so both stay stable. */
export function messageId(event: PaymentEvent): string {
  return `msg_${event.id.slice('evt_'.length)}`;
}

/** Sends one attempt; never throws: a failure is in the outcome's `error`. */
export async function postAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const { endpoint, event, abort } = input;
  const timer = unrefTimer(() => abort.abort(), input.timeoutMs);
  try {
    const headers = await signWebhook({
      secret: endpoint.secret,
      id: messageId(event),
      timestamp: Date.now() / 1000,
      body: event.body,
    });
    // Raced against the abort too: a fetch that ignores its signal is abandoned all the same.
    const response = await raceAbort(
      abort.signal,
      input.fetch(endpoint.url, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'user-agent': 'merchant-gateway-mock',
        },
        body: event.body,
        redirect: 'manual',
        signal: abort.signal,
      }),
    );
    // The body is not read (the service ignores it); cancelling frees the connection.
    await response.body?.cancel().catch(() => undefined);
    return outcomeOf(response.status);
  } catch (cause) {
    const error = abort.signal.aborted
      ? input.stopped()
        ? 'stopped'
        : `no answer within ${input.timeoutMs} ms`
      : `connection failed${codeOf(cause)}`;
    return { status: null, error };
  } finally {
    clearTimeout(timer);
  }
}

/** A 2xx acknowledges; a redirect (status 0: an opaque one) is never followed. */
function outcomeOf(status: number): AttemptOutcome {
  if (status >= 200 && status <= 299) return { status, error: null };
  if (status === 0) return { status: null, error: 'redirect: not followed' };
  const error =
    status >= 300 && status < 400 ? `redirect ${status}: not followed` : `HTTP ${status}`;
  return { status, error };
}

/** `promise`, or a rejection as soon as `signal` aborts. */
function raceAbort<T>(signal: AbortSignal, promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The error code of a failed fetch (ECONNRESET, ECONNREFUSED, …), never its URL or headers. */
function codeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code) ? ` (${code})` : '';
}
