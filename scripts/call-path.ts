// Why: CONTRIBUTING promises that a call passes through few source files (issue 36: at most 12 for
// payments.create); this counts them, so the promise is checked rather than recalled.
//
//   npx tsx scripts/call-path.ts
//
// How it counts: the SDK runs from src/ (tsx) against the mock's in-process fetch; after one
// warm-up call, V8's precise coverage (function call counts) is reset, one successful
// `payments.create` runs, and every file of src/ outside the mock (src/testing/) in which a
// function ran is listed, in the order first entered. A file counts once however often it is
// re-entered; module-level code does not run again, so only the call's own work is seen.
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { MerchantGateway } from '../src/index';
import { createMockGateway } from '../src/testing/index';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const mock = createMockGateway();
const gateway = new MerchantGateway({
  baseUrl: 'https://gateway.test',
  apiKey: mock.credentials.apiKey,
  fetch: mock.fetch,
});
const create = () =>
  gateway.payments.create({
    merchantId: mock.sample.merchantId,
    amount: { unit: 'iso4217/USD', value: '1999' },
    referenceId: 'order-1',
  });

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await create();
await session.post('Profiler.takePreciseCoverage'); // resets the counts
await create();
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
session.disconnect();

const files: string[] = [];
for (const script of result) {
  const file = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
  if (!file.startsWith(src) || file.startsWith(`${src}testing/`)) continue;
  if (script.functions.some((f) => f.ranges.some((r) => r.count > 0))) {
    files.push(file.slice(src.length));
  }
}
console.log(`payments.create passes through ${files.length} files of src/ (the mock's left out):`);
for (const file of files) console.log(`  ${file}`);
