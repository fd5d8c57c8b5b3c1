// Why: in the workspace every dependency is hoisted to the root's node_modules, so a package that
// imports something its own package.json does not declare still works here and breaks for a user.
// This installs the three packages as a user would, from the tarballs `npm pack` makes of them, in
// a project of their own (the SDK's tarball satisfies the packages' `merchant-gateway` range), and
// runs the two commands from what was installed: the cli's dist (no src/ is shipped), a real call
// against the SDK's mock, pg-boss loaded by `--database-url`, and the MCP server's handshake.
// `npm run build` and `npm run build:packages` first; `--keep` keeps the temporary project.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = { sdk: root, cli: join(root, 'packages/cli'), mcp: join(root, 'packages/mcp') };
const keep = process.argv.includes('--keep');
const started = Date.now();

for (const built of ['dist/index.js', 'packages/cli/dist/bin.js', 'packages/mcp/dist/cli.js']) {
  if (!existsSync(join(root, built))) {
    console.error(`check-packages: ${built} is missing: npm run build && npm run build:packages`);
    process.exit(1);
  }
}

function step(name, command, args, options = {}) {
  const t = Date.now();
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...cleanEnv(), npm_config_update_notifier: 'false', ...options.env },
    cwd: options.cwd,
    timeout: 120_000,
  });
  const out = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`.trim();
  const expected = options.status ?? 0;
  if (result.status !== expected) {
    throw new Error(
      `check-packages: FAIL ${name}: exit ${result.status ?? result.signal}, expected ${expected}\n${out}`,
    );
  }
  console.log(`check-packages: ok   ${name} (${Date.now() - t} ms)`);
  return { out, stdout: result.stdout };
}

/** The environment without the SDK's variables: a developer's own key never reaches a check. */
function cleanEnv() {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('MERCHANT_GATEWAY_')),
  );
}

const assert = (condition, message) => {
  if (!condition) throw new Error(`check-packages: ${message}`);
};

/** Starts the installed MCP server over stdio and speaks JSON-RPC to it on the embedded mock. */
async function mcpHandshake(bin, cwd) {
  const child = spawn(process.execPath, [bin, '--mock'], {
    cwd,
    env: cleanEnv(),
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
      const timer = setTimeout(
        () => reject(new Error(`no answer to ${method}\n${stderr}`)),
        30_000,
      );
      answers.set(id, (message) => {
        clearTimeout(timer);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
      });
      send({ jsonrpc: '2.0', id, method, params });
    });
  try {
    const t = Date.now();
    const init = await request(1, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'check-packages', version: '0' },
    });
    const ms = Date.now() - t;
    assert(init.serverInfo?.name === 'merchant-gateway-mcp', `serverInfo ${JSON.stringify(init)}`);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const { tools } = await request(2, 'tools/list', {});
    const names = tools.map((tool) => tool.name);
    assert(names.includes('payments_status'), `payments_status listed: ${names}`);
    assert(!names.includes('refunds_create'), `read-only by default: ${names}`);
    const result = await request(3, 'tools/call', { name: 'merchants_list', arguments: {} });
    assert(result.isError !== true, `merchants_list: ${JSON.stringify(result)}`);
    console.log(
      `check-packages: ok   merchant-gateway-mcp --mock as installed: initialize in ${ms} ms, ${names.length} read-only tools, merchants_list answered`,
    );
  } catch (error) {
    throw new Error(`${error.message}\n${stderr}`);
  } finally {
    child.kill();
  }
}

const temp = mkdtempSync(join(tmpdir(), 'mg-packages-'));
try {
  const tarballs = {};
  for (const [name, dir] of Object.entries(packages)) {
    const [packed] = JSON.parse(
      // With scripts, as `npm publish` packs: the root's `prepack` takes its install-time scripts
      // out of the manifest (scripts/pack-manifest.mjs), so its `prepare` does not run here.
      step(`npm pack ${name}`, 'npm', ['pack', '--json', '--pack-destination', temp], {
        cwd: dir,
      }).stdout,
    );
    for (const file of ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json']) {
      assert(
        packed.files.some((f) => f.path === file),
        `${packed.name}'s tarball lacks ${file}`,
      );
    }
    tarballs[name] = join(temp, packed.filename);
    // No script a consumer's npm would run or warn about is published (issue 41.16).
    const { stdout: manifest } = step(`${packed.name}'s packed package.json`, 'tar', [
      '-xzOf',
      tarballs[name],
      'package/package.json',
    ]);
    const scripts = Object.keys(JSON.parse(manifest).scripts ?? {});
    const found = scripts.filter((n) => /^(pre|post)?(install|prepare)$|^prepublish$/.test(n));
    assert(found.length === 0, `${packed.name} publishes install-time scripts: ${found}`);
  }

  const app = join(temp, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'packages-check', private: true, type: 'module' }, null, 2)}\n`,
  );
  const { out: installOut } = step(
    'npm i <sdk> <cli> <mcp> tarballs',
    'npm',
    ['install', ...Object.values(tarballs), '--no-audit', '--no-fund', '--prefer-offline'],
    { cwd: app },
  );
  const warned = installOut
    .split('\n')
    .filter(
      (l) => l.includes('merchant-gateway') && /install-scripts|allowScripts|prepare/i.test(l),
    );
  assert(warned.length === 0, `installing the tarballs warned about scripts:\n${installOut}`);
  const installed = (name) => join(app, 'node_modules', name);
  assert(!existsSync(installed('merchant-gateway-cli/src')), 'the cli ships its src/');
  // The SDK itself names no PostgreSQL: pg-boss is the cli's own dependency.
  const sdkManifest = JSON.parse(readFileSync(join(installed('merchant-gateway'), 'package.json')));
  assert(
    !JSON.stringify(sdkManifest).includes('pg-boss'),
    'merchant-gateway names pg-boss in its package.json',
  );

  const cli = join(installed('merchant-gateway-cli'), 'bin/merchant-gateway.js');
  const cliVersion = JSON.parse(
    readFileSync(join(installed('merchant-gateway-cli'), 'package.json')),
  ).version;
  const { stdout: version } = step('merchant-gateway --version', process.execPath, [
    cli,
    '--version',
  ]);
  assert(version.trim() === cliVersion, `--version printed ${version}, not ${cliVersion}`);
  const { out: help } = step('merchant-gateway relay --help', process.execPath, [
    cli,
    'relay',
    '--help',
  ]);
  assert(help.includes('--forward-to'), `relay --help does not list --forward-to:\n${help}`);

  // A real call, through the installed SDK, against the installed SDK's mock over HTTP.
  const { createMockGateway } = await import(
    pathToFileURL(join(installed('merchant-gateway'), 'dist/testing/index.js')).href
  );
  const mock = createMockGateway();
  const server = await mock.listen({ port: 0 });
  try {
    const env = {
      MERCHANT_GATEWAY_BASE_URL: server.url,
      MERCHANT_GATEWAY_API_KEY: mock.credentials.apiKey,
      MERCHANT_GATEWAY_MERCHANT_ID: mock.sample.merchantId,
    };
    const child = spawn(process.execPath, [cli, 'merchants', 'list', '--json'], {
      cwd: app,
      env: { ...cleanEnv(), ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert(code === 0, `merchant-gateway merchants list exited ${code}:\n${out}`);
    assert(out.includes(mock.sample.merchantId), `merchants list lacks the sample:\n${out}`);
    console.log('check-packages: ok   merchant-gateway merchants list --json against the mock');
  } finally {
    await server.close();
  }

  // --database-url loads pg-boss and pg from the cli's own dependencies; nothing listens on port 1.
  const { out: pg } = step(
    'merchant-gateway relay --database-url loads pg-boss',
    process.execPath,
    [
      cli,
      'relay',
      '--forward-to',
      'http://127.0.0.1:1/hook',
      '--database-url',
      'postgres://user@127.0.0.1:1/none',
    ],
    {
      cwd: app,
      status: 1,
      env: {
        MERCHANT_GATEWAY_BASE_URL: 'http://127.0.0.1:1',
        MERCHANT_GATEWAY_API_KEY: 'wcp_test_check',
        MERCHANT_GATEWAY_MERCHANT_ID: 'merchant-check',
        // The relay takes its secret from a file, stdin or here, never from its command line.
        MERCHANT_GATEWAY_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      },
    },
  );
  assert(!/needs pg-boss/.test(pg), `pg-boss did not load:\n${pg}`);

  await mcpHandshake(join(installed('merchant-gateway-mcp'), 'dist/cli.js'), app);
  console.log(`check-packages: all good in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`check-packages: kept ${temp}`);
  else rmSync(temp, { recursive: true, force: true });
}
