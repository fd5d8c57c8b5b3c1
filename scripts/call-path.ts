// Why: CONTRIBUTING promises that a call passes through few source files (issue 42: at most 8 for
// payments.create, and no re-entry into its resource); this counts them, so the promise is
// checked rather than recalled.
//
//   npx tsx scripts/call-path.ts
//
// How it counts: the SDK runs from src/ (tsx) against the stub gateway (scripts/stub-gateway.mjs)
// in another process, over real HTTP, so no code of the server's is counted; after one warm-up
// call V8's precise coverage (function call counts) is reset, one successful `payments.create`
// runs, and every file of src/ in which a function ran is listed, in the order first entered,
// with the functions that ran and how often. A file counts once however often it is re-entered;
// module-level code does not run again, so only the call's own work is seen. In the resource's
// file only the method itself (and its own helpers) may run: an anonymous function there is a
// callback the transport calls back into (a re-entry).
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MerchantGateway } from '../src/index';
import { STUB_API_KEY } from './stub-gateway.mjs';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const stub = spawn(
  process.execPath,
  [fileURLToPath(new URL('./stub-gateway.mjs', import.meta.url))],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
const baseUrl = await new Promise<string>((resolve) =>
  createInterface({ input: stub.stdout }).once('line', resolve),
);
const gateway = new MerchantGateway({ baseUrl, apiKey: STUB_API_KEY, merchantId: 'mer_stub' });
const create = () =>
  gateway.payments.create({
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
stub.stdin.end();

const files: { file: string; functions: string[] }[] = [];
for (const script of result) {
  const file = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
  if (!file.startsWith(src)) continue;
  // A function's first range is its whole body: its count is how often it was entered. `__name`
  // is the loader's (tsx keeps function names), not the SDK's.
  const ran = script.functions.filter(
    (f) => (f.ranges[0]?.count ?? 0) > 0 && f.functionName !== '__name',
  );
  if (ran.length === 0) continue;
  const named = ran.filter((f) => f.functionName !== '');
  const anonymous = ran.length - named.length;
  const functions = named.map((f) => `${f.functionName} ×${f.ranges[0]?.count}`);
  if (anonymous > 0) functions.push(`${anonymous} anonymous`);
  files.push({ file: file.slice(src.length), functions });
}
console.log(`payments.create passes through ${files.length} files of src/:`);
for (const { file, functions } of files)
  console.log(`  ${file.padEnd(24)} ${functions.join(', ')}`);
