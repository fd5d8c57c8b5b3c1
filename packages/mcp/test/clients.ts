// Real MCP clients against the real server process: the 2.x client (protocol 2026-07-28) and the
// 1.x SDK's client (2025-11-25, what most MCP clients ship), over stdio and streamable HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
/**
 * The server as a command, its source through tsx with the package's own tsconfig (no path alias):
 * `merchant-gateway` is the installed SDK, the workspace link to the root's built dist/.
 */
export const serverCommand = {
  command: process.execPath,
  args: [tsx, '--tsconfig', tsconfig, cli],
};

/** The environment without the SDK's variables: a developer's own key never reaches a test server. */
export function cleanEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && !entry[0].startsWith('MERCHANT_GATEWAY_'),
    ),
  );
}

export type Sdk = 'v2' | 'v1';
/** The 2.x client speaks 2025-11-25 unless told otherwise: pinned, it speaks 2026-07-28 or fails. */
const MODERN = { mode: { pin: '2026-07-28' } };
/** What the fake human answers to an elicitation; undefined: the client has no elicitation. */
export type Human = 'accept' | 'decline' | 'cancel' | undefined;

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** The calls a test makes, the same on both SDKs. */
export interface TestClient {
  listTools(): Promise<
    { name: string; annotations?: { readOnlyHint?: boolean | undefined } | undefined }[]
  >;
  callTool(
    name: string,
    args: Record<string, unknown>,
    onProgress?: (p: { progress: number; message?: string | undefined }) => void,
  ): Promise<ToolResult>;
  close(): Promise<void>;
  /** The elicitation messages the fake human was shown. */
  asked: string[];
  /** Everything the server wrote to stderr (stdio only). */
  stderr: () => string;
}

const elicitation = (human: Human) => (human === undefined ? {} : { elicitation: { form: {} } });
/** The fake human's answer: `ref.answer` when given (a test may change it), else `human`. */
const answer = (human: Human, ref?: { answer: Human }) => {
  const said = ref?.answer ?? human;
  return said === 'accept'
    ? { action: 'accept' as const, content: { confirm: true } }
    : { action: said ?? ('cancel' as const) };
};

/** Connects a real client to a spawned stdio server (`flags` as on the command line). */
export async function stdioClient(
  sdk: Sdk,
  flags: string[],
  human?: Human,
  env: Record<string, string> = {},
  ref?: { answer: Human },
): Promise<TestClient> {
  const asked: string[] = [];
  let err = '';
  const params = {
    ...serverCommand,
    args: [...serverCommand.args, ...flags],
    cwd: root,
    env: { ...cleanEnv(), ...env },
    stderr: 'pipe' as const,
  };
  if (sdk === 'v2') {
    const client = new ClientV2(
      { name: 'test-v2', version: '1.0.0' },
      { capabilities: elicitation(human), versionNegotiation: MODERN },
    );
    if (human !== undefined) {
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(String(request.params.message));
        return answer(human, ref);
      });
    }
    const transport = new StdioV2(params);
    transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    await client.connect(transport);
    return wrapV2(client, asked, () => err);
  }
  const client = new ClientV1(
    { name: 'test-v1', version: '1.0.0' },
    { capabilities: elicitation(human) },
  );
  if (human !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return answer(human, ref);
    });
  }
  const transport = new StdioV1(params);
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  await client.connect(transport);
  return wrapV1(client, asked, () => err);
}

/** Connects a real client to a server's streamable HTTP endpoint. */
export async function httpClient(sdk: Sdk, url: string, human?: Human): Promise<TestClient> {
  const asked: string[] = [];
  if (sdk === 'v2') {
    const client = new ClientV2(
      { name: 'test-v2', version: '1.0.0' },
      { capabilities: elicitation(human), versionNegotiation: MODERN },
    );
    if (human !== undefined) {
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(String(request.params.message));
        return answer(human);
      });
    }
    await client.connect(new HttpV2(new URL(url)));
    return wrapV2(client, asked, () => '');
  }
  const client = new ClientV1(
    { name: 'test-v1', version: '1.0.0' },
    { capabilities: elicitation(human) },
  );
  if (human !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return answer(human);
    });
  }
  await client.connect(new HttpV1(new URL(url)));
  return wrapV1(client, asked, () => '');
}

function wrapV2(client: ClientV2, asked: string[], stderr: () => string): TestClient {
  return {
    asked,
    stderr,
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args, onProgress) =>
      (await client.callTool(
        { name, arguments: args },
        onProgress ? { onprogress: onProgress } : {},
      )) as ToolResult,
    close: () => client.close(),
  };
}

function wrapV1(client: ClientV1, asked: string[], stderr: () => string): TestClient {
  return {
    asked,
    stderr,
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args, onProgress) =>
      (await client.callTool(
        { name, arguments: args },
        undefined,
        onProgress ? { onprogress: onProgress } : {},
      )) as ToolResult,
    close: () => client.close(),
  };
}

/** Starts the server with `--http 0` and resolves its URL from the line it prints on stderr. */
export async function httpServer(
  flags: string[],
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(serverCommand.command, [...serverCommand.args, '--http', '0', ...flags], {
    cwd: root,
    env: cleanEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /on (http:\/\/\S+\/mcp)/.exec(err);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  return { url, child, stderr: () => err };
}
