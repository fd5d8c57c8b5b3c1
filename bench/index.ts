// Why: one command (npm run bench) for every performance figure the project tracks, written to bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { runColdImport } from './cold-import';
import { startStubProcess } from './common';
import { runConcurrency } from './concurrency';
import { runOverhead } from './overhead';
import { PAGE_SIZE, PAGES, runPagination } from './pagination';
import { runProfile } from './profile';
import { runValidation } from './validation';

const only = process.argv.slice(2);
const wants = (name: string) => only.length === 0 || only.includes(name);
const results: Record<string, unknown> = {
  node: process.version,
  date: new Date().toISOString(),
};

if (wants('overhead')) {
  const stub = await startStubProcess();
  try {
    results.overhead = await runOverhead(stub);
  } finally {
    await stub.close();
  }
}

if (wants('profile')) {
  const stub = await startStubProcess();
  try {
    results.profile = await runProfile(stub);
  } finally {
    await stub.close();
  }
}

if (wants('pagination')) {
  const stub = await startStubProcess({
    STUB_PAGES: String(PAGES),
    STUB_PAGE_SIZE: String(PAGE_SIZE),
  });
  try {
    results.pagination = await runPagination(stub);
  } finally {
    await stub.close();
  }
}

if (wants('validation')) results.validation = await runValidation();

if (wants('cold-import')) results.coldImport = await runColdImport();

if (wants('concurrency')) results.concurrency = await runConcurrency();

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/latest.json', import.meta.url),
  `${JSON.stringify(results, null, 2)}\n`,
);
console.log('\nwrote bench/results/latest.json');
