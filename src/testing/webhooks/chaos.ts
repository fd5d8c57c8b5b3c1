/**
 * Chaos for receivers: which deliveries are dropped, held back (so later ones overtake them) or
 * sent twice, drawn from a random source seeded like the rest of the mock, so a seed replays them.
 */
import { Rng } from '../state/rng';
import type { MockWebhookChaos } from '../types';

/** A duplicate is sent this long after its original at most, when no reorder window is set. */
const DUPLICATE_SPREAD_MS = 100;
const CHAOS_SEED = 0x00c4_a05e;

/** What happens to one delivery that is not dropped: held `holdMs`, and its twin sent after `twinMs`. */
export interface ChaosPlan {
  holdMs: number;
  /** When its duplicate is sent (ms from now), or null when it has none. */
  twinMs: number | null;
}

export class DeliveryChaos {
  readonly #settings: Required<MockWebhookChaos>;
  readonly #seed: number;
  #rng: Rng;

  constructor(settings: Required<MockWebhookChaos>, seed: number) {
    this.#settings = settings;
    this.#seed = seed;
    this.#rng = new Rng(seed ^ CHAOS_SEED);
  }

  /** Back to the first draw of the seed (after a reset, the same deliveries are chosen again). */
  restart(): void {
    this.#rng = new Rng(this.#seed ^ CHAOS_SEED);
  }

  /** Whether an original delivery is never sent. */
  drops(): boolean {
    const { dropRate } = this.#settings;
    return dropRate > 0 && this.#rng.next() < dropRate;
  }

  /** The hold and the twin of an original delivery that is sent. */
  plan(): ChaosPlan {
    const { duplicateRate, reorderWindowMs } = this.#settings;
    const rng = this.#rng;
    // Half the deliveries are held a random time within the window, so later ones overtake them.
    const holdMs = reorderWindowMs > 0 && rng.next() < 0.5 ? rng.next() * reorderWindowMs : 0;
    const twice = duplicateRate > 0 && rng.next() < duplicateRate;
    const twinMs = rng.next() * (reorderWindowMs > 0 ? reorderWindowMs : DUPLICATE_SPREAD_MS);
    return { holdMs, twinMs: twice ? twinMs : null };
  }
}
