// Relays started at the same instant on a dead holder's lock: exactly one runs, every other one is
// refused naming it. Six processes (test/fixtures/relay-contender.mjs: the command loaded once,
// then `relay` started at an instant the test gives all of them) race on a fresh stale lock in
// each of 20 trials.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MockService,
  newSecret,
  type Receiver,
  runInProcess,
  secretFile,
  startMockService,
  startReceiver,
  until,
} from './helpers';

const CONTENDER = fileURLToPath(new URL('./fixtures/relay-contender.mjs', import.meta.url));
const CONTENDERS = 6;
const TRIALS = 20;

interface Contender {
  child: ChildProcess;
  /** Every line it reported, parsed. */
  lines: Record<string, unknown>[];
}

let service: MockService;
let receiver: Receiver;
const contenders: Contender[] = [];

beforeAll(async () => {
  service = await startMockService();
  const secret = newSecret();
  receiver = await startReceiver(secret);
  for (let i = 0; i < CONTENDERS; i++) {
    const child = spawn(process.execPath, [CONTENDER], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const contender: Contender = { child, lines: [] };
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) =>
      contender.lines.push(JSON.parse(line) as Record<string, unknown>),
    );
    contenders.push(contender);
  }
  await until(() => contenders.every((c) => c.lines.some((line) => line.ready === true)), {
    // Six processes loading the command through tsx at once: about 25 s on a busy 2-core machine.
    timeoutMs: 280_000,
    what: () => 'contenders loading the command',
  });
  secretPath = secretFile(secret);
}, 300_000);

let secretPath = '';

afterAll(async () => {
  for (const { child } of contenders) child.kill('SIGKILL');
  await receiver?.close();
  await service?.close();
});

/** A pid no process has now: a child that already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('merchant-gateway relay: taking over a dead holder’s lock', () => {
  it(`of ${CONTENDERS} relays started at the same instant on a stale lock, exactly one runs, in each of ${TRIALS} trials`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-lock-race-'));
    const dead = deadPid();
    for (let trial = 0; trial < TRIALS; trial++) {
      const state = join(dir, `state-${trial}.json`);
      writeFileSync(`${state}.lock`, `${dead}\n`);
      const at = Date.now() + 250;
      const argv = [
        'relay',
        '--forward-to',
        receiver.url,
        '--secret',
        secretPath,
        '--state',
        state,
        '--sweep-interval',
        '60000',
      ];
      for (const { child } of contenders) {
        child.stdin?.write(`${JSON.stringify({ trial, at, argv, env: service.env })}\n`);
      }
      const outcome = (c: Contender) =>
        c.lines.find((line) => line.trial === trial && (line.started === true || 'code' in line));
      await until(() => contenders.every((c) => outcome(c) !== undefined), {
        timeoutMs: 60_000,
        what: () => `trial ${trial}: ${JSON.stringify(contenders.map(outcome))}`,
      });
      const running = contenders.filter((c) => outcome(c)?.started === true);
      expect({ trial, running: running.length }).toEqual({ trial, running: 1 });
      const holder = running[0] as Contender;
      for (const c of contenders) {
        if (c === holder) continue;
        const refused = outcome(c) as { code: number; stderr: string };
        expect({ trial, code: refused.code }).toEqual({ trial, code: 1 });
        expect(refused.stderr).toContain(
          `${state} is in use by another relay (pid ${holder.child.pid}`,
        );
      }
      holder.child.stdin?.write(`${JSON.stringify({ stop: trial })}\n`);
      await until(() => holder.lines.some((line) => line.trial === trial && 'code' in line), {
        timeoutMs: 60_000,
        what: () => `trial ${trial}: the holder's stop`,
      });
      expect(holder.lines.find((line) => line.trial === trial && 'code' in line)?.code).toBe(0);
      expect(existsSync(`${state}.lock`)).toBe(false);
    }
  }, 600_000);

  it('starts on a dead holder’s lock left with the claim of a relay that died taking it over', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'relay-lock-claim-')), 'state.json');
    const dead = deadPid();
    writeFileSync(`${state}.lock`, `${dead}\n`);
    writeFileSync(`${state}.lock.claim`, `${dead}\n`);
    const relay = runInProcess(
      ['relay', '--forward-to', receiver.url, '--secret', secretPath, '--state', state],
      service.env,
    );
    let code: number | undefined;
    void relay.done.then((exit) => {
      code = exit;
    });
    await until(() => relay.stderr.includes('forwarding to') || code !== undefined, {
      timeoutMs: 30_000,
      what: () => relay.stderr,
    });
    expect(relay.stderr).toContain('forwarding to');
    relay.stop();
    expect(await relay.done).toBe(0);
    expect(existsSync(`${state}.lock`)).toBe(false);
    expect(existsSync(`${state}.lock.claim`)).toBe(false);
  }, 60_000);
});
