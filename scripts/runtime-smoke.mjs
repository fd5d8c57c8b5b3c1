// Why: proves the built package (not src/) loads by import and require and completes real calls on whichever node runs this file.
import { createRequire } from 'node:module';
import { drive, startSmokeServer } from './smoke-drive.mjs';

const require = createRequire(import.meta.url);

const server = await startSmokeServer();
try {
  await drive(await import('../dist/index.js'), server);
  await drive(require('../dist/index.cjs'), server);
  console.log(`v${process.versions.node}: dist by import and require, ${server.kind} server`);
} catch (error) {
  console.error(`node ${process.versions.node}: FAILED`, error);
  process.exitCode = 1;
} finally {
  await server.close();
}
