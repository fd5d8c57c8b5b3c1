import { type HttpHandler, HttpResponse, http } from 'msw';
import { handle } from './handle';
import { isNetworkError } from './http';
import type { Store } from './store';

/** msw handlers for every `/v1/` path on any origin, so a base URL with a prefix works too. */
export function createHandlers(store: Store): HttpHandler[] {
  return [
    http.all('*/v1/*', async ({ request }) => {
      const result = await handle(store, request);
      return isNetworkError(result) ? HttpResponse.error() : result;
    }),
  ];
}
