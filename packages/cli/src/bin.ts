#!/usr/bin/env node
/** Entry of the `merchant-gateway` command (package `bin`): wires `runCli` to the process. */
import { createInterface } from 'node:readline/promises';
import { runCli } from './main';

const stop = new Promise<string>((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
});

runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  stdinIsTTY: process.stdin.isTTY === true,
  async readStdin() {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text;
  },
  async ask(question) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  },
  stop,
}).then(
  (code) => {
    process.exitCode = code;
    // Signal listeners and idle sockets must not keep a finished command alive.
    process.exit();
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
