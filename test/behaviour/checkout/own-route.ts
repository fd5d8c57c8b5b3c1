// A PSP route of the test's own over node:http (the documented paths under /api/wcp), answering
// what the test says: a hostile service behind a route, or answers the mock does not give
// (collectData, a route without allowCancel). Every request is recorded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { onTestFinished } from 'vitest';
import { serve, viewBody } from '../../support';
import { optionsBody, succeeded } from '../../support/buyer-fixtures';

export interface Seen {
  method: string;
  path: string;
  body: unknown;
}

export interface OwnRouteAnswers {
  options: unknown[];
  optionsExtra?: Record<string, unknown>;
  fetched?: unknown[];
  confirm?: (body: unknown) => [number, unknown];
  /** The status reads' answer (default: succeeded). */
  status?: unknown;
  /** Any answer of the test's own, before the ones above (`undefined` to let them answer). */
  override?: (step: string, body: unknown, seen: Seen[]) => [number, unknown] | 'drop' | undefined;
}

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Serves the route's paths for any payment id; closed when the test ends. */
export async function ownRoute(answers: OwnRouteAnswers) {
  const seen: Seen[] = [];
  const server = await serve((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://route.test');
      const body = await bodyOf(request);
      const step = url.pathname.replace(/^\/api\/wcp\/payment\/[^/]+/, '') || '/';
      seen.push({ method: request.method ?? '', path: step, body });
      const own = answers.override?.(step, body, seen);
      if (own === 'drop') return response.destroy();
      if (own !== undefined) return send(response, own[0], own[1]);
      if (step === '/') return send(response, 200, viewBody);
      if (step === '/options') {
        return send(response, 200, optionsBody(answers.options, answers.optionsExtra));
      }
      if (step === '/fetch') return send(response, 200, { actions: answers.fetched ?? [] });
      if (step === '/confirm') {
        const [status, answer] = answers.confirm?.(body) ?? [200, succeeded];
        return send(response, status, answer);
      }
      if (step === '/status') return send(response, 200, answers.status ?? succeeded);
      send(response, 404, { error: { code: 'not_found', message: 'no such route' } });
    })();
  });
  onTestFinished(() => server.close());
  return { route: `${server.url}/api/wcp`, seen };
}
