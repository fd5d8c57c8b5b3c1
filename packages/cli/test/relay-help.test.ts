// What `merchant-gateway --help` shows of the relay is a command line the relay takes: the help
// once showed `--secret whsec_...`, which the relay refuses (a secret on the command line).
import { afterEach, describe, expect, it } from 'vitest';
import {
  cli,
  type MockService,
  newSecret,
  type Receiver,
  runInProcess,
  secretFile,
  startMockService,
  startReceiver,
  until,
} from './helpers';

let service: MockService | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await service?.close();
  receiver = undefined;
  service = undefined;
});

describe('merchant-gateway --help: the relay line', () => {
  it('runs as shown: each form of --secret it names, and the environment it names, starts the relay', async () => {
    const help = await cli(['--help'], {});
    const line = help.stdout.split('\n').find((text) => text.trimStart().startsWith('relay '));
    expect(line).toBeDefined();
    // The required part (optional [...] groups left out): relay --forward-to URL --secret <forms>.
    const required = (line as string)
      .replace(/\[[^\]]*\]/g, ' ')
      .trim()
      .split(/\s+/);
    const secretAt = required.indexOf('--secret');
    expect(secretAt).toBeGreaterThan(0);
    const forms = (required[secretAt + 1] as string).split('|');
    expect(help.stdout).toContain('MERCHANT_GATEWAY_WEBHOOK_SECRET');

    service = await startMockService();
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const url = receiver.url;
    const runs: { argv: string[]; env: Record<string, string>; stdin?: string }[] = forms.map(
      (form) => ({
        argv: required.map((token, i) =>
          i === secretAt + 1 ? (form === 'FILE' ? secretFile(secret) : form) : token,
        ),
        env: service?.env ?? {},
        ...(form === '-' ? { stdin: `${secret}\n` } : {}),
      }),
    );
    // Without --secret: the variable the help names.
    runs.push({
      argv: required.filter((_, i) => i !== secretAt && i !== secretAt + 1),
      env: { ...service.env, MERCHANT_GATEWAY_WEBHOOK_SECRET: secret },
    });
    for (const run of runs) {
      const argv = run.argv.map((token) => (token === 'URL' ? url : token));
      const relay = runInProcess(
        argv,
        run.env,
        run.stdin === undefined ? {} : { stdin: run.stdin },
      );
      let code: number | undefined;
      void relay.done.then((exit) => {
        code = exit;
      });
      await until(() => relay.stderr.includes('following') || code !== undefined, {
        timeoutMs: 20_000,
        what: () => `${argv.join(' ')}: ${relay.stderr}`,
      });
      expect({ argv, started: relay.stderr.includes('following') }).toEqual({
        argv,
        started: true,
      });
      relay.stop();
      expect(await relay.done).toBe(0);
    }
  }, 60_000);
});
