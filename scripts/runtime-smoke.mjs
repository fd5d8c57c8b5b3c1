// Why: proves the built package (not src/) loads by import and require and completes real calls on whichever runtime runs this file (Node, Bun, Deno).
import { createRequire } from 'node:module';
import { drive, driveBuyer, driveWebhooks, startSmokeServer } from './smoke-drive.mjs';

const require = createRequire(import.meta.url);
const runtime =
  typeof Bun !== 'undefined'
    ? `bun ${Bun.version}`
    : typeof Deno !== 'undefined'
      ? `deno ${Deno.version.deno}`
      : `node ${process.versions.node}`;

const server = await startSmokeServer();
try {
  await drive(await import('../dist/index.js'), server);
  await drive(require('../dist/index.cjs'), server);
  // merchant-gateway/buyer, by import and require.
  await driveBuyer(await import('../dist/index.js'), await import('../dist/buyer.js'), server);
  await driveBuyer(require('../dist/index.cjs'), require('../dist/buyer.cjs'), server);
  // merchant-gateway/webhooks by import and require, and the main entry's Webhooks (its
  // verifier a chunk of its own, loaded on first use).
  await driveWebhooks(await import('../dist/webhooks.js'));
  await driveWebhooks(require('../dist/webhooks.cjs'));
  await driveWebhooks(await import('../dist/index.js'));
  await driveWebhooks(require('../dist/index.cjs'));
  console.log(
    `${runtime}: dist by import and require, the buyer and webhooks entries by both, ${server.kind} server`,
  );
} catch (error) {
  console.error(`${runtime}: FAILED`, error);
  process.exitCode = 1;
} finally {
  await server.close();
}
// msw's module-level BroadcastChannel is unref()'d only where the runtime can (Node, Bun):
// under Deno it would keep the process alive after the checks are done.
process.exit(process.exitCode ?? 0);
