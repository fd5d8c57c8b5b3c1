import type { Change } from './entries';
import type { PaymentStatusChange } from './types';

interface Consumer {
  resolve: (step: IteratorResult<PaymentStatusChange>) => void;
  reject: (error: unknown) => void;
}

/** The changes learned and not yet yielded, and the `next()` calls waiting for one. */
export class ChangeQueue {
  #changes: Change[] = [];
  #head = 0;
  readonly #consumers: Consumer[] = [];

  /** How many `next()` calls wait for a change. */
  get waiting(): number {
    return this.#consumers.length;
  }

  push(item: Change): void {
    this.#changes.push(item);
  }

  /** A `next()` waiting for a change; `deliver` or `settle` answers it. */
  wait(): Promise<IteratorResult<PaymentStatusChange>> {
    return new Promise((resolve, reject) => this.#consumers.push({ resolve, reject }));
  }

  /**
   * The next queued change that `accept` keeps (it may drop one whose payment left, and marks the
   * one it keeps as yielded), or undefined when none is left.
   */
  take(accept: (item: Change) => boolean): PaymentStatusChange | undefined {
    while (this.#head < this.#changes.length) {
      const item = this.#changes[this.#head] as Change;
      this.#changes[this.#head++] = undefined as unknown as Change;
      if (this.#head > 1024 && this.#head * 2 > this.#changes.length) {
        this.#changes.splice(0, this.#head);
        this.#head = 0;
      }
      if (accept(item)) return item.change;
    }
    return undefined;
  }

  /** Hands queued changes to waiting `next()` calls, as long as both are there. */
  deliver(accept: (item: Change) => boolean): void {
    while (this.#consumers.length > 0) {
      const change = this.take(accept);
      if (change === undefined) return;
      this.#consumers.shift()?.resolve({ done: false, value: change });
    }
  }

  /** Drops every queued change and answers every waiting `next()` with `ended()`. */
  settle(ended: () => Promise<IteratorResult<PaymentStatusChange>>): void {
    this.#changes.length = 0;
    this.#head = 0;
    for (const consumer of this.#consumers.splice(0)) {
      ended().then(consumer.resolve, consumer.reject);
    }
  }
}
