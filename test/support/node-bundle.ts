// Why: a child started with `node --import tsx` spends about 1 s of CPU on tsx's loader and on
// transforming src/ before it runs a line (0.35 s for plain node), and the suite starts dozens of
// them. One esbuild bundle per program, src/ resolved as tsx resolves it (the tsconfig's paths),
// runs the same code on plain `node`.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..', '..');
// Under the root, so that the packages a bundle leaves to Node resolve from its node_modules.
const OUT = join(ROOT, 'node_modules', '.cache', 'merchant-gateway-test-bundles');

/** A program given by its source text; `dir` is where its relative imports resolve from. */
export interface ProgramSource {
  code: string;
  name: string;
  dir: string;
}

/**
 * Bundles a TypeScript program (a file, or source text) into one ES module for plain `node`:
 * `merchant-gateway` and its entries are src/ (tsconfig.json's paths, as under tsx), every other
 * package is imported from node_modules at run time. Returns the bundle's path; the same bundle is
 * written once and shared (its name is its content's hash).
 */
export async function bundleForNode(program: string | ProgramSource): Promise<string> {
  const name = typeof program === 'string' ? basename(program).replace(/\.\w+$/, '') : program.name;
  const result = await build({
    ...(typeof program === 'string'
      ? { entryPoints: [program] }
      : {
          stdin: {
            contents: program.code,
            resolveDir: program.dir,
            sourcefile: `${program.name}.ts`,
            loader: 'ts',
          },
        }),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    tsconfig: join(ROOT, 'tsconfig.json'),
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]?.text ?? '';
  const file = join(
    OUT,
    `${name}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`,
  );
  if (!existsSync(file)) {
    mkdirSync(OUT, { recursive: true });
    // Written aside and renamed: a file bundling the same program at once never reads half of it.
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return file;
}
