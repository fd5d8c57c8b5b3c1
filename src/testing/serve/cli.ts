#!/usr/bin/env node
/** Entry of the `merchant-gateway-mock` command (package `bin`): wires `runCommand` to the process. */
import { runCommand } from './command';

const stop = new Promise<string>((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
});

// No top-level await: the same entry is built as CommonJS too.
runCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stop,
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
