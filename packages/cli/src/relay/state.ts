/**
 * What a relay keeps between runs, and `--state FILE`: one JSON document replaced atomically
 * (written beside it, flushed, then renamed over it), so a kill at any moment leaves the old
 * state or the new one, never half of one.
 */
import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, rm } from 'node:fs/promises';
import type { PaymentFollowerCheckpoint } from 'merchant-gateway';
import type { StageTimes } from './envelope';
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
  /**
   * The next `payment_state_version` of each payment with events (the relay's own sequence, from
   * 0): kept until the payment is final (and, succeeded, settled or let go).
   */
  sequence?: Record<string, number> | undefined;
  /**
   * Changes the follower yielded whose events are still being built (their reads in flight): the
   * next start builds them. Kept with the checkpoint that counts them as yielded.
   */
  pending?: PendingChange[] | undefined;
  /**
   * Each stage time the relay gave a payment's events (payment → stage → ISO 8601): every later
   * event of the payment repeats it. Kept as long as `sequence`.
   */
  stages?: Record<string, StageTimes> | undefined;
  /** Succeeded payments read for their settlement until `until` (epoch ms), 24 hours at most. */
  settling?: Record<string, { merchantId: string; until: number; createdAt?: number }> | undefined;
}

/** A change seen, its event still to build. */
export interface PendingChange {
  paymentId: string;
  merchantId: string;
  /** The status reached, or `settled`. */
  status: string;
  isFinal: boolean;
  /** Epoch ms when the relay saw it. */
  observedAt: number;
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

/** Another relay holds the state file's lock. */
export class StateLockedError extends Error {
  override readonly name = 'StateLockedError';
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Rounds of the lock's taking before giving up (each ends refused, taken, or after a short wait). */
const LOCK_ROUNDS = 50;
/** How long a relay waits while another one is taking a dead holder's lock over. */
const CLAIM_WAIT_MS = 20;

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code;
const holderOf = (text: string | undefined) => {
  const pid = Number.parseInt(text ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
};
const readText = (file: string) => readFile(file, 'utf8').catch(() => undefined);
const runsElsewhere = (pid: number | undefined): pid is number =>
  pid !== undefined && pid !== process.pid && alive(pid);

/**
 * Creates `file` holding this process's pid, only if there is none: the pid is written to a file
 * of its own first and linked in place (link refuses an existing name), so the file never exists
 * empty or half-written for a racing relay to mistake for a dead one's.
 */
async function createExclusive(file: string): Promise<boolean> {
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
  const handle = await open(temporary, 'wx');
  try {
    await handle.writeFile(`${process.pid}\n`);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  try {
    await link(temporary, file);
    return true;
  } catch (error) {
    if (errno(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * Moves `file` aside (rename: of racers, one moves it) when it still holds `text`; one that turns
 * out to hold something else is linked back, never over a newer one. Whether it was moved away.
 */
async function moveAside(file: string, text: string): Promise<boolean> {
  const aside = `${file}.${process.pid}.${randomUUID()}.stale`;
  try {
    await rename(file, aside);
  } catch (error) {
    if (errno(error) === 'ENOENT') return false;
    throw error;
  }
  const moved = await readText(aside);
  if (moved !== text) {
    await link(aside, file).catch((error: unknown) => {
      if (errno(error) !== 'EEXIST') throw error;
    });
  }
  await rm(aside, { force: true });
  return moved === text;
}

/** Removes `file` when it holds this process's pid. */
async function removeIfMine(file: string): Promise<void> {
  if (holderOf(await readText(file)) === process.pid) await rm(file, { force: true });
}

/**
 * Takes `FILE.lock` beside the state file, holding the holder's pid, created exclusively. A lock
 * whose pid no longer runs (the holder was SIGKILLed) is taken over atomically: by one relay at a
 * time, the one that created `FILE.lock.claim` exclusively; it checks, under the claim, that the
 * lock still names the dead pid, moves it aside (rename), then creates the new lock exclusively.
 * Of relays started at once on a dead holder's lock, exactly one runs; the others wait out the
 * claim and are refused naming it. A lock whose pid runs refuses the start; a reused pid (an
 * unrelated process got the dead holder's number) refuses too: the message names the file and pid
 * so an operator can remove it. Resolves with the release (the lock removed when still ours).
 */
export async function lockStateFile(path: string): Promise<() => Promise<void>> {
  const lock = `${path}.lock`;
  const claim = `${lock}.claim`;
  const inUse = (pid: number) =>
    new StateLockedError(
      `${path} is in use by another relay (pid ${pid}, lock ${lock}): run one relay per state file (remove ${lock} only if pid ${pid} is not a relay)`,
    );
  const release = () => removeIfMine(lock);
  for (let round = 0; round < LOCK_ROUNDS; round++) {
    if (await createExclusive(lock)) return release;
    const text = await readText(lock);
    if (text === undefined) continue; // removed meanwhile: try again
    const pid = holderOf(text);
    if (runsElsewhere(pid)) throw inUse(pid);
    // The holder is gone (or an older version's lock was torn before its pid was written).
    if (!(await createExclusive(claim))) {
      const claimant = await readText(claim);
      if (claimant !== undefined && !runsElsewhere(holderOf(claimant))) {
        await moveAside(claim, claimant); // its relay died while taking the lock over
      } else {
        await new Promise((resolve) => setTimeout(resolve, CLAIM_WAIT_MS));
      }
      continue;
    }
    try {
      // Under the claim only this relay replaces a dead holder's lock: what it reads now stays.
      const now = await readText(lock);
      const holder = holderOf(now);
      if (runsElsewhere(holder)) throw inUse(holder);
      if (now !== undefined && (await moveAside(lock, now)) && (await createExclusive(lock))) {
        return release;
      }
    } finally {
      await removeIfMine(claim);
    }
  }
  const pid = holderOf(await readText(lock));
  if (runsElsewhere(pid)) throw inUse(pid);
  throw new StateLockedError(
    `${path}: could not take its lock ${lock} (another relay is starting)`,
  );
}
