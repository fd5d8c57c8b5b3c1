// The checkout page's scripts over the mock's real HTTP: the package's browser build read from
// dist/browser/ (tests run after `npm run build`), nothing else of the disk, a clear answer when a
// file is missing.
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const mock = createMockGateway();
let server: MockServer;

beforeAll(async () => {
  server = await mock.listen();
});
afterAll(() => server?.close());

describe('the checkout page scripts', () => {
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
