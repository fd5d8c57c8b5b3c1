import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['plugins']>[number];

// A `for…in` loop walks inherited enumerable keys too: with any key set on Object.prototype before
// the import (a polluted environment), zod's class setup (`members`, run when the module-level
// schemas are built), esbuild's CommonJS `__export` and zod's `propValues` read `table[key]` for a
// key that is not there and throw. Every such loop in what we ship iterates an object's own keys
// (each is a plain object, or checks hasOwnProperty itself), so `Object.keys` gives the same keys
// in a clean environment and only those under pollution. The build fails if one is left, so an
// upgraded dependency's new loop is seen here rather than by a user.
const FOR_IN = /\bfor \((const|let|var) ([\w$]+) in ([\w$.]+)\)/g;
const ownKeysOnly: Plugin = {
  name: 'own-keys-only',
  renderChunk(code, chunk) {
    if (!/\.c?js$/.test(chunk.path)) return;
    const rewritten = code.replace(FOR_IN, 'for ($1 $2 of Object.keys(Object($3)))');
    const left = /\bfor \((?:const|let|var) [\w$]+ in /.exec(rewritten);
    if (left !== null) {
      throw new Error(
        `${chunk.path}: a for…in loop the own-keys-only rewrite does not handle: ${rewritten.slice(left.index, left.index + 80)}`,
      );
    }
    return { code: rewritten };
  },
};

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/cli': 'src/testing/serve/cli.ts',
  },
  clean: false, // the two builds share dist/: `npm run build` empties it first
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
  plugins: [ownKeysOnly],
};

export default defineConfig([
  // The declarations, once for both formats: one TypeScript program, written as .d.ts and .d.cts
  // (the same files two builds with `dts` each wrote, at twice the cost). tsup's declaration build
  // passes `baseUrl`, which TypeScript 6 flags as deprecated.
  {
    ...shared,
    entry: {
      ...(shared.entry as Record<string, string>),
      buyer: 'src/buyer.ts',
      webhooks: 'src/webhooks/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: { only: true, compilerOptions: { ignoreDeprecations: '6.0' } },
  },
  // zod/mini's entry loads every locale at import (about half our import time); bundled, only the
  // parts we use remain. Types still come from the zod dependency, and the exported schemas work
  // with a user's own zod (zod 4 keys its registry and instanceof checks on globalThis and traits).
  // The main entry is built on its own, like the buyer's and the webhooks': sharing chunks with the
  // testing entry spread its import over 20 files (11 alone) and cost its cold start about a tenth
  // (bench/cold-start.ts); the mock carries its own copy of what it uses of the client.
  {
    ...shared,
    entry: { index: 'src/index.ts' },
    format: ['esm'],
    noExternal: ['zod'],
    external: ['ky', 'p-retry'],
  },
  // viem (a devDependency: bundled, tree-shaken, into the testing entry's lazy chunk; the mock's
  // EIP-712 checks need nothing installed) reaches isows only through its WebSocket transport,
  // which the mock never loads: left external, it is dropped with that unused code.
  {
    ...shared,
    entry: { 'testing/index': 'src/testing/index.ts', 'testing/cli': 'src/testing/serve/cli.ts' },
    format: ['esm'],
    noExternal: ['zod'],
    external: ['ky', 'p-retry', 'msw', 'isows'],
  },
  // The buyer entry (merchant-gateway/buyer) built on its own: chunks shared with the main entry
  // would carry the partner's resources into a wallet's bundle.
  {
    ...shared,
    entry: { buyer: 'src/buyer.ts' },
    format: ['esm'],
    noExternal: ['zod'],
    external: ['ky', 'p-retry', 'msw'],
  },
  // The webhooks entry (merchant-gateway/webhooks) built on its own, like the buyer's: a receiver
  // (an edge function, a Worker) ships the verifier and the event schemas, not the client.
  {
    ...shared,
    entry: { webhooks: 'src/webhooks/index.ts' },
    format: ['esm'],
    noExternal: ['zod'],
  },
  // The checkout controller for browsers without a bundler (dist/browser/): everything bundled in,
  // minified, read from disk by the mock's checkout page when a browser asks (no entry loads it).
  // The page script shares the controller's chunk rather than carrying a second copy.
  {
    ...shared,
    entry: {
      checkout: 'src/checkout/browser.ts',
      'wallet-page': 'src/testing/service/buyer/wallet-page.js',
    },
    outDir: 'dist/browser',
    format: ['esm'],
    platform: 'browser',
    noExternal: [/./],
    splitting: true,
    minify: true,
  },
  {
    ...shared,
    entry: {
      ...(shared.entry as Record<string, string>),
      buyer: 'src/buyer.ts',
      webhooks: 'src/webhooks/index.ts',
    },
    format: ['cjs'],
    // Node >= 22.12 can require() ky and p-retry, but esbuild's CJS interop (node mode, as our
    // package is "type": "module") then hands us their namespace as the default export, so
    // `ky.create` is undefined: the CommonJS build carries them (see check-pack's real require()).
    noExternal: ['ky', 'p-retry', 'is-network-error', 'zod'],
    external: ['msw', 'isows'],
    // The CommonJS build loads msw with its own `require`; it never reaches import.meta.
    esbuildOptions(options) {
      options.define = { ...options.define, 'import.meta.url': 'undefined' };
    },
  },
]);
