/**
 * What a relay keeps between runs, and `--state FILE`: one JSON document replaced atomically
 * (written beside it, flushed, then renamed over it), so a kill at any moment leaves the old
 * state or the new one, never half of one.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import type { PaymentFollowerCheckpoint } from 'merchant-gateway';
import type { RelayEvent } from './webhook';

export interface RelayState {
  version: 1;
  /** When the relay first started (epoch ms): payments created after it are covered from their creation. */
  startedAt: number;
  /** Creation time (epoch ms) up to which new payments were looked for. */
  since: number;
  /** Payments found recently (id → creation, epoch ms): the next look overlaps the last one. */
  recent: Record<string, number>;
  /** Payments added by id whose first read is still to come, with the status the list showed. */
  firstSeen: Record<string, string>;
  /** The follower's checkpoint: every open payment and the last status delivered or queued. */
  checkpoint: PaymentFollowerCheckpoint;
  /** Events not yet delivered and held in memory, each payment's in order (empty with `--database-url`). */
  events: RelayEvent[];
  /**
   * The first spill segment (`FILE.spill-<n>.jsonl`) not read back into `events`: the undelivered
   * events beyond the memory bound are in it and the ones after it, in order. @default 0
   */
  spillFrom?: number | undefined;
}

/** Where a relay's state lives between runs. */
export interface StateStore {
  load(): Promise<RelayState | undefined>;
  save(state: RelayState): Promise<void>;
  /** Where it is, for messages (never a password). */
  readonly where: string;
}

/** A state file that is not a relay's (or a newer version's): refused rather than overwritten. */
class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

export function isRelayState(value: unknown): value is RelayState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Partial<Record<keyof RelayState, unknown>>;
  return (
    state.version === 1 &&
    typeof state.startedAt === 'number' &&
    typeof state.since === 'number' &&
    typeof state.recent === 'object' &&
    state.recent !== null &&
    typeof state.firstSeen === 'object' &&
    state.firstSeen !== null &&
    typeof state.checkpoint === 'object' &&
    state.checkpoint !== null &&
    Array.isArray(state.events) &&
    (state.spillFrom === undefined || Number.isInteger(state.spillFrom))
  );
}

export class FileStateStore implements StateStore {
  readonly where: string;
  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
    this.where = path;
  }

  async load(): Promise<RelayState | undefined> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (!isRelayState(value)) {
      throw new StateFileError(`${this.#path} is not a merchant-gateway relay state file`);
    }
    return value;
  }

  async save(state: RelayState): Promise<void> {
    const temporary = `${this.#path}.${process.pid}.tmp`;
    const file = await open(temporary, 'w');
    try {
      await file.writeFile(JSON.stringify(state));
      await file.datasync();
    } finally {
      await file.close();
    }
    try {
      await rename(temporary, this.#path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
