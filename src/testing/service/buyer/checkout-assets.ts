/**
 * The checkout page's scripts (`{prefix}/pay/assets/{name}.js`): the package's own browser build
 * (`dist/browser/`, written by `npm run build`), read from disk at request time so that no entry's
 * first load carries it, whether the mock runs from dist/ or from src/ under a test runner.
 */

/** A file of the browser build: a name, no path (the build writes flat ESM files). */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.js$/;

const ASSET_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'x-content-type-options': 'nosniff',
  // Rebuilt files keep their names: a page reloaded after `npm run build` gets the new ones.
  'cache-control': 'no-cache',
};

let root: Promise<string | undefined> | undefined;

/** The package's root: the nearest directory up from this module whose package.json is ours. */
function packageRoot(): Promise<string | undefined> {
  root ??= (async () => {
    const { readFile } = await import('node:fs/promises');
    const { dirname, join } = await import('node:path');
    const { fileURLToPath } = await import('node:url');
    // The CommonJS build replaces import.meta.url with undefined; it has __filename instead.
    const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
    for (let dir = dirname(here); ; dir = dirname(dir)) {
      try {
        const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
          name?: unknown;
        };
        if (manifest.name === 'merchant-gateway') return dir;
      } catch {
        // no package.json here (or not JSON): look further up
      }
      if (dirname(dir) === dir) return undefined;
    }
  })();
  return root;
}

/** Answers `GET`/`HEAD` of one script of the browser build; a clear text answer when it is not there. */
export async function serveCheckoutAsset(request: Request, name: string): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return text(405, 'Method not allowed: the checkout scripts are read with GET.', {
      allow: 'GET, HEAD',
    });
  }
  if (!ASSET_NAME.test(name)) return text(404, `No checkout script named ${name.slice(0, 100)}.`);
  const dir = await packageRoot();
  let body: string;
  try {
    if (dir === undefined) throw new Error('package root not found');
    const { readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    body = await readFile(join(dir, 'dist', 'browser', name), 'utf8');
  } catch {
    return text(
      404,
      `The checkout script ${name} is not built: run \`npm run build\` in merchant-gateway (it writes dist/browser/).`,
    );
  }
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: ASSET_HEADERS,
  });
}

function text(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(`${message}\n`, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
  });
}
