/**
 * The deliveries due now, in one lane per endpoint: each lane starts its oldest first, within a
 * budget of attempts in flight of its own, so an endpoint that hangs or fails only ever waits on
 * itself and never holds up another's deliveries (the service's fair share per endpoint).
 */

/** Attempts in flight at once per endpoint: a burst of events never opens a socket each. */
export const MAX_IN_FLIGHT_PER_LANE = 32;

export interface QueueHooks<T> {
  /** Whether a queued item is still to be sent (it may have been stopped while it waited). */
  runnable(item: T): boolean;
  /** Sends it; the lane's budget is taken until the promise settles. */
  run(item: T): Promise<void>;
  /** Called once an attempt gave its budget back. */
  settled(): void;
}

interface Lane<T> {
  ready: T[];
  inFlight: number;
}

export class DeliveryQueue<T> {
  /** Only lanes with something waiting or in flight: a removed endpoint's lane goes with its last attempt. */
  readonly #lanes = new Map<string, Lane<T>>();
  readonly #hooks: QueueHooks<T>;
  #inFlight = 0;
  #stopped = false;

  constructor(hooks: QueueHooks<T>) {
    this.#hooks = hooks;
  }

  /** Attempts in flight now, across lanes. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Queues `item` in the lane `laneKey` (the endpoint's id) and starts it if its lane has room. */
  push(laneKey: string, item: T): void {
    let lane = this.#lanes.get(laneKey);
    if (!lane) {
      lane = { ready: [], inFlight: 0 };
      this.#lanes.set(laneKey, lane);
    }
    lane.ready.push(item);
    this.#pump(laneKey, lane);
  }

  /** Forgets what waits (attempts in flight run to their end). */
  clear(): void {
    for (const [key, lane] of this.#lanes) {
      lane.ready.length = 0;
      if (lane.inFlight === 0) this.#lanes.delete(key);
    }
  }

  /** Starts nothing more, for good. */
  stop(): void {
    this.#stopped = true;
    this.clear();
  }

  #pump(key: string, lane: Lane<T>): void {
    while (lane.inFlight < MAX_IN_FLIGHT_PER_LANE && lane.ready.length > 0 && !this.#stopped) {
      const item = lane.ready.shift() as T;
      if (!this.#hooks.runnable(item)) continue;
      lane.inFlight++;
      this.#inFlight++;
      void this.#hooks.run(item).finally(() => {
        lane.inFlight--;
        this.#inFlight--;
        this.#hooks.settled();
        this.#pump(key, lane);
      });
    }
    if (lane.inFlight === 0 && lane.ready.length === 0 && this.#lanes.get(key) === lane) {
      this.#lanes.delete(key);
    }
  }
}
