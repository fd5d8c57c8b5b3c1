/**
 * The mock's webhook sender: delivers each payment event to every endpoint that takes its type, as
 * the service delivers (`spec/service-webhooks.md`): one signed POST per attempt (a fresh
 * timestamp and signature, the same `webhook-id`), any 2xx within the timeout acknowledges,
 * redirects are not followed, retries on the service's schedule (scaled), then failed and kept
 * for a resend. Memory is bounded by the log's size; every timer is unref'd.
 */
import { generateWebhookSecret, secretKeyBytes, signWebhook } from '../../webhooks/signature';
import type { PaymentEvent } from '../state/events';
import { isoTime } from '../state/records';
import { Rng } from '../state/rng';
import type { EventSink } from '../state/store';
import type {
  MockWebhookChaos,
  MockWebhookDelivery,
  MockWebhookEndpoint,
  MockWebhookEndpointInput,
  MockWebhooks,
} from '../types';

/** The waits before attempts 2 to 8, after the previous attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_LOG_SIZE = 10_000;
/** Attempts in flight at once, across endpoints: a burst of events never opens a socket each. */
const MAX_IN_FLIGHT = 32;
/** The longest a timer waits (2^31 - 1 ms); a scaled wait is clamped to it. */
const MAX_TIMER_MS = 2_147_483_647;
/** A duplicate is sent this long after its original at most, when no reorder window is set. */
const DUPLICATE_SPREAD_MS = 100;

export type WebhookFetch = (input: string, init: RequestInit) => Promise<Response>;

export interface SenderOptions {
  seed: number;
  retryScale?: number | undefined;
  timeoutMs?: number | undefined;
  chaos?: MockWebhookChaos | undefined;
  logSize?: number | undefined;
  fetch?: WebhookFetch | undefined;
}

interface Endpoint extends MockWebhookEndpoint {}

interface Delivery {
  id: string;
  endpoint: Endpoint;
  event: PaymentEvent;
  status: MockWebhookDelivery['status'];
  duplicate: boolean;
  attempts: MockWebhookDelivery['attempts'];
  /** Attempts of the current round (a resend starts a new one). */
  round: number;
  nextAt: number | null;
  timer: ReturnType<typeof setTimeout> | undefined;
  abort: AbortController | undefined;
}

export class WebhookSender implements EventSink, MockWebhooks {
  readonly #endpoints = new Map<string, Endpoint>();
  /** The delivery log in insertion order: the oldest first. */
  readonly #log = new Map<string, Delivery>();
  readonly #ready: Delivery[] = [];
  readonly #idleWaiters = new Set<() => void>();
  readonly #retryScale: number;
  readonly #timeoutMs: number;
  readonly #chaos: Required<MockWebhookChaos>;
  readonly #logSize: number;
  readonly #fetch: WebhookFetch | undefined;
  readonly #seed: number;
  #chaosRng: Rng;
  #idRng: Rng;
  #inFlight = 0;
  #pending = 0;
  #closed = false;

  constructor(options: SenderOptions) {
    this.#seed = options.seed;
    this.#retryScale = positive(options.retryScale, 'webhookRetryScale', 1);
    this.#timeoutMs = positive(options.timeoutMs, 'webhookTimeoutMs', DEFAULT_TIMEOUT_MS);
    this.#logSize = Math.floor(positive(options.logSize, 'webhookLogSize', DEFAULT_LOG_SIZE));
    this.#chaos = checkChaos(options.chaos ?? {});
    this.#fetch = options.fetch;
    this.#chaosRng = new Rng(this.#seed ^ 0x00c4_a05e);
    this.#idRng = new Rng(this.#seed ^ 0x0de1_7e55);
  }

  // --- EventSink: what the lifecycle calls ---------------------------------------------------

  wanted(): boolean {
    return !this.#closed && this.#endpoints.size > 0;
  }

  send(event: PaymentEvent): void {
    for (const endpoint of this.#endpoints.values()) {
      if (endpoint.types && !endpoint.types.includes(event.type)) continue;
      this.#enqueue(endpoint, event, false);
    }
  }

  // --- MockWebhooks: what users call ---------------------------------------------------------

  add(input: MockWebhookEndpointInput): MockWebhookEndpoint {
    const endpoint = checkEndpoint(input, this.#idRng.id('we'));
    this.#endpoints.set(endpoint.id, endpoint);
    return copyEndpoint(endpoint);
  }

  remove(endpointId: string): boolean {
    const endpoint = this.#endpoints.get(endpointId);
    if (!endpoint) return false;
    this.#endpoints.delete(endpointId);
    for (const delivery of this.#log.values()) {
      if (delivery.endpoint === endpoint && delivery.status === 'pending') this.#stop(delivery);
    }
    return true;
  }

  list(): MockWebhookEndpoint[] {
    return [...this.#endpoints.values()].map(copyEndpoint);
  }

  deliveries(): MockWebhookDelivery[] {
    return [...this.#log.values()].map(view);
  }

  resend(deliveryId: string): MockWebhookDelivery | undefined {
    const delivery = this.#log.get(deliveryId);
    if (!delivery) return undefined;
    if (delivery.status !== 'pending') {
      delivery.status = 'pending';
      delivery.round = 0;
      this.#pending++;
      this.#due(delivery);
    }
    return view(delivery);
  }

  idle(timeoutMs = 10_000): Promise<boolean> {
    if (this.#isIdle()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        this.#idleWaiters.delete(onIdle);
        resolve(idle);
      };
      const onIdle = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      this.#idleWaiters.add(onIdle);
    });
  }

  // --- the mock's own controls ---------------------------------------------------------------

  /** Back to no deliveries (endpoints stay: they are configuration, like the credentials). */
  reset(): void {
    for (const delivery of this.#log.values()) this.#stop(delivery);
    this.#log.clear();
    this.#ready.length = 0;
    this.#pending = 0;
    this.#chaosRng = new Rng(this.#seed ^ 0x00c4_a05e);
    this.#notifyIdle();
  }

  /** Stops every delivery for good: nothing more is sent. */
  close(): void {
    this.#closed = true;
    for (const delivery of this.#log.values()) {
      if (delivery.status === 'pending') this.#stop(delivery);
    }
    this.#ready.length = 0;
    this.#notifyIdle();
  }

  // --- delivery ------------------------------------------------------------------------------

  #enqueue(endpoint: Endpoint, event: PaymentEvent, duplicate: boolean, delayMs = 0): void {
    const delivery: Delivery = {
      id: this.#idRng.id('dlv'),
      endpoint,
      event,
      status: 'pending',
      duplicate,
      attempts: [],
      round: 0,
      nextAt: null,
      timer: undefined,
      abort: undefined,
    };
    this.#makeRoom();
    this.#log.set(delivery.id, delivery);
    const { dropRate, duplicateRate, reorderWindowMs } = this.#chaos;
    const rng = this.#chaosRng;
    if (!duplicate && dropRate > 0 && rng.next() < dropRate) {
      delivery.status = 'dropped';
      return;
    }
    this.#pending++;
    if (duplicate) {
      this.#schedule(delivery, delayMs);
      return;
    }
    // Half the deliveries are held a random time within the window, so later ones overtake them.
    const hold = reorderWindowMs > 0 && rng.next() < 0.5 ? rng.next() * reorderWindowMs : 0;
    const twice = duplicateRate > 0 && rng.next() < duplicateRate;
    const twin = rng.next() * (reorderWindowMs > 0 ? reorderWindowMs : DUPLICATE_SPREAD_MS);
    this.#schedule(delivery, hold);
    if (twice) this.#enqueue(endpoint, event, true, twin);
  }

  /** The log at its size: forget the oldest finished delivery, else give up the oldest pending one. */
  #makeRoom(): void {
    if (this.#log.size < this.#logSize) return;
    let victim: Delivery | undefined;
    // Every one pending (a receiver long down): the oldest goes, without a scan of the log.
    if (this.#log.size <= this.#pending) {
      victim = this.#log.values().next().value;
    } else {
      for (const delivery of this.#log.values()) {
        if (delivery.status !== 'pending') {
          victim = delivery;
          break;
        }
      }
    }
    if (!victim) return;
    this.#stop(victim);
    this.#log.delete(victim.id);
  }

  #schedule(delivery: Delivery, ms: number): void {
    clearTimeout(delivery.timer);
    delivery.timer = undefined;
    if (ms <= 0) {
      this.#due(delivery);
      return;
    }
    delivery.nextAt = Date.now() + ms;
    const timer = setTimeout(
      () => {
        delivery.timer = undefined;
        this.#due(delivery);
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    (timer as { unref?: () => void }).unref?.();
    delivery.timer = timer;
  }

  #due(delivery: Delivery): void {
    delivery.nextAt = Date.now();
    this.#ready.push(delivery);
    this.#pump();
  }

  #pump(): void {
    while (this.#inFlight < MAX_IN_FLIGHT && this.#ready.length > 0 && !this.#closed) {
      const delivery = this.#ready.shift() as Delivery;
      if (delivery.status !== 'pending' || delivery.abort) continue;
      void this.#attempt(delivery);
    }
  }

  async #attempt(delivery: Delivery): Promise<void> {
    this.#inFlight++;
    const abort = new AbortController();
    delivery.abort = abort;
    const started = Date.now();
    const timer = setTimeout(() => abort.abort(), this.#timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const { event, endpoint } = delivery;
      const headers = await signWebhook({
        secret: endpoint.secret,
        id: messageId(event),
        timestamp: Date.now() / 1000,
        body: event.body,
      });
      const fetcher = this.#fetch ?? globalThis.fetch;
      // Raced against the abort too: a fetch that ignores its signal is abandoned all the same.
      const response = await raceAbort(
        abort.signal,
        fetcher(endpoint.url, {
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
      status = response.status;
      // The body is not read (the service ignores it); cancelling frees the connection.
      await response.body?.cancel().catch(() => undefined);
      if (status < 200 || status > 299) {
        error =
          status >= 300 && status < 400
            ? `redirect ${status}: not followed`
            : status === 0
              ? 'redirect: not followed'
              : `HTTP ${status}`;
        if (status === 0) status = null;
      }
    } catch (cause) {
      error = abort.signal.aborted
        ? this.#closed
          ? 'stopped'
          : `no answer within ${this.#timeoutMs} ms`
        : `connection failed${codeOf(cause)}`;
    } finally {
      clearTimeout(timer);
      this.#inFlight--;
    }
    // Stopped meanwhile (reset, close, endpoint removed): the result is not recorded.
    if (delivery.abort !== abort) {
      this.#pump();
      this.#notifyIdle();
      return;
    }
    delivery.abort = undefined;
    delivery.attempts.push({
      at: isoTime(started),
      status,
      error,
      durationMs: Date.now() - started,
    });
    delivery.round++;
    if (error === null) this.#finish(delivery, 'delivered');
    else if (delivery.round >= MAX_ATTEMPTS) this.#finish(delivery, 'failed');
    else {
      const wait = (RETRY_SCHEDULE_MS[delivery.round - 1] as number) * this.#retryScale;
      this.#schedule(delivery, wait);
    }
    this.#pump();
  }

  #finish(delivery: Delivery, status: 'delivered' | 'failed'): void {
    delivery.status = status;
    delivery.nextAt = null;
    this.#pending--;
    this.#notifyIdle();
  }

  /** Stops a delivery: no timer, no attempt in flight; a pending one is failed. */
  #stop(delivery: Delivery): void {
    clearTimeout(delivery.timer);
    delivery.timer = undefined;
    delivery.abort?.abort();
    delivery.abort = undefined;
    if (delivery.status === 'pending') {
      delivery.status = 'failed';
      delivery.nextAt = null;
      this.#pending--;
    }
  }

  #isIdle(): boolean {
    return this.#pending <= 0 && this.#inFlight === 0;
  }

  #notifyIdle(): void {
    if (!this.#isIdle()) return;
    for (const wake of [...this.#idleWaiters]) wake();
  }
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

/** The `webhook-id` of an event: `msg_` and the event id's own characters, so both stay stable. */
function messageId(event: PaymentEvent): string {
  return `msg_${event.id.slice('evt_'.length)}`;
}

function view(delivery: Delivery): MockWebhookDelivery {
  const { event } = delivery;
  return {
    id: delivery.id,
    endpointId: delivery.endpoint.id,
    eventId: event.id,
    messageId: messageId(event),
    type: event.type,
    paymentId: event.paymentId,
    paymentStateVersion: event.version,
    status: delivery.status,
    duplicate: delivery.duplicate,
    createdAt: isoTime(event.at),
    nextAttemptAt:
      delivery.status === 'pending' && delivery.nextAt !== null ? isoTime(delivery.nextAt) : null,
    attempts: delivery.attempts.map((a) => ({ ...a })),
  };
}

function copyEndpoint(endpoint: Endpoint): MockWebhookEndpoint {
  return {
    id: endpoint.id,
    url: endpoint.url,
    secret: endpoint.secret,
    types: endpoint.types && [...endpoint.types],
  };
}

/** The error code of a failed fetch (ECONNRESET, ECONNREFUSED, …), never its URL or headers. */
function codeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code) ? ` (${code})` : '';
}

function positive(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`createMockGateway: ${name} must be a number > 0, got ${String(value)}`);
  }
  return value;
}

function checkChaos(chaos: MockWebhookChaos): Required<MockWebhookChaos> {
  const rate = (value: number | undefined, name: string) => {
    if (value === undefined) return 0;
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw new RangeError(`webhookChaos.${name} must be a number from 0 to 1, got ${value}`);
    }
    return value;
  };
  const window = chaos.reorderWindowMs ?? 0;
  if (typeof window !== 'number' || !(window >= 0 && window <= MAX_TIMER_MS)) {
    throw new RangeError(`webhookChaos.reorderWindowMs must be a number of ms >= 0, got ${window}`);
  }
  return {
    duplicateRate: rate(chaos.duplicateRate, 'duplicateRate'),
    dropRate: rate(chaos.dropRate, 'dropRate'),
    reorderWindowMs: window,
  };
}

/** A valid endpoint, or a TypeError naming the field (never the secret). */
export function checkEndpoint(input: MockWebhookEndpointInput, id: string): Endpoint {
  if (!input || typeof input !== 'object') throw new TypeError('webhook endpoint: must be { url }');
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new TypeError('webhook endpoint: url must be an absolute http: or https: URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('webhook endpoint: url must be an absolute http: or https: URL');
  }
  const secret = input.secret ?? generateWebhookSecret();
  if (
    typeof secret !== 'string' ||
    !secret.startsWith('whsec_') ||
    secretKeyBytes(secret) === undefined
  ) {
    throw new TypeError('webhook endpoint: secret must be whsec_ followed by base64');
  }
  const { types } = input;
  if (
    types !== undefined &&
    !(Array.isArray(types) && types.every((t) => typeof t === 'string' && t !== ''))
  ) {
    throw new TypeError('webhook endpoint: types must be an array of event types');
  }
  return { id, url: url.href, secret, types: types ? [...types] : null };
}
