/**
 * When and what the relay saves: a change marks the state dirty and a save follows within
 * `everyMs` (one at a time); each save is one synchronous snapshot of the state, the follower's
 * checkpoint and the sink's undelivered events.
 */
import type { PaymentFollowerCheckpoint } from 'merchant-gateway';
import type { EventSink } from './relay';
import type { RelayState, StateStore } from './state';

export interface StateSaverOptions {
  /** Undefined: nothing is saved (no `--state` or `--database-url`). */
  store: StateStore | undefined;
  sink: EventSink;
  state: RelayState;
  /** The follower's checkpoint now. */
  checkpoint(): PaymentFollowerCheckpoint;
  /** The longest a change waits before the state holding it is written. */
  everyMs: number;
  warn(message: string): void;
}

export class StateSaver {
  readonly #options: StateSaverOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #saving: Promise<void> | undefined;

  constructor(options: StateSaverOptions) {
    this.#options = options;
  }

  /** Something changed: a save within `everyMs` (after the one under way, if any). */
  dirty(): void {
    if (this.#timer !== undefined || this.#options.store === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#saving !== undefined) {
        this.dirty();
        return;
      }
      this.#saving = this.save().finally(() => {
        this.#saving = undefined;
      });
    }, this.#options.everyMs);
  }

  /** The last save: none waits any more, the one under way ends, then one more. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    await this.#saving;
    await this.save();
  }

  async save(): Promise<void> {
    const { store, sink, state } = this.#options;
    if (store === undefined) return;
    // One synchronous snapshot: every change the checkpoint counts as yielded is delivered, in
    // `events`, or in a spill segment from `spillFrom` on (on disk before the state is written).
    const persisted = sink.persist?.();
    const snapshot: RelayState = {
      ...state,
      // Copies: the store writes after awaits, while builds go on changing these.
      pending: [...(state.pending ?? [])],
      sequence: { ...state.sequence },
      stages: { ...state.stages },
      settling: { ...state.settling },
      checkpoint: this.#options.checkpoint(),
      events: sink.events(),
      ...(persisted === undefined ? {} : { spillFrom: persisted.spillFrom }),
    };
    try {
      await persisted?.durable;
      await store.save(snapshot);
      if (persisted !== undefined) await sink.saved?.(persisted.spillFrom);
    } catch (error) {
      this.#options.warn(`saving the state to ${store.where}: ${(error as Error).message}`);
    }
  }
}
