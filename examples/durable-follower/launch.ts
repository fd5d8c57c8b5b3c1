// Starts the example's processes as a process manager would, and reads their JSON log lines.
// Used by run.ts (one command, locally) and by the example's test.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** One log line of a process (see `log` in db.ts). */
export interface LogEvent {
  at: number;
  role: string;
  event: string;
  [field: string]: unknown;
}

export interface Launched {
  readonly name: string;
  readonly child: ChildProcess;
  /** Every event logged so far, oldest first. */
  readonly events: LogEvent[];
  /** Resolves with the first event (logged before or after the call) that matches. */
  waitFor(event: string, timeoutMs: number, match?: (e: LogEvent) => boolean): Promise<LogEvent>;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when the process has exited and all its output has been read. */
  readonly exited: Promise<void>;
  /** The last lines it wrote to stderr (for a failure's message). */
  stderr(): string;
}

/** Runs `file` (TypeScript, through tsx) as its own Node process with `env`. */
export function launch(name: string, file: string, env: NodeJS.ProcessEnv): Launched {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: LogEvent[] = [];
  const waiters = new Set<(e: LogEvent) => void>();
  let errText = '';
  createInterface({ input: child.stdout }).on('line', (line) => {
    let event: LogEvent;
    try {
      event = JSON.parse(line) as LogEvent;
    } catch {
      return; // not one of our lines
    }
    events.push(event);
    for (const waiter of waiters) waiter(event);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    errText = (errText + chunk.toString()).slice(-4000);
  });
  // 'close' comes after 'exit' and after the last line of its output was read.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  // One exit listener for every pending waitFor, however many wait at once.
  const onExit = new Set<() => void>();
  child.once('exit', () => {
    for (const gone of onExit) gone();
  });

  return {
    name,
    child,
    events,
    exited,
    stderr: () => errText,
    waitFor(event, timeoutMs, match = () => true) {
      const found = events.find((e) => e.event === event && match(e));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const done = (e: LogEvent): void => {
          if (e.event !== event || !match(e)) return;
          cleanup();
          resolve(e);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`${name}: no "${event}" within ${timeoutMs} ms. stderr: ${errText}`));
        }, timeoutMs);
        const gone = (): void => {
          cleanup();
          reject(new Error(`${name} exited before "${event}". stderr: ${errText}`));
        };
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(done);
          onExit.delete(gone);
        };
        if (child.exitCode !== null || child.signalCode !== null) {
          gone();
          return;
        }
        waiters.add(done);
        onExit.add(gone);
      });
    },
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
