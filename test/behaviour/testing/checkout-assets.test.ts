// The checkout page's scripts over the mock's real HTTP: the package's browser build read from
// dist/browser/ (tests run after `npm run build`), nothing else of the disk, a clear answer when a
// file is missing.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const mock = createMockGateway();
let server: MockServer;

beforeAll(async () => {
  server = await mock.listen();
});
afterAll(() => server?.close());

describe('the checkout page scripts', () => {
  it.each(['checkout.js', 'wallet-page.js'])(
    '%s loads whole from the mock: every import is a file beside it, none a bare package name',
    async (entry) => {
      const seen = new Set<string>();
      const queue = [entry];
      for (const name of queue) {
        if (seen.has(name)) continue;
        seen.add(name);
        const response = await fetch(`${server.url}/pay/assets/${name}`);
        expect(response.status, name).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        for (const specifier of await importsOf(await response.text())) {
          expect(specifier, `${name} imports ${specifier}`).toMatch(/^\.\/[\w-]+\.js$/);
          queue.push(specifier.slice(2));
        }
      }
      // The controller's code is there (ky and zod bundled in with it).
      expect(seen.size).toBeGreaterThan(1);
    },
  );

  it("the browser build's entry gives the controller and both wallets, nothing else", async () => {
    const entry = await import('../../../src/checkout/browser');
    expect(Object.keys(entry).sort()).toEqual([
      'CheckoutStateError',
      'createCheckout',
      'walletFromAccount',
      'walletFromEip1193',
    ]);
  });

  it('the command (merchant-gateway-mock, run from dist/) serves them too', async () => {
    const cli = join(import.meta.dirname, '..', '..', '..', 'dist', 'testing', 'cli.js');
    const child = spawn(process.execPath, [cli, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      // Read on to the end: the command prints its credentials after its URL.
      const url = await new Promise<string>((resolve, reject) => {
        let printed = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(printed)?.[1];
          if (found) resolve(found);
        });
        child.once('exit', () => reject(new Error(`the command stopped:\n${printed}`)));
      });
      const response = await fetch(`${url}/pay/assets/checkout.js`);
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/\bexport\s*\{/);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  }, 30_000);

  it('a file the build did not write is a 404 naming the command that writes it', async () => {
    const response = await fetch(`${server.url}/pay/assets/missing.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toContain('missing.js is not built: run `npm run build`');
  });

  it.each([
    '/pay/assets/..%2Fpackage.json',
    '/pay/assets/..%2F..%2Fpackage.json',
    '/pay/assets/%2E%2E%2Fbuyer.js',
    '/pay/assets/checkout.js%00.txt',
    '/pay/assets/package.json',
  ])('%s reads nothing outside the build: 404 by name', async (path) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).toMatch(/^No checkout script named /);
    expect(text).not.toContain('"name"');
  });

  it('another method than GET is refused with Allow', async () => {
    const response = await fetch(`${server.url}/pay/assets/checkout.js`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

/** Every module a script imports, statically or by `import()`, as esbuild parses it. */
async function importsOf(code: string): Promise<string[]> {
  const found: string[] = [];
  await build({
    stdin: { contents: code, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    logLevel: 'silent',
    plugins: [
      {
        name: 'record-imports',
        setup(plugin) {
          plugin.onResolve({ filter: /.*/ }, ({ path }) => {
            found.push(path);
            return { path, external: true };
          });
        },
      },
    ],
  });
  return found;
}
