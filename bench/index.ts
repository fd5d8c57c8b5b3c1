// Why: one command (npm run bench) for every performance figure the project tracks, written to bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { startStubProcess } from './common';
import { runOverhead } from './overhead';
import { runProfile } from './profile';

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

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/latest.json', import.meta.url),
  `${JSON.stringify(results, null, 2)}\n`,
);
console.log('\nwrote bench/results/latest.json');
