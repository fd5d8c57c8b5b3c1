#!/usr/bin/env node
// The shape of src/'s imports, with no dependency: cycles (type imports count: a type circle is
// still two files that cannot be read apart), imports that climb a floor, and files over 300 lines.
//
//   node scripts/import-graph.mjs           prints the three lists
//   node scripts/import-graph.mjs --check   the same, and exits 1 on a cycle or a climb
//   node scripts/import-graph.mjs --json    the lists as JSON
//   node scripts/import-graph.mjs --src DIR another tree (a checkout of an older commit, say)
//
// Floors, lowest first: a file may import its own floor or lower ones, never a higher one.
// src/testing/ is the mock, a second entry beside the client: it may import every floor but the
// client's and the door's, and nothing outside it imports it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const LONG_FILE_LINES = 300;

/** [prefix under src/, floor, name], first match wins. */
const FLOORS = [
  ['version.ts', 0, 'rules'],
  ['rules/', 0, 'rules'],
  ['schemas/', 1, 'schemas'],
  ['core/', 2, 'core'],
  ['follow/', 3, 'follow'],
  ['checkout/', 3, 'checkout'],
  ['resources/', 4, 'resources'],
  ['testing/', 5, 'testing'],
  ['client.ts', 5, 'client'],
  ['client-options.ts', 5, 'client'],
  ['client-config.ts', 5, 'client'],
  ['buyer-client.ts', 5, 'client'],
  ['index.ts', 6, 'index'],
  ['buyer.ts', 6, 'index'],
  ['buyer-api.ts', 6, 'index'],
  // The command line is packages/cli now, a user of the public entries like any program.
];

/**
 * Climbs allowed by name, each for its reason. The mock's checkout page calls the SDK's own
 * `gateway.buyer.route`, as a PSP's server would (issue 40): a client pointed at the mock, loaded by
 * `import()` on the first request to that route, so the testing entry's first load stays without it.
 */
const ALLOWED_CLIMBS = new Set(['testing/service/buyer/checkout-route.ts -> client.ts']);

function floorOf(file) {
  for (const [prefix, floor, name] of FLOORS) {
    if (file === prefix || (prefix.endsWith('/') && file.startsWith(prefix))) {
      return { floor, name };
    }
  }
  // A file in no known room (a root module such as the old polling.ts): the floor above core.
  return { floor: 3, name: 'unplaced' };
}

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

// Static imports and re-exports (`import type` included), `import('…')` in code and in types.
const SPECIFIER =
  /(?:\bimport\s+(?:type\s+)?[^'"`;]*?\bfrom\s*|\bexport\s+(?:type\s+)?[^'"`;]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.mts`,
    `${base}.tsx`,
    base.replace(/\.js$/, '.ts'),
    join(base, 'index.ts'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

export function importGraph(srcDir = SRC) {
  const files = sourceFiles(srcDir);
  const rel = (file) => relative(srcDir, file).split('\\').join('/');
  const edges = new Map();
  const lines = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    lines.set(rel(file), text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
    const targets = new Set();
    for (const match of withoutComments(text).matchAll(SPECIFIER)) {
      const target = resolveImport(file, match[1]);
      if (target?.startsWith(srcDir)) targets.add(rel(target));
    }
    edges.set(rel(file), [...targets].sort());
  }

  // Tarjan's strongly connected components: every file of a cycle, in one group.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      const selfLoop = (edges.get(node) ?? []).includes(node);
      if (group.length > 1 || selfLoop) groups.push(group.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  const cycles = groups.map((group) => ({ files: group, path: cycleIn(group, edges) }));

  const climbs = [];
  for (const [from, targets] of edges) {
    const a = floorOf(from);
    for (const to of targets) {
      const b = floorOf(to);
      const intoMock = b.name === 'testing' && a.name !== 'testing';
      const mockIntoClient = a.name === 'testing' && (b.name === 'client' || b.name === 'index');
      if (ALLOWED_CLIMBS.has(`${from} -> ${to}`)) continue;
      if (b.floor > a.floor || intoMock || mockIntoClient) {
        climbs.push({ from, to, fromFloor: a.name, toFloor: b.name });
      }
    }
  }

  const long = [...lines]
    .filter(([, n]) => n > LONG_FILE_LINES)
    .sort((x, y) => y[1] - x[1])
    .map(([file, n]) => ({ file, lines: n }));
  return { files: files.length, cycles, climbs, long };
}

/** One closed path through a strongly connected group, for a reader to follow. */
function cycleIn(group, edges) {
  const members = new Set(group);
  const start = group[0];
  const seen = new Set([start]);
  const path = [start];
  const walk = (node) => {
    for (const next of edges.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      if (walk(next)) return true;
      path.pop();
    }
    return false;
  };
  walk(start);
  return [...path, start];
}

function print({ files, cycles, climbs, long }) {
  const out = [`src/: ${files} files`];
  out.push(`import cycles: ${cycles.length}`);
  for (const cycle of cycles) {
    out.push(`  ${cycle.files.length} files: ${cycle.path.join(' -> ')}`);
    if (cycle.path.length - 1 < cycle.files.length) {
      out.push(`    (group: ${cycle.files.join(', ')})`);
    }
  }
  out.push(`imports that climb a floor: ${climbs.length}`);
  for (const c of climbs) out.push(`  ${c.from} (${c.fromFloor}) -> ${c.to} (${c.toFloor})`);
  out.push(`files over ${LONG_FILE_LINES} lines: ${long.length}`);
  for (const f of long) out.push(`  ${String(f.lines).padStart(5)}  ${f.file}`);
  return out.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--src');
  const graph = importGraph(at > 0 ? resolve(process.argv[at + 1] ?? SRC) : SRC);
  if (process.argv.includes('--json')) console.log(JSON.stringify(graph, null, 2));
  else console.log(print(graph));
  if (process.argv.includes('--check') && (graph.cycles.length > 0 || graph.climbs.length > 0)) {
    process.exitCode = 1;
  }
}
