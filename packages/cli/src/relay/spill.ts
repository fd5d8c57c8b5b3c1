/**
 * Undelivered events beyond the relay's in-memory bound, on disk: appended to numbered segment
 * files (`<base>.spill-<n>.jsonl`, one event a line, in the order the follower yielded them) and
 * read back one segment at a time, oldest first, when the deliveries held in memory run low. A
 * segment is never written again once the next one begins. One read back is deleted only after
 * the state holding its events is saved (at once when there is no state), so a kill at any moment
 * leaves every event the saved checkpoint counts as yielded in the state or in a segment.
 */
import { type FileHandle, open, readdir, readFile, rm, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { RelayEvent } from './webhook';

export interface SpillOptions {
  /** Path prefix of the segments: `${base}.spill-<n>.jsonl`. */
  base: string;
  /** Events per segment: what one read back brings into memory. */
  segmentSize: number;
  /** The first segment not yet read back, as the saved state says (older ones are leftovers). */
  from: number;
  /** No state to save read events in first: a segment read back is deleted at once. */
  deleteOnRead: boolean;
  /** Lines buffered before they are written (the heap's share of the spill). @default 64 */
  bufferLines?: number | undefined;
}

const isEvent = (value: unknown): value is RelayEvent =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as RelayEvent).id === 'string' &&
  typeof (value as RelayEvent).data?.payment_id === 'string';

/** The events of a segment; a line torn by a kill during its write is skipped (its change comes again). */
function parse(text: string): RelayEvent[] {
  const events: RelayEvent[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isEvent(value)) events.push(value);
    } catch {
      // torn
    }
  }
  return events;
}

async function readSegment(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

export class Spill {
  readonly where: string;
  readonly #options: SpillOptions;
  /** Segments holding events not read back, oldest first (the last may be the one written). */
  readonly #segments: number[];
  /** Segments read back, to delete once a saved state holds their events. */
  readonly #read: number[] = [];
  #from: number;
  #tail: number;
  #tailCount = 0;
  #size: number;
  #lines: string[] = [];
  #handle: FileHandle | undefined;
  #handleSegment = -1;
  /** File operations, one after another (an error reaches whoever awaits that operation). */
  #chain: Promise<void> = Promise.resolve();
  /** The first failed file operation: every later call throws it (events may be missing after it). */
  #failed: Error | undefined;

  private constructor(options: SpillOptions, segments: number[], size: number) {
    this.#options = options;
    this.where = `${options.base}.spill-*.jsonl`;
    this.#segments = segments;
    this.#from = options.from;
    this.#tail = Math.max(options.from, ...segments.map((n) => n + 1));
    this.#size = size;
  }

  /** Finds the segments a previous run left (deleting those the state already holds). */
  static async open(options: SpillOptions): Promise<Spill> {
    const prefix = `${basename(options.base)}.spill-`;
    const names = await readdir(dirname(options.base)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const found = names
      .filter((name) => name.startsWith(prefix) && /^\d+\.jsonl$/.test(name.slice(prefix.length)))
      .map((name) => Number.parseInt(name.slice(prefix.length), 10))
      .sort((a, b) => a - b);
    const segments: number[] = [];
    let size = 0;
    for (const n of found) {
      const path = Spill.#path(options.base, n);
      if (n < options.from) {
        await unlink(path);
        continue;
      }
      segments.push(n);
      size += parse(await readSegment(path)).length;
    }
    return new Spill(options, segments, size);
  }

  static #path(base: string, n: number): string {
    return `${base}.spill-${String(n).padStart(6, '0')}.jsonl`;
  }

  /** Events on disk not yet read back. */
  get size(): number {
    return this.#size;
  }

  /** The first segment not yet read back: what the state records beside the events in memory. */
  get from(): number {
    return this.#from;
  }

  /** Appends an event after every earlier one; the promise (when the buffer is full) is backpressure. */
  append(event: RelayEvent): Promise<void> | undefined {
    if (this.#failed !== undefined) throw this.#failed;
    if (this.#tailCount >= this.#options.segmentSize) this.#rotate();
    if (this.#tailCount === 0) this.#segments.push(this.#tail);
    this.#lines.push(JSON.stringify(event));
    this.#tailCount++;
    this.#size++;
    if (this.#lines.length >= (this.#options.bufferLines ?? 64)) return this.#flush();
    // The lines of one turn of the event loop go out together, soon after it.
    if (this.#lines.length === 1) setImmediate(() => void this.#flush().catch(() => {}));
    return undefined;
  }

  /** Every event appended so far written and flushed to the disk. */
  durable(): Promise<void> {
    void this.#flush().catch(() => {});
    return this.#then(async () => {
      if (this.#failed !== undefined) throw this.#failed;
      await this.#handle?.datasync();
    });
  }

  /**
   * Reads back the oldest segment and hands its events to `take` synchronously, together with the
   * move of `from` past it; false when nothing is on disk.
   */
  async read(take: (events: RelayEvent[]) => void): Promise<boolean> {
    const segment = this.#segments[0];
    if (segment === undefined) return false;
    // The segment being written is closed first: later events go to the next one.
    if (segment === this.#tail) this.#rotate();
    await this.#chain;
    if (this.#failed !== undefined) throw this.#failed;
    const path = Spill.#path(this.#options.base, segment);
    const events = parse(await readSegment(path));
    this.#segments.shift();
    this.#from = segment + 1;
    this.#size -= events.length;
    take(events);
    if (this.#options.deleteOnRead) await rm(path, { force: true });
    else this.#read.push(segment);
    return true;
  }

  /** A state recording `from` is saved: the segments before it are no longer needed. */
  async release(from: number): Promise<void> {
    while (this.#read[0] !== undefined && this.#read[0] < from) {
      await rm(Spill.#path(this.#options.base, this.#read.shift() as number), { force: true });
    }
  }

  /** Writes and flushes what is buffered and closes the segment being written. */
  async close(): Promise<void> {
    await this.durable();
    await this.#then(() => this.#closeHandle());
  }

  #then(operation: () => Promise<void>): Promise<void> {
    const done = this.#chain.then(operation);
    this.#chain = done.catch((error: Error) => {
      this.#failed ??= error;
    });
    return done;
  }

  #flush(): Promise<void> {
    const lines = this.#lines;
    const segment = this.#tail;
    this.#lines = [];
    return this.#then(async () => {
      if (lines.length === 0) return;
      if (this.#handleSegment !== segment) {
        await this.#closeHandle();
        this.#handle = await open(Spill.#path(this.#options.base, segment), 'a');
        this.#handleSegment = segment;
      }
      await this.#handle?.write(`${lines.join('\n')}\n`);
    });
  }

  #rotate(): void {
    void this.#flush().catch(() => {});
    void this.#then(() => this.#closeHandle()).catch(() => {});
    this.#tail++;
    this.#tailCount = 0;
  }

  async #closeHandle(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    this.#handleSegment = -1;
    if (handle === undefined) return;
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }
}
