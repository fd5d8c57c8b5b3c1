// The issue's "done when": from a shell with only curl and the command running, create a payment,
// set it succeeded through the control API, and read it back through /v1. Runs every ```sh block
// under the heading below, as written, with the real curl against the real command.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningMockCommand, startMockCommand } from '../support/mock-command';

/** The markdown file that documents the control API, under the heading below. */
const DOC = 'docs/testing.md';
const HEADING = 'Driving the mock over HTTP';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

/** The ```sh blocks between `heading` and the next heading of the same or a higher level. */
function shellBlocksUnder(markdown: string, heading: string): string[] {
  const blocks: string[] = [];
  let level = 0; // of the heading while inside its section, else 0
  let block: string[] | undefined; // the lines of the open ```sh block
  let fenced = false; // inside any code block: a `# comment` there is no heading
  for (const line of markdown.split('\n')) {
    if (/^```\w*$/.test(line)) {
      if (fenced && block) blocks.push(block.join('\n'));
      block = !fenced && level > 0 && line === '```sh' ? [] : undefined;
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      block?.push(line);
      continue;
    }
    const hashes = /^(#{1,6}) (.*)$/.exec(line);
    if (!hashes) continue;
    const depth = (hashes[1] as string).length;
    if (hashes[2] === heading) level = depth;
    else if (depth <= level) level = 0;
  }
  return blocks.map((lines) => `${lines}\n`);
}

let sidecar: RunningMockCommand;
beforeAll(async () => {
  sidecar = await startMockCommand();
}, 30_000);
afterAll(() => sidecar?.stop());

describe(`${DOC}: ${HEADING}`, () => {
  const blocks = shellBlocksUnder(readFileSync(join(ROOT, DOC), 'utf8'), HEADING);

  test('has a sh block that uses nothing but curl and the shell', () => {
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.join('\n')).toContain('curl ');
  });

  test('each sh block runs against the command: the payment reads back succeeded through /v1', async () => {
    for (const block of blocks) {
      // The block's defaults name port 4010; the test's command has a free port of its own.
      const { stdout, stderr } = await run(
        'bash',
        ['--norc', '--noprofile', '-eo', 'pipefail', '-c', block],
        {
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            MOCK: sidecar.url,
            KEY: sidecar.apiKey,
          },
          timeout: 20_000,
        },
      );
      expect(stderr).toBe('');
      expect(stdout).toMatch(/"status":"succeeded"/);
      expect(stdout).toMatch(
        /\{"status":"succeeded","isFinal":true,"pollInMs":null,"info":\{"txId":"test:pay_/,
      );
    }
  }, 60_000);

  test('finds only the blocks under the heading', () => {
    const markdown = [
      '## Other',
      '```sh',
      'no',
      '```',
      `### ${HEADING}`,
      '```sh',
      'yes',
      '```',
      '#### Sub',
      '```sh',
      'sub',
      '```',
      '### Next',
      '```sh',
      'no',
      '```',
    ].join('\n');
    expect(shellBlocksUnder(markdown, HEADING)).toEqual(['yes\n', 'sub\n']);
  });
});
