// The `merchant-gateway-mock` command from source, in a child process on a free loopback port, as
// a sidecar user runs it: for the tests that drive it from outside (curl, the quickstart).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MerchantGateway } from 'merchant-gateway';
import type { MockGateway } from 'merchant-gateway/testing';
import { bundleForNode } from './node-bundle';

const CLI = fileURLToPath(new URL('../../src/testing/serve/cli.ts', import.meta.url));

export interface RunningMockCommand {
  /** Its URL, read from the banner. */
  url: string;
  /** The partner key the banner prints. */
  apiKey: string;
  /** The sample merchant the banner names. */
  merchantId: string;
  /** SIGTERM, then resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** `mock` served with `mock.listen()`, in the command's shape: a test runs the same on either. */
export async function listenLikeCommand(
  mock: MockGateway,
): Promise<Omit<RunningMockCommand, 'stop'> & { stop(): Promise<void> }> {
  const server = await mock.listen();
  return {
    url: server.url,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
    stop: () => server.close(),
  };
}

/** Starts the command with `--port 0` and `args`; rejects if no banner within `timeoutMs`. */
export async function startMockCommand(
  args: string[] = [],
  timeoutMs = 20_000,
): Promise<RunningMockCommand> {
  const child = spawn(process.execPath, [await bundleForNode(CLI), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no banner in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('Stop with')) {
        clearTimeout(timer);
        resolve(stdout);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${stderr}`));
    });
  });
  const read = (pattern: RegExp) => {
    const value = pattern.exec(banner)?.[1];
    if (value === undefined) throw new Error(`no ${pattern} in:\n${banner}`);
    return value;
  };
  return {
    url: read(/listening on (http:\/\/\S+)/),
    apiKey: read(/Api-Key +(\S+)/),
    merchantId: read(/Sample merchant: +(\S+)/),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A partner's client on a running command: its URL, the key and the sample merchant it prints. */
export function partnerFor(running: Omit<RunningMockCommand, 'stop'>): MerchantGateway {
  return new MerchantGateway({
    baseUrl: running.url,
    apiKey: running.apiKey,
    merchantId: running.merchantId,
  });
}
