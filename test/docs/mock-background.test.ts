// The background recipe for the mock command in docs/testing.md, run as written
// with sh and the real curl: the mock starts, answers, and `kill $MOCK_PID` stops it, so nothing
// serves after (issue 37.9: `npx merchant-gateway-mock &` then `kill $!` left the mock running).
// The tests run from source, so the package's dist/testing/cli.js is, in a scratch project, a
// file that loads src/testing/serve/cli.ts through tsx: the same process as the built file.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const project = mkdtempSync(join(tmpdir(), 'mock-background-'));
const bin = join(project, 'node_modules', 'merchant-gateway', 'dist', 'testing');
mkdirSync(bin, { recursive: true });
writeFileSync(
  join(bin, 'cli.js'),
  `import ${JSON.stringify(pathToFileURL(join(ROOT, 'src/testing/serve/cli.ts')).href)};\n`,
);
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The first ```sh block after `heading` in `file`. */
function recipe(file: string, heading: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = text.indexOf('```sh\n', text.indexOf(heading));
  expect(text.indexOf(heading)).toBeGreaterThan(-1);
  return text.slice(start + 6, text.indexOf('```', start + 6));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// The README points to docs/testing.md for it (its Testing section stays short).
describe.each([['docs/testing.md', '### In the background (a script, CI)']])(
  '%s: %s',
  (file, heading) => {
    test('starts the mock, reaches it, and stops it for good', { timeout: 30_000 }, async () => {
      const script = recipe(file, heading);
      expect(script).toContain('kill "$MOCK_PID"');
      const port = await freePort();
      const { code, stdout, stderr } = await new Promise<{
        code: number | null;
        stdout: string;
        stderr: string;
      }>((resolve) => {
        const child = execFile(
          'sh',
          ['-c', `${script}echo "pid=$MOCK_PID"\n`],
          {
            cwd: project,
            timeout: 25_000,
            env: {
              ...process.env,
              MOCK_PORT: String(port),
              NODE_OPTIONS: `--import=${pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href}`,
            },
          },
          (_, out, err) => resolve({ code: child.exitCode, stdout: out, stderr: err }),
        );
      });
      expect(code, stderr).toBe(0);
      expect(stdout).toContain(`listening on http://127.0.0.1:${port}`);
      if (script.includes('limit=1')) expect(stdout).toContain('"merchants":['); // its own call
      expect(stdout).toContain('mock stopped (SIGTERM)');
      const pid = Number(/pid=(\d+)/.exec(stdout)?.[1]);
      expect(pid).toBeGreaterThan(0);
      expect(isRunning(pid)).toBe(false);
      await expect(fetch(`http://127.0.0.1:${port}/v1/merchants`)).rejects.toThrow();
    });
  },
);
