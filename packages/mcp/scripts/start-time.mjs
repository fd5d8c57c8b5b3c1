// Start time of the server: spawn → the answer to `initialize`, median of RUNS runs.
// node packages/mcp/scripts/start-time.mjs [command args…]   (default: tsx on the source, --mock)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUNS = 7;
const root = fileURLToPath(new URL('../../../', import.meta.url));
const [command, ...args] =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [
        process.execPath,
        `${root}node_modules/tsx/dist/cli.mjs`,
        '--tsconfig',
        `${root}packages/mcp/tsconfig.json`,
        `${root}packages/mcp/src/cli.ts`,
        '--mock',
      ];
const initialize = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'timer', version: '1' },
  },
})}\n`;

function once() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.on('data', (chunk) => {
      if (!chunk.toString().includes('"id":1')) return;
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill();
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before answering`)));
    child.stdin.write(initialize);
  });
}

const times = [];
for (let i = 0; i < RUNS; i++) times.push(await once());
times.sort((a, b) => a - b);
console.log(
  `start to initialize answered: median ${times[RUNS >> 1].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[RUNS - 1].toFixed(0)}, ${RUNS} runs)`,
);
