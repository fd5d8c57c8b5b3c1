// Why: the tests run the server from src/ through tsx; this runs what npm would publish. It lays
// out packages/mcp as an installed package (its dist/ and package.json in a folder of its own, with
// `merchant-gateway` as the root package's built dist and the MCP SDK and zod beside it, as npm
// would install them), starts `dist/cli.js --mock` over stdio and speaks JSON-RPC to it: the
// initialize handshake and a read-only tool list, then a reading tool against the embedded mock.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkg, '..', '..');
for (const built of [join(pkg, 'dist/cli.js'), join(root, 'dist/index.js')]) {
  if (!existsSync(built)) {
    console.error(`check-dist: ${built} is missing; run npm run build and npm run build:mcp first`);
    process.exit(1);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'mcp-dist-'));
const installed = join(dir, 'node_modules', 'merchant-gateway-mcp');
mkdirSync(installed, { recursive: true });
cpSync(join(pkg, 'dist'), join(installed, 'dist'), { recursive: true });
cpSync(join(pkg, 'package.json'), join(installed, 'package.json'));
// What `npm install merchant-gateway-mcp` puts beside it: its dependencies, as the root has them.
const link = (name, target) => {
  mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
  symlinkSync(target, join(dir, 'node_modules', name), 'dir');
};
// Exactly the dependencies its package.json declares: one missing there fails this check.
const { dependencies } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
for (const name of Object.keys(dependencies)) {
  link(name, name === 'merchant-gateway' ? root : join(root, 'node_modules', name));
}

const child = spawn(process.execPath, [join(installed, 'dist/cli.js'), '--mock'], {
  cwd: dir,
  env: Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('MERCHANT_GATEWAY_')),
  ),
  stdio: ['pipe', 'pipe', 'pipe'],
});
let stderr = '';
child.stderr.on('data', (chunk) => {
  stderr += chunk;
});
const answers = new Map();
let buffer = '';
child.stdout.on('data', (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
    const line = buffer.slice(0, end).trim();
    buffer = buffer.slice(end + 1);
    if (line === '') continue;
    const message = JSON.parse(line);
    if (message.id !== undefined) answers.get(message.id)?.(message);
  }
});
const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
let exited;
child.on('exit', (code, signal) => {
  exited = new Error(`the server exited (${signal ?? code})\n${stderr}`);
  for (const answer of answers.values()) answer({ error: exited.message });
});
const request = (id, method, params) =>
  new Promise((resolve, reject) => {
    if (exited) return reject(exited);
    const timer = setTimeout(() => reject(new Error(`no answer to ${method}\n${stderr}`)), 20_000);
    answers.set(id, (message) => {
      clearTimeout(timer);
      if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
      else resolve(message.result);
    });
    send({ jsonrpc: '2.0', id, method, params });
  });
const assert = (condition, message) => {
  if (!condition) throw new Error(`check-dist: ${message}\n${stderr}`);
};

try {
  const started = Date.now();
  const init = await request(1, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'check-dist', version: '0' },
  });
  const ms = Date.now() - started;
  assert(init.serverInfo?.name === 'merchant-gateway-mcp', `serverInfo ${JSON.stringify(init)}`);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const { tools } = await request(2, 'tools/list', {});
  const names = tools.map((tool) => tool.name);
  assert(names.includes('payments_status'), `payments_status listed: ${names}`);
  assert(!names.includes('refunds_create'), `read-only by default: ${names}`);
  const result = await request(3, 'tools/call', { name: 'merchants_list', arguments: {} });
  assert(result.isError !== true, `merchants_list: ${JSON.stringify(result)}`);
  console.log(
    `merchant-gateway-mcp as installed: initialize in ${ms} ms, ${names.length} read-only tools, merchants_list answered from the embedded mock`,
  );
} catch (error) {
  console.error(String(error?.stack ?? error));
  process.exitCode = 1;
} finally {
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}
