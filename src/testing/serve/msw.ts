import type * as Msw from 'msw';
import { isNetworkError } from '../service/http/responses';
import { handle } from '../service/http/router';
import type { Store } from '../state/store';

type MswModule = Pick<typeof Msw, 'http' | 'HttpResponse'>;
type NodeModuleApi = typeof import('node:module');

const MISSING_MSW =
  'mock.handlers needs the optional peer dependency msw (npm install --save-dev msw); mock.fetch and mock.listen() work without it';

/** msw handlers for every `/v1/` path on any origin, so a base URL with a prefix works too. */
export function createHandlers(msw: MswModule, store: Store): Msw.HttpHandler[] {
  const { http, HttpResponse } = msw;
  return [
    http.all('*/v1/*', async ({ request }) => {
      const result = await handle(store, request);
      return isNetworkError(result) ? HttpResponse.error() : result;
    }),
  ];
}

/**
 * Loads msw synchronously, for the `mock.handlers` getter: only then, so `mock.fetch` and
 * `mock.listen()` work where msw is not installed. Returns undefined where no synchronous loader
 * exists (a browser bundle): `importMsw` covers that case.
 */
export function requireMsw(): MswModule | undefined {
  return loadMsw(nodeRequire());
}

/** Loads msw with a dynamic import, which bundlers and every runtime understand. */
export function importMsw(): Promise<MswModule> {
  return importMswWith(() => import('msw'));
}

/** `requireMsw` with its loader given; a missing msw becomes an error that says what to install. */
export function loadMsw(load: ((id: string) => unknown) | undefined): MswModule | undefined {
  if (!load) return undefined;
  try {
    return load('msw') as MswModule;
  } catch (error) {
    if (isModuleNotFound(error)) throw new Error(MISSING_MSW, { cause: error });
    throw error;
  }
}

/** `importMsw` with its import given; a missing msw becomes an error that says what to install. */
export async function importMswWith(load: () => Promise<MswModule>): Promise<MswModule> {
  try {
    return await load();
  } catch (error) {
    if (isModuleNotFound(error)) throw new Error(MISSING_MSW, { cause: error });
    throw error;
  }
}

// The CommonJS build has a real `require`; the ESM build's `require` is esbuild's stand-in that
// throws, so there Node's createRequire (reached without a static `node:module` import, which a
// browser bundle could not resolve) reads msw relative to this file. Node 20.19+ and 22.12+
// require an ESM-only msw too, and msw 2's `module-sync` export gives the same instance `import` does.
function nodeRequire(): ((id: string) => unknown) | undefined {
  if (typeof __filename === 'string' && typeof require === 'function') return require;
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
    .process;
  const nodeModule = process?.getBuiltinModule?.('node:module') as NodeModuleApi | undefined;
  return nodeModule?.createRequire(import.meta.url);
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
}
