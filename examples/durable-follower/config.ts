// Configuration of every process of the durable follower, from the environment, checked once at
// start so a typo fails the process at once with the variable's name.

/** What each process of the deployment reads from its environment. */
export interface DurableConfig {
  /** `DATABASE_URL`: the PostgreSQL that holds the `orders` table and pg-boss's tables. */
  databaseUrl: string;
  /** `FOLLOW_QUEUE`: the pg-boss queue of follow jobs. @default 'follow-payment' */
  queue: string;
  /**
   * `FOLLOW_HEARTBEAT_SECONDS`: a worker that holds a job refreshes it well within this; a job not
   * refreshed for this long is taken back and given to another worker (pg-boss's minimum is 10).
   * @default 10
   */
  heartbeatSeconds: number;
  /**
   * `FOLLOW_SUPERVISE_SECONDS`: how often pg-boss looks for jobs whose worker went quiet.
   * A dead worker's payments are taken over within heartbeat + this.
   * @default 2
   */
  superviseSeconds: number;
  /** `FOLLOW_WORKER_CAPACITY`: most payments one worker follows at once. @default 1000 */
  workerCapacity: number;
  /** `FOLLOW_SWEEP_MS`: the follower's `sweepIntervalMs`. @default 5000 */
  sweepIntervalMs: number;
  /** `FOLLOW_MAX_HELD_READS`: the follower's `maxHeldReads`. @default 8 */
  maxHeldReads: number;
  /** `WEB_PORT`: where the web process listens (0: any free port). @default 3000 */
  webPort: number;
  /** `WEB_HOST`: the address it binds (`0.0.0.0` behind a load balancer). @default '127.0.0.1' */
  webHost: string;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): DurableConfig {
  const databaseUrl = env.DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === '') {
    throw new Error('DATABASE_URL is required: postgres://user:password@host:5432/database');
  }
  return {
    databaseUrl,
    queue: env.FOLLOW_QUEUE ?? 'follow-payment',
    heartbeatSeconds: integer(env, 'FOLLOW_HEARTBEAT_SECONDS', 10, 10),
    superviseSeconds: integer(env, 'FOLLOW_SUPERVISE_SECONDS', 2, 1),
    workerCapacity: integer(env, 'FOLLOW_WORKER_CAPACITY', 1000, 1),
    sweepIntervalMs: integer(env, 'FOLLOW_SWEEP_MS', 5000, 100),
    maxHeldReads: integer(env, 'FOLLOW_MAX_HELD_READS', 8, 0),
    webPort: integer(env, 'WEB_PORT', 3000, 0),
    webHost: env.WEB_HOST ?? '127.0.0.1',
  };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number >= ${min}, got ${JSON.stringify(text)}`);
  }
  return value;
}
