/** The `merchant-gateway` command: dispatch, help, and exit codes (0 ok, 1 API error, 2 usage). */

import { runFollow } from './follow';
import { CLIENT_HELP, type CliIo, EXIT, reportError, UsageError } from './io';
import { runRelay } from './relay/command';
import { isResourceCommand, resourceHelp, runResource } from './resources';
import { VERSION } from './version';

export const USAGE = `Usage: merchant-gateway <command> [flags]

Operators' commands over the merchant-gateway SDK, and a webhook relay for services in any language.

Commands:
${resourceHelp()}
  payments follow ID... | --all
  relay --forward-to URL --secret FILE|- [--state FILE | --database-url URL]
      (the signing secret from FILE, from stdin with -, or without --secret from
      MERCHANT_GATEWAY_WEBHOOK_SECRET; never the secret itself on the command line)

Run merchant-gateway <command> --help for a command's flags.

${CLIENT_HELP}

Exit codes: 0 done, 1 the service refused or could not be reached (class, code and request id on
stderr), 2 bad usage (nothing sent).
`;

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [group, ...rest] = argv;
  let prefix = '';
  try {
    if (group === undefined || group === '--help' || group === '-h' || group === 'help') {
      io.stdout(USAGE);
      return group === undefined ? EXIT.usage : EXIT.ok;
    }
    if (group === '--version' || group === '-v') {
      io.stdout(`${VERSION}\n`);
      return EXIT.ok;
    }
    if (group === 'relay') {
      prefix = 'relay ';
      return await runRelay(rest, io);
    }
    if (group === 'payments' && rest[0] === 'follow') {
      prefix = 'payments follow ';
      return await runFollow(rest.slice(1), io);
    }
    if (isResourceCommand(group)) {
      prefix = `${group} ${rest[0] ?? ''} `.replace(/ {2}$/, ' ');
      return await runResource(group, rest, io);
    }
    throw new UsageError(`unknown command ${JSON.stringify(group)}`);
  } catch (error) {
    return reportError(error, io, prefix);
  }
}
