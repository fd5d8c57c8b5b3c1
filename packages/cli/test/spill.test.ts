// The relay's spill segments on a real file system: the order they give events back in, and what a
// kill leaves behind (a torn last line, a segment the saved state already holds).
import { appendFileSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envelopeOf, type RelayEvent } from '../src/relay/envelope';
import { Spill } from '../src/relay/spill';

const event = (n: number): RelayEvent =>
  envelopeOf(
    {
      paymentId: `pay_${n}`,
      merchantId: 'm_1',
      status: 'processing',
      version: 0,
      observedAt: Date.now(),
      live: false,
    },
    {},
  );

async function readAll(spill: Spill): Promise<string[][]> {
  const reads: string[][] = [];
  while (await spill.read((events) => reads.push(events.map((e) => e.data.payment_id)))) {}
  return reads;
}

describe('the relay spill', () => {
  it('gives events back in the order written, a segment at a time, and skips a line torn by a kill', async () => {
    const base = join(mkdtempSync(join(tmpdir(), 'spill-')), 'state.json');
    const first = await Spill.open({ base, segmentSize: 2, from: 0, deleteOnRead: false });
    for (let n = 1; n <= 5; n++) await first.append(event(n));
    await first.durable();
    // A kill in the middle of writing the sixth line.
    appendFileSync(`${base}.spill-000002.jsonl`, '{"id":"msg_torn","data":{"payme');
    const again = await Spill.open({ base, segmentSize: 2, from: 0, deleteOnRead: false });
    expect(again.size).toBe(5);
    expect(await readAll(again)).toEqual([['pay_1', 'pay_2'], ['pay_3', 'pay_4'], ['pay_5']]);
    expect(again.size).toBe(0);
    expect(again.from).toBe(3);
    // Appended after a restart: a segment of its own, after the ones found.
    await again.append(event(6));
    expect(await readAll(again)).toEqual([['pay_6']]);
  });

  it('deletes a segment read back once a saved state holds it, and one a saved state held before a kill', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spill-'));
    const base = join(dir, 'state.json');
    const spill = await Spill.open({ base, segmentSize: 2, from: 0, deleteOnRead: false });
    for (let n = 1; n <= 6; n++) await spill.append(event(n));
    await spill.read(() => {});
    await spill.read(() => {});
    expect(spill.from).toBe(2);
    await spill.release(1);
    expect(existsSync(`${base}.spill-000000.jsonl`)).toBe(false);
    expect(existsSync(`${base}.spill-000001.jsonl`)).toBe(true);
    await spill.close();
    // Killed before the release: the state saved says 2, so segment 1 is a leftover.
    const restarted = await Spill.open({ base, segmentSize: 2, from: 2, deleteOnRead: false });
    expect(readdirSync(dir).sort()).toEqual(['state.json.spill-000002.jsonl']);
    expect(await readAll(restarted)).toEqual([['pay_5', 'pay_6']]);
  });

  it('reports a write it could not make to whoever appends next or waits for the disk', async () => {
    const base = join(mkdtempSync(join(tmpdir(), 'spill-')), 'gone', 'state.json');
    const spill = await Spill.open({
      base,
      segmentSize: 10,
      from: 0,
      deleteOnRead: true,
      bufferLines: 1,
    });
    await expect(spill.append(event(1))).rejects.toThrow(/ENOENT/);
    await expect(spill.durable()).rejects.toThrow(/ENOENT/);
    expect(() => spill.append(event(2))).toThrow(/ENOENT/);
  });
});
