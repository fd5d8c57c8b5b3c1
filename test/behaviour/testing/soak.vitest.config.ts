// `npm run test:soak`: the soak of the mock command (soak.test.ts) on its own. Its heap bound
// allows 256 B per request after warm-up, so it needs the requests a machine to itself gives it
// (about 20,000 in its 20 s here); beside the rest of the suite it got a tenth of them and its
// bound fell under the heap's own noise. `npm test` runs it alone, after everything else.
import { defineConfig } from 'vitest/config';
import base from '../../../vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/behaviour/testing/soak.test.ts'],
    exclude: ['**/node_modules/**'],
  },
});
