#!/usr/bin/env node
// The command: `merchant-gateway-mcp [--mock] [--http PORT] [--allow …] …` (see --help).
import { MerchantGateway } from 'merchant-gateway';
import { HELP, parseArgs, UsageError } from './args';
import { looksLive, type Policy, redact } from './policy';
import { exposedTools, serverFactory } from './server';
import { VERSION } from './version';

const say = (line: string) => process.stderr.write(`merchant-gateway-mcp: ${line}\n`);

function fail(message: string, code = 2): never {
  say(message);
  process.exit(code);
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) fail(`${error.message}\n\n${HELP}`);
    throw error;
  }
  if (options.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (options.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }

  let gateway: MerchantGateway;
  const secrets: string[] = [];
  if (options.mock) {
    // Loaded only here: a server for the real service never loads the mock.
    const { createMockGateway } = await import('merchant-gateway/testing');
    const mock = createMockGateway(
      options.mockAdvanceMs > 0 ? { autoAdvanceMs: options.mockAdvanceMs } : {},
    );
    secrets.push(mock.credentials.apiKey, mock.credentials.legacyApiKey);
    gateway = new MerchantGateway({
      baseUrl: 'http://127.0.0.1/mock',
      apiKey: mock.credentials.apiKey,
      merchantId: options.merchantId ?? mock.sample.merchantId,
      fetch: mock.fetch,
    });
  } else {
    const apiKey = process.env.MERCHANT_GATEWAY_API_KEY;
    if (apiKey) secrets.push(apiKey);
    if (process.env.MERCHANT_GATEWAY_LEGACY_API_KEY)
      secrets.push(process.env.MERCHANT_GATEWAY_LEGACY_API_KEY);
    if (
      options.allowed.size > 0 &&
      !options.allowWrites &&
      looksLive(apiKey, process.env.MERCHANT_GATEWAY_BASE_URL)
    ) {
      fail(
        'the API key looks live (no test marker, not a loopback service): writes with it need --allow-writes stated explicitly (with --allow to narrow them). A read-only server needs neither.',
      );
    }
    try {
      gateway = new MerchantGateway(
        options.merchantId !== undefined ? { merchantId: options.merchantId } : {},
      );
    } catch (error) {
      fail(redact((error as Error).message, secrets));
    }
  }

  const policy: Policy = {
    allowed: options.allowed,
    ...(options.cap !== undefined ? { cap: options.cap } : {}),
    secrets,
    audit: (line) => process.stderr.write(`${line}\n`),
  };
  const factory = serverFactory({ gateway, policy });
  const writes = exposedTools(policy)
    .filter((t) => t.kind === 'write')
    .map((t) => t.name);
  const mode = `${options.mock ? 'embedded mock service' : 'service from MERCHANT_GATEWAY_BASE_URL'}; ${
    writes.length === 0 ? 'read-only' : `writes: ${writes.join(', ')}`
  }${options.cap ? `; payments capped at ${options.cap.text} ${options.cap.currency}` : ''}`;

  if (options.http === undefined) {
    // Each transport's modules load only when used: the HTTP ones cost stdio users ~0.5 s of start.
    const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
    const handle = serveStdio(factory, { onerror: (error) => say(redact(error.message, secrets)) });
    say(`${VERSION} on stdio, ${mode}`);
    const stop = () => void handle.close().finally(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }

  const [{ createServer: createHttpServer }, { createMcpHandler }, node] = await Promise.all([
    import('node:http'),
    import('@modelcontextprotocol/server'),
    import('@modelcontextprotocol/node'),
  ]);
  const { localhostHostValidation, localhostOriginValidation, toNodeHandler } = node;
  const handler = createMcpHandler(factory, {
    onerror: (error) => say(redact(error.message, secrets)),
  });
  const serve = toNodeHandler(handler);
  const validHost = localhostHostValidation();
  const validOrigin = localhostOriginValidation();
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(options.http.host);
  const server = createHttpServer((req, res) => {
    if (loopback && (!validHost(req, res) || !validOrigin(req, res))) return;
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('MCP endpoint: /mcp\n');
      return;
    }
    // exactOptionalPropertyTypes: Node types method and url as optional; a server request has both.
    void serve(req as typeof req & { method: string; url: string }, res);
  });
  server.listen(options.http.port, options.http.host, () => {
    const address = server.address();
    const port =
      typeof address === 'object' && address !== null ? address.port : options.http?.port;
    const host = options.http?.host.includes(':') ? `[${options.http.host}]` : options.http?.host;
    if (!loopback)
      say(`warning: listening on ${host}, reachable from other machines, with no authentication`);
    say(`${VERSION} on http://${host}:${port}/mcp, ${mode}`);
  });
  const stop = () => {
    server.close();
    void handler.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error), 1));
