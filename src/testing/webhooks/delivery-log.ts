/**
 * The delivery log behind `mock.webhooks.deliveries()`: every delivery in insertion order, bounded
 * (past its size the oldest finished one is forgotten, else the oldest pending one given up), and
 * the copies it hands out.
 */
import type { PaymentEvent } from '../state/events';
import { isoTime } from '../state/records';
import type { MockWebhookDelivery, MockWebhookEndpoint } from '../types';
import { messageId } from './post-attempt';

/** One event for one endpoint, through all its attempts. */
export interface Delivery {
  id: string;
  endpoint: MockWebhookEndpoint;
  event: PaymentEvent;
  status: MockWebhookDelivery['status'];
  duplicate: boolean;
  attempts: MockWebhookDelivery['attempts'];
  /** Attempts of the current round (a resend starts a new one). */
  round: number;
  nextAt: number | null;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Set while an attempt is in flight: aborting it stops the attempt. */
  abort: AbortController | undefined;
}

export class DeliveryLog {
  /** The oldest first. */
  readonly #byId = new Map<string, Delivery>();
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  get(id: string): Delivery | undefined {
    return this.#byId.get(id);
  }

  values(): IterableIterator<Delivery> {
    return this.#byId.values();
  }

  clear(): void {
    this.#byId.clear();
  }

  /**
   * Adds `delivery`, first making room at the log's size: `evict` is handed the delivery that
   * goes (to stop it). `pending` is how many in the log are pending.
   */
  add(delivery: Delivery, pending: number, evict: (victim: Delivery) => void): void {
    if (this.#byId.size >= this.#size) {
      const victim = this.#oldestToForget(pending);
      if (victim) {
        evict(victim);
        this.#byId.delete(victim.id);
      }
    }
    this.#byId.set(delivery.id, delivery);
  }

  /** The oldest finished delivery, else the oldest pending one. */
  #oldestToForget(pending: number): Delivery | undefined {
    // Every one pending (a receiver long down): the oldest goes, without a scan of the log.
    if (this.#byId.size <= pending) return this.#byId.values().next().value;
    for (const delivery of this.#byId.values()) {
      if (delivery.status !== 'pending') return delivery;
    }
    return undefined;
  }
}

/** What `mock.webhooks.deliveries()` shows of a delivery: a copy. */
export function deliveryView(delivery: Delivery): MockWebhookDelivery {
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
