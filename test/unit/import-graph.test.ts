// The shape of src/'s imports, as `npm run graph` prints it: no circle, no import that climbs a
// floor (rules <- schemas <- core <- follow <- resources <- client <- index), no long follow file.
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../scripts/import-graph.mjs';

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('has no import cycle', () => {
    expect(graph.cycles.map((c) => c.path.join(' -> '))).toEqual([]);
  });

  it('has no import that climbs a floor', () => {
    expect(graph.climbs.map((c) => `${c.from} -> ${c.to}`)).toEqual([]);
  });

  it('keeps every file of the follow room within 400 lines', () => {
    expect(graph.long.filter((f) => f.file.startsWith('follow/') && f.lines > 400)).toEqual([]);
  });

  it('sees a cycle, a climb and a long file where there are some', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'graph-'));
    try {
      mkdirSync(join(dir, 'core'));
      mkdirSync(join(dir, 'resources'));
      writeFileSync(join(dir, 'core', 'a.ts'), "import { b } from './b';\nexport const a = 1;\n");
      writeFileSync(
        join(dir, 'core', 'b.ts'),
        "import type { a } from './a';\nexport const b = 2;\n",
      );
      writeFileSync(
        join(dir, 'core', 'c.ts'),
        `import { r } from '../resources/r';\n${'// line\n'.repeat(301)}`,
      );
      writeFileSync(join(dir, 'resources', 'r.ts'), 'export const r = 3;\n');
      const seen = importGraph(dir);
      expect(seen.cycles.map((c) => c.files)).toEqual([['core/a.ts', 'core/b.ts']]);
      expect(seen.climbs).toEqual([
        { from: 'core/c.ts', to: 'resources/r.ts', fromFloor: 'core', toFloor: 'resources' },
      ]);
      expect(seen.long).toEqual([{ file: 'core/c.ts', lines: 302 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
