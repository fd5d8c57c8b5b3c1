/**
 * The mock's webhook sender: delivers each payment event to every endpoint that takes its type, as
 * the service delivers (docs/webhooks.md): one signed POST per attempt (`post-attempt.ts`), retries
 * on the service's schedule, scaled (`retry-schedule.ts`), then failed and kept in the bounded log
 * (`delivery-log.ts`) for a resend; optional chaos (`chaos.ts`). Every timer is unref'd.
 */
import type { PaymentEvent } from '../state/events';
import { isoTime } from '../state/records';
import { Rng } from '../state/rng';
import type { EventSink } from '../state/store';
import type {
  MockWebhookDelivery,
  MockWebhookEndpoint,
  MockWebhookEndpointInput,
  MockWebhooks,
} from '../types';
import { DeliveryChaos } from './chaos';
import { type Delivery, DeliveryLog, deliveryView } from './delivery-log';
import { DeliveryQueue } from './delivery-queue';
import { postAttempt } from './post-attempt';
import { retryWaitMs, unrefTimer } from './retry-schedule';
import {
  checkChaos,
  checkEndpoint,
  copyEndpoint,
  DEFAULT_LOG_SIZE,
  DEFAULT_TIMEOUT_MS,
  positive,
  type SenderOptions,
  type WebhookFetch,
} from './sender-options';

export class WebhookSender implements EventSink, MockWebhooks {
  readonly #endpoints = new Map<string, MockWebhookEndpoint>();
  readonly #log: DeliveryLog;
  readonly #queue: DeliveryQueue<Delivery>;
  readonly #chaos: DeliveryChaos;
  readonly #idleWaiters = new Set<() => void>();
  readonly #retryScale: number;
  readonly #timeoutMs: number;
  readonly #fetch: WebhookFetch | undefined;
  readonly #idRng: Rng;
  #pending = 0;
  #closed = false;

  constructor(options: SenderOptions) {
    this.#retryScale = positive(options.retryScale, 'webhookRetryScale', 1);
    this.#timeoutMs = positive(options.timeoutMs, 'webhookTimeoutMs', DEFAULT_TIMEOUT_MS);
    const logSize = Math.floor(positive(options.logSize, 'webhookLogSize', DEFAULT_LOG_SIZE));
    this.#log = new DeliveryLog(logSize);
    this.#chaos = new DeliveryChaos(checkChaos(options.chaos ?? {}), options.seed);
    this.#fetch = options.fetch;
    this.#idRng = new Rng(options.seed ^ 0x0de1_7e55);
    this.#queue = new DeliveryQueue<Delivery>({
      runnable: (delivery) => delivery.status === 'pending' && !delivery.abort,
      run: (delivery) => this.#attempt(delivery),
      settled: () => this.#notifyIdle(),
    });
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
    return [...this.#log.values()].map(deliveryView);
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
    return deliveryView(delivery);
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
      const timer = unrefTimer(() => done(false), timeoutMs);
      this.#idleWaiters.add(onIdle);
    });
  }

  // --- the mock's own controls ---------------------------------------------------------------

  /** Back to no deliveries (endpoints stay: they are configuration, like the credentials). */
  reset(): void {
    for (const delivery of this.#log.values()) this.#stop(delivery);
    this.#log.clear();
    this.#queue.clear();
    this.#pending = 0;
    this.#chaos.restart();
    this.#notifyIdle();
  }

  /** Stops every delivery for good: nothing more is sent. */
  close(): void {
    this.#closed = true;
    for (const delivery of this.#log.values()) {
      if (delivery.status === 'pending') this.#stop(delivery);
    }
    this.#queue.stop();
    this.#notifyIdle();
  }

  // --- delivery ------------------------------------------------------------------------------

  #enqueue(endpoint: MockWebhookEndpoint, event: PaymentEvent, duplicate: boolean, delayMs = 0) {
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
    this.#log.add(delivery, this.#pending, (victim) => this.#stop(victim));
    if (!duplicate && this.#chaos.drops()) {
      delivery.status = 'dropped';
      return;
    }
    this.#pending++;
    if (duplicate) {
      this.#schedule(delivery, delayMs);
      return;
    }
    const { holdMs, twinMs } = this.#chaos.plan();
    this.#schedule(delivery, holdMs);
    if (twinMs !== null) this.#enqueue(endpoint, event, true, twinMs);
  }

  #schedule(delivery: Delivery, ms: number): void {
    clearTimeout(delivery.timer);
    delivery.timer = undefined;
    if (ms <= 0) {
      this.#due(delivery);
      return;
    }
    delivery.nextAt = Date.now() + ms;
    delivery.timer = unrefTimer(() => {
      delivery.timer = undefined;
      this.#due(delivery);
    }, ms);
  }

  #due(delivery: Delivery): void {
    delivery.nextAt = Date.now();
    this.#queue.push(delivery.endpoint.id, delivery);
  }

  async #attempt(delivery: Delivery): Promise<void> {
    const abort = new AbortController();
    delivery.abort = abort;
    const started = Date.now();
    const { status, error } = await postAttempt({
      endpoint: delivery.endpoint,
      event: delivery.event,
      fetch: this.#fetch ?? globalThis.fetch,
      timeoutMs: this.#timeoutMs,
      abort,
      stopped: () => this.#closed,
    });
    // Stopped meanwhile (reset, close, endpoint removed): the result is not recorded.
    if (delivery.abort !== abort) return;
    delivery.abort = undefined;
    delivery.attempts.push({
      at: isoTime(started),
      status,
      error,
      durationMs: Date.now() - started,
    });
    delivery.round++;
    const wait = retryWaitMs(delivery.round, this.#retryScale);
    if (error === null) this.#finish(delivery, 'delivered');
    else if (wait === undefined) this.#finish(delivery, 'failed');
    else this.#schedule(delivery, wait);
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
    return this.#pending <= 0 && this.#queue.inFlight === 0;
  }

  #notifyIdle(): void {
    if (!this.#isIdle()) return;
    for (const wake of [...this.#idleWaiters]) wake();
  }
}
